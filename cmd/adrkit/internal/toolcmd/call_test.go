package toolcmd

import "testing"

func TestShortRef(t *testing.T) {
	for in, want := range map[string]string{
		"9": "0009", "42": "0042", "123": "0123", "0009": "0009", "12345": "12345",
		"": "", "x9": "x9", "payments:9": "payments:9", "-1": "-1",
	} {
		if got := ShortRef(in); got != want {
			t.Errorf("ShortRef(%q) = %q, want %q", in, got, want)
		}
	}
}

package frontmatter

import "testing"

// TestCheckURL pins what the rule adds to the parser (whatwgurl's tests
// hold the §7.4 table): JavaScript's trim first, and the trimmed text kept.
func TestCheckURL(t *testing.T) {
	tests := []struct {
		in, trimmed string
		ok          bool
	}{
		{in: " https://Example.com/a b ", trimmed: "https://Example.com/a b", ok: true},
		{in: "\u3000https://example.com\ufeff", trimmed: "https://example.com", ok: true},
		{in: "\x01https://example.com/", trimmed: "\x01https://example.com/", ok: true},
		{in: "   ", trimmed: "", ok: false},
		{in: " example.com ", trimmed: "example.com", ok: false},
	}
	for _, tt := range tests {
		if trimmed, ok := checkURL(tt.in); trimmed != tt.trimmed || ok != tt.ok {
			t.Errorf("checkURL(%q) = %q, %v; want %q, %v", tt.in, trimmed, ok, tt.trimmed, tt.ok)
		}
	}
}

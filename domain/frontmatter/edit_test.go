package frontmatter

import (
	"strings"
	"testing"
)

func TestMarkSuperseded(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"adds supersededBy",
			"---\nid: \"0003\"\ntitle: Old\nstatus: accepted # was fine\ndate: 2026-01-01\ndeciders: [\"@a\"]\n---\n\n# Old\nstatus: accepted\n",
			"---\nid: \"0003\"\ntitle: Old\nstatus: superseded\nsupersededBy: \"0012\"\ndate: 2026-01-01\ndeciders: [\"@a\"]\n---\n\n# Old\nstatus: accepted\n"},
		{"keeps CRLF",
			"---\r\nid: \"0003\"\r\ntitle: Old\r\nstatus: draft\r\ndate: 2026-01-01\r\n---\r\nBody\r\n",
			"---\r\nid: \"0003\"\r\ntitle: Old\r\nstatus: superseded\r\nsupersededBy: \"0012\"\r\ndate: 2026-01-01\r\n---\r\nBody\r\n"},
	} {
		got, err := MarkSuperseded("docs/adr/0003-old.md", tc.in, "0012")
		if err != nil || got != tc.want {
			t.Errorf("%s: %v\n%q\nwant\n%q", tc.name, err, got, tc.want)
		}
	}
	for name, in := range map[string]string{
		"multi-line status": "---\nid: \"0003\"\ntitle: Old\nstatus:\n  draft\ndate: 2026-01-01\n---\n",
		"not a record":      "# Old\n",
	} {
		if got, err := MarkSuperseded("docs/adr/0003-old.md", in, "0012"); err == nil {
			t.Errorf("%s: accepted: %q", name, got)
		}
	}
	// A supersededBy already there (with a wrong status) is replaced in place.
	in := "---\nid: \"0003\"\ntitle: Old\nsupersededBy: \"0009\"\nstatus: superseded\ndate: 2026-01-01\n---\n"
	got, err := MarkSuperseded("x.md", in, "0012")
	if err != nil || !strings.Contains(got, "supersededBy: \"0012\"\nstatus: superseded\n") {
		t.Errorf("replace: %v %q", err, got)
	}
}

package frontmatter

import (
	"strings"
	"testing"
)

// TestCopyAffects: the affects lines of the replaced record land in the
// new block where the schema puts them, line endings made the block's,
// and read back as the old record's matchers; a record without affects
// leaves the block as it is.
func TestCopyAffects(t *testing.T) {
	block := "---\nid: \"0002\"\ntitle: New one\nstatus: proposed\ndate: \"2026-02-01\"\nsupersedes:\n- \"0001\"\n---\n"
	head := "---\nid: \"0001\"\ntitle: Old one\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@a\"]\n"
	for _, tc := range []struct {
		name, from, want string
	}{
		{"block list", head + "affects:\n  - type: path\n    pattern: \"a/**\"\n---\nBody\n",
			"supersedes:\n- \"0001\"\naffects:\n  - type: path\n    pattern: \"a/**\"\n---\n"},
		{"CRLF", strings.ReplaceAll(head+"affects:\n  - type: path\n    pattern: \"a/**\"\n---\nBody\n", "\n", "\r\n"),
			"supersedes:\n- \"0001\"\naffects:\n  - type: path\n    pattern: \"a/**\"\n---\n"},
		{"flow", head + "affects: [{type: path, pattern: \"a/**\", negate: true}]\nreviewBy: 2027-01-01\n---\n",
			"supersedes:\n- \"0001\"\naffects: [{type: path, pattern: \"a/**\", negate: true}]\n---\n"},
		{"none", head + "---\n", "supersedes:\n- \"0001\"\n---\n"},
	} {
		got, err := CopyAffects(block, tc.from)
		if err != nil || !strings.HasSuffix(got, tc.want) || !strings.HasPrefix(got, "---\nid: \"0002\"\n") {
			t.Errorf("%s: %v\n%s", tc.name, err, got)
		}
	}
	if _, err := CopyAffects(block, "not a record"); err == nil {
		t.Error("copying from a file that is no record")
	}
}

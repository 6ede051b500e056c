package app

import (
	"context"
	"strings"
	"testing"
)

// TestNumberTaken: a record the change adds fails when the tip of the
// revision compared with uses its id or its file number in another file;
// the same file on both sides, a renamed record and a free number do not.
func TestNumberTaken(t *testing.T) {
	rec := func(id string) string {
		return "---\nid: \"" + id + "\"\ntitle: Record " + id + "\nstatus: draft\ndate: 2026-01-01\n---\nBody\n"
	}
	base := map[string]string{"0001-a.md": rec("0001")}
	for _, tc := range []struct {
		name    string
		head    map[string]string // besides the base
		tip     map[string]string // besides the base
		changed []string
		want    string // the message of the one number-taken finding, or ""
	}{
		{"id taken at the tip", map[string]string{"0003-mine.md": rec("0003")}, map[string]string{"0003-theirs.md": rec("0003")},
			[]string{"docs/adr/0003-mine.md"},
			"docs/adr/0003-mine.md is new in this change, but its id 0003 is taken on main by docs/adr/0003-theirs.md: give it a free number with adrkit renumber 0003 --next"},
		{"file number taken at the tip", map[string]string{"0003-mine.md": rec("0007")}, map[string]string{"0003-theirs.md": rec("0003")},
			[]string{"docs/adr/0003-mine.md"},
			"docs/adr/0003-mine.md is new in this change, but its file number 0003 is taken on main by docs/adr/0003-theirs.md: give it a free number with adrkit renumber 0007 --next"},
		{"file number taken at the tip by an invalid record", map[string]string{"0003-mine.md": rec("0003")},
			map[string]string{"0003-theirs.md": strings.Replace(rec("0003"), "status: draft", "status: accepted", 1)},
			[]string{"docs/adr/0003-mine.md"},
			"docs/adr/0003-mine.md is new in this change, but its file number 0003 is taken on main by docs/adr/0003-theirs.md: give it a free number with adrkit renumber 0003 --next"},
		{"file number taken at the tip by a file without frontmatter", map[string]string{"0003-mine.md": rec("0003")},
			map[string]string{"0003-theirs.md": "# Notes\n"},
			[]string{"docs/adr/0003-mine.md"},
			"docs/adr/0003-mine.md is new in this change, but its file number 0003 is taken on main by docs/adr/0003-theirs.md: give it a free number with adrkit renumber 0003 --next"},
		{"the same file on both sides", map[string]string{"0003-mine.md": rec("0003")}, map[string]string{"0003-mine.md": rec("0003")},
			[]string{"docs/adr/0003-mine.md"}, ""},
		{"a free number", map[string]string{"0004-mine.md": rec("0004")}, map[string]string{"0003-theirs.md": rec("0003")},
			[]string{"docs/adr/0004-mine.md"}, ""},
		{"a renamed record is not new", map[string]string{"0002-renamed.md": rec("0001")}, map[string]string{"0002-theirs.md": rec("0002")},
			[]string{"docs/adr/0001-a.md", "docs/adr/0002-renamed.md"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head, tip := map[string]string{}, map[string]string{}
			for k, v := range base {
				head[k], tip[k] = v, v
			}
			if tc.name == "a renamed record is not new" {
				delete(head, "0001-a.md")
			}
			for k, v := range tc.head {
				head[k] = v
			}
			for k, v := range tc.tip {
				tip[k] = v
			}
			rep, err := New(corpusFrom(head), Options{}).Check(context.Background(), CheckInput{
				Files: tc.changed, AsOf: "2026-06-15",
				Base: corpusFrom(base), Tip: corpusFrom(tip), TipName: "main",
			})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings {
				if f.Rule == RuleNumberTaken {
					got = append(got, f.Message)
					if !f.Fails || f.Cause != CauseChanged {
						t.Errorf("%+v does not fail", f)
					}
				}
			}
			if strings.Join(got, "\n") != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if tc.want != "" && !rep.Failed(false) {
				t.Error("the check passed")
			}
		})
	}
}

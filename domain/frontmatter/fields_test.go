package frontmatter

import (
	"reflect"
	"strings"
	"testing"
)

func TestEditFields(t *testing.T) {
	const rec = "---\nid: \"0003\"\ntitle: Old\nstatus: accepted # was fine\ndate: 2026-01-01\ndeciders: [\"@a\"]\nrelatesTo:\n  - \"0001\"\n  - \"0002\"\n# a comment\n---\n\n# Old\nstatus: accepted\n"
	for _, tc := range []struct {
		name  string
		in    string
		edits []FieldEdit
		want  string
		lines []LineChange
	}{
		{"status and a new supersededBy after it", rec,
			[]FieldEdit{{"status", "superseded"}, {"supersededBy", "0012"}},
			"---\nid: \"0003\"\ntitle: Old\nstatus: superseded\nsupersededBy: \"0012\"\ndate: 2026-01-01\ndeciders: [\"@a\"]\nrelatesTo:\n  - \"0001\"\n  - \"0002\"\n# a comment\n---\n\n# Old\nstatus: accepted\n",
			[]LineChange{{4, []string{"status: accepted # was fine"}, []string{"status: superseded"}}, {5, []string{}, []string{`supersededBy: "0012"`}}}},
		{"a block list rewritten, the comment after it kept", rec,
			[]FieldEdit{{"relatesTo", []string{"0001", "0009"}}},
			"---\nid: \"0003\"\ntitle: Old\nstatus: accepted # was fine\ndate: 2026-01-01\ndeciders: [\"@a\"]\nrelatesTo:\n- \"0001\"\n- \"0009\"\n# a comment\n---\n\n# Old\nstatus: accepted\n",
			[]LineChange{{7, []string{"relatesTo:", `  - "0001"`, `  - "0002"`}, []string{"relatesTo:", `- "0001"`, `- "0009"`}}}},
		{"a list emptied is removed", rec,
			[]FieldEdit{{"relatesTo", []string{}}},
			"---\nid: \"0003\"\ntitle: Old\nstatus: accepted # was fine\ndate: 2026-01-01\ndeciders: [\"@a\"]\n# a comment\n---\n\n# Old\nstatus: accepted\n",
			[]LineChange{{7, []string{"relatesTo:", `  - "0001"`, `  - "0002"`}, []string{}}}},
		{"a new list after the nearest earlier field, CRLF kept",
			"---\r\nid: \"0005\"\r\ntitle: New\r\nstatus: draft\r\ndate: 2026-01-01\r\ntags: [db]\r\n---\r\nBody\r\n",
			[]FieldEdit{{"supersedes", []string{"0003"}}, {"id", "0006"}},
			"---\r\nid: \"0006\"\r\ntitle: New\r\nstatus: draft\r\ndate: 2026-01-01\r\ntags: [db]\r\nsupersedes:\r\n- \"0003\"\r\n---\r\nBody\r\n",
			[]LineChange{{7, []string{}, []string{"supersedes:", `- "0003"`}}, {2, []string{`id: "0005"`}, []string{`id: "0006"`}}}},
		{"nothing to change", rec, []FieldEdit{{"status", "accepted"}}, rec, nil},
		{"a supersededBy already there replaced in place",
			"---\nid: \"0003\"\ntitle: Old\nsupersededBy: \"0009\"\nstatus: superseded\ndate: 2026-01-01\n---\n",
			[]FieldEdit{{"status", "superseded"}, {"supersededBy", "0012"}},
			"---\nid: \"0003\"\ntitle: Old\nsupersededBy: \"0012\"\nstatus: superseded\ndate: 2026-01-01\n---\n",
			[]LineChange{{4, []string{`supersededBy: "0009"`}, []string{`supersededBy: "0012"`}}}},
	} {
		got, lines, err := EditFields("docs/adr/0003-old.md", tc.in, tc.edits)
		if err != nil || got != tc.want {
			t.Errorf("%s: %v\n%q\nwant\n%q", tc.name, err, got, tc.want)
			continue
		}
		for i := range lines {
			if lines[i].Old == nil {
				lines[i].Old = []string{}
			}
			if lines[i].New == nil {
				lines[i].New = []string{}
			}
		}
		if !reflect.DeepEqual(lines, tc.lines) {
			t.Errorf("%s: lines %#v, want %#v", tc.name, lines, tc.lines)
		}
	}
	for _, tc := range []struct {
		name  string
		in    string
		edits []FieldEdit
	}{
		{"not a record", "# Old\n", []FieldEdit{{"status", "draft"}}},
		{"a result that is invalid", rec, []FieldEdit{{"status", "superseded"}}},
		{"a field it does not edit", rec, []FieldEdit{{"title", "New"}}},
		{"a block scalar", "---\nid: \"0003\"\ntitle: Old\nstatus: >\n  draft\ndate: 2026-01-01\n---\n", []FieldEdit{{"status", "proposed"}}},
	} {
		if got, _, err := EditFields("docs/adr/0003-old.md", tc.in, tc.edits); err == nil {
			t.Errorf("%s: accepted: %q", tc.name, got)
		}
	}
}

// FuzzEditFields: an edit that succeeds reads back as the record with
// the edit, keeps the body, and applying it again changes nothing.
func FuzzEditFields(f *testing.F) {
	f.Add("---\nid: \"0003\"\ntitle: Old\nstatus: accepted # c\ndate: 2026-01-01\ndeciders: [\"@a\"]\nrelatesTo:\n  - \"0001\"\n---\nBody\n", "deprecated", "0001,0002")
	f.Add("---\r\nid: \"0005\"\r\ntitle: New\r\nstatus: draft\r\ndate: 2026-01-01\r\n---\r\n", "proposed", "")
	f.Add("---\nsupersedes: [\"0009\"]\nid: \"0005\"\ntitle: New\nstatus: draft\ndate: 2026-01-01\n# end\n---\n# B\n", "rejected", "0009,0010")
	f.Fuzz(func(t *testing.T, text, status, relates string) {
		var list []string
		if relates != "" {
			list = strings.Split(relates, ",")
		}
		edits := []FieldEdit{{"status", status}, {"relatesTo", list}}
		out, _, err := EditFields("x.md", text, edits)
		if err != nil {
			return
		}
		rec, _ := ParseRecord("x.md", out)
		old, _ := ParseRecord("x.md", text)
		if rec == nil || old == nil || string(rec.Frontmatter.Status) != status || rec.Body != old.Body ||
			strings.Join(rec.Frontmatter.RelatesTo, ",") != relates {
			t.Fatalf("%q → %q", text, out)
		}
		again, lines, err := EditFields("x.md", out, edits)
		if err != nil || again != out || len(lines) != 0 {
			t.Fatalf("a second edit: %v %v %q", err, lines, again)
		}
	})
}

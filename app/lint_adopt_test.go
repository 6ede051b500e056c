package app

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

// TestLintAdoption covers lint's findings about a folder in another
// format: no records at all, hints, and file names that disagree with ids.
func TestLintAdoption(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // rule:path of each adoption finding
	}{
		{"only a README", map[string]string{"README.md": "# Decisions\n"}, nil},
		{"unnumbered notes", map[string]string{"use-postgres.md": "# Use Postgres\n", "README.md": "x"},
			[]string{"no-records:docs/adr"}},
		{"adr-tools folder", map[string]string{"0001-x.md": "# 1. X\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n"},
			[]string{"format-hint:docs/adr/0001-x.md", "no-records:docs/adr"}},
		{"madr 4", map[string]string{"0001-x.md": "---\nstatus: \"superseded by ADR-0002\"\ndecision-makers: [a]\nparent: D\n---\n# X\n"},
			[]string{"format-hint:docs/adr/0001-x.md", "format-hint:docs/adr/0001-x.md", "format-hint:docs/adr/0001-x.md", "no-records:docs/adr"}},
		{"id and name disagree", map[string]string{
			"0002-x.md": "---\nid: \"0003\"\ntitle: Xxx\nstatus: draft\ndate: 2026-01-01\n---\n",
			"0004-y.md": "---\nid: \"000401\"\ntitle: Imported\nstatus: draft\ndate: 2026-01-01\nprovenance:\n  importedFrom: {sourceKind: other, sourceRef: \"nygard:docs/adr/0004-y.md\", fingerprint: x}\n---\n",
			"0005-z.md": "---\nid: \"0005\"\ntitle: Fine\nstatus: draft\ndate: 2026-01-01\n---\n",
		}, []string{"id-file-name-mismatch:docs/adr/0002-x.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc := New(corpusFrom(tc.files), Options{})
			rep, err := svc.Lint(context.Background(), LintInput{AsOf: "2026-06-15"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings {
				switch f.Rule {
				case RuleNoRecords, RuleFormatHint, RuleIDFileName:
					got = append(got, f.Rule+":"+f.Path)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if slices.Contains(tc.want, "no-records:docs/adr") && !rep.Failed(false) {
				t.Error("a folder without records passed")
			}
			for _, f := range rep.Findings {
				if f.Rule == RuleFormatHint && f.Severity != adr.SeverityInfo {
					t.Errorf("hint with severity %s", f.Severity)
				}
			}
		})
	}
}

// corpusFrom is the corpus of docs/adr holding files (name → content).
func corpusFrom(files map[string]string) *memcorpus.Reader {
	r := corpusOf()
	for name, content := range files {
		r.WriteFile(name, []byte(content))
	}
	return r
}

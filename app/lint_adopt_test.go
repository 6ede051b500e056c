package app

import (
	"context"
	"slices"
	"strconv"
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

// TestLintTemplates: a template kept under a name that differs from
// 0000-template.md in case or prefix is left alone by lint, as by
// migrate: no error, no advice to rename it into a record. A valid record
// named like a template is still a record.
func TestLintTemplates(t *testing.T) {
	tpl := "# [short title]\n\n## Status\n\n[proposed | accepted]\n"
	rec := "---\nid: \"0001\"\ntitle: Use X\nstatus: draft\ndate: 2026-01-01\n---\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // rule:path of every finding
	}{
		{"upper case", map[string]string{"0000-TEMPLATE.md": tpl, "0001-x.md": rec}, nil},
		{"adr prefix", map[string]string{"adr000-template.md": tpl, "0001-x.md": rec}, nil},
		{"prefix and number", map[string]string{"0000-adr-template.md": tpl, "0001-x.md": rec}, nil},
		{"an invalid file named like a template is left alone too", map[string]string{"0000-Template.md": "---\nid: \"0000\"\ntitle: T\nstatus: wobbly\n---\n", "0001-x.md": rec}, nil},
		{"a decision about templates is not a template", map[string]string{"0009-extension-template.md": tpl, "0001-x.md": rec},
			[]string{"format-hint:docs/adr/0009-extension-template.md", "frontmatter-fence:docs/adr/0009-extension-template.md"}},
		{"only templates: still no records", map[string]string{"0000-TEMPLATE.md": tpl, "0001-x.md": "# 1. X\n\n## Status\n\nAccepted\n"},
			[]string{"format-hint:docs/adr/0001-x.md", "frontmatter-fence:docs/adr/0001-x.md", "no-records:docs/adr"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := New(corpusFrom(tc.files), Options{}).Lint(context.Background(), LintInput{AsOf: "2026-06-15"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings {
				got = append(got, f.Rule+":"+f.Path)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if rep.SkippedCount != 0 {
				t.Errorf("%d files counted as skipped", rep.SkippedCount)
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

// TestRenamedLinks: a body link to a file that is gone, whose record is
// there under a new name, is reported with the new name; other links are
// not.
func TestRenamedLinks(t *testing.T) {
	rec := func(id, body string) string {
		return "---\nid: \"" + id + "\"\ntitle: Record " + id + "\nstatus: draft\ndate: 2026-01-01\n---\n" + body
	}
	files := map[string]string{
		"0004-batch-payments.md":  rec("0004", "# Batch\n"),
		"0005-keep-invoices.md":   rec("0005", "# Keep\n"),
		"0003-audit-log.md":       rec("0003", "# Audit\n"),
		"0006-links.md":           rec("0006", "\nSee [batch](0003-batch-payments.md#why), [keep](./ADR-0005-keep-invoices.md),\n[audit](0003-audit-log.md), [gone](0099-nothing.md), [web](https://x.example/0003-batch-payments.md)\n```\n[batch](0003-batch-payments.md)\n```\n"),
		"README.md":               "x",
		"0000-template-notes.txt": "x",
	}
	rep, err := New(corpusFrom(files), Options{}).Lint(context.Background(), LintInput{AsOf: "2026-06-15"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings {
		if f.Rule == RuleRenamedLink {
			got = append(got, f.Path+":"+strconv.Itoa(f.Line)+": "+f.Message)
		}
	}
	want := []string{
		`docs/adr/0006-links.md:8: the body links to "0003-batch-payments.md", which is not in the ADR directory; record 0004 is 0004-batch-payments.md now: change the link to (0004-batch-payments.md)`,
		`docs/adr/0006-links.md:8: the body links to "ADR-0005-keep-invoices.md", which is not in the ADR directory; record 0005 is 0005-keep-invoices.md now: change the link to (0005-keep-invoices.md)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

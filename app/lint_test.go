package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/scaffold"
	"github.com/adrkit/adrkit-go/ports"
)

// stoppedClock always tells the same instant.
type stoppedClock struct{ t time.Time }

func (c stoppedClock) Now() time.Time { return c.t }

var june15 = stoppedClock{time.Date(2026, 6, 15, 23, 30, 0, 0, time.UTC)}

func entry(name string, kind ports.EntryKind) fakeFile {
	return fakeFile{entry: ports.Entry{Name: name, Path: "docs/adr/" + name, Kind: kind}}
}

func TestSkippedFindingHeuristic(t *testing.T) {
	cases := []struct {
		name string
		kind ports.EntryKind
		want string // a fragment of the message; "" for not flagged
	}{
		{"0001-kept.md", ports.KindRegular, ""},
		{"0000-template.md", ports.KindRegular, ""},
		{"README.md", ports.KindRegular, ""},
		{"index.md", ports.KindRegular, ""},
		{"notes.md", ports.KindRegular, ""},
		{"adr.md", ports.KindRegular, ""},
		{"address-book.md", ports.KindRegular, ""},
		{"0001-image.png", ports.KindRegular, ""},
		{".0029-hidden.md", ports.KindRegular, ""},
		{".drafts/0030-x.md", ports.KindRegular, ""},
		{"archive/README.md", ports.KindRegular, ""},
		{"templates/0000-template.md", ports.KindRegular, ""},
		{"archive", ports.KindDirectory, ""},
		{"archive/2024", ports.KindDirectory, ""},
		{"001-short.md", ports.KindRegular, "has a 3-digit number"},
		{"1-x.md", ports.KindRegular, "has a 1-digit number"},
		{"0026_underscore.md", ports.KindRegular, `separates the number from the slug with "_"`},
		{"0027 space.md", ports.KindRegular, `separates the number from the slug with " "`},
		{"0024-.md", ports.KindRegular, "has no slug after the number"},
		{"0025.md", ports.KindRegular, "has no slug after the number"},
		{"0022-x.MD", ports.KindRegular, `ends in ".MD"`},
		{"0027-x.markdown", ports.KindRegular, `ends in ".markdown"`},
		{"0000-template.MD", ports.KindRegular, `ends in ".MD"`},
		{"ADR-0015-prefixed.md", ports.KindRegular, `starts with "ADR-" before the number`},
		{"adr_12_x.md", ports.KindRegular, `starts with "adr_" before the number; it has a 2-digit number where at least four digits are needed (0001, not 1); it separates the number from the slug with "_"`},
		{"0041-symlink.md", ports.KindSymlink, "symbolic link"},
		{"0040-directory.md", ports.KindDirectory, "a directory named like a record"},
		{"0042-fifo.md", ports.KindOther, "not a regular file"},
		{"sub/0028-nested.md", ports.KindRegular, `in the subdirectory "sub"`},
		{"a/b/0028-deep.md", ports.KindSymlink, `in the subdirectory "a/b"`},
		{"sub/0040-dir.md", ports.KindDirectory, ""},
	}
	for _, tc := range cases {
		f, ok := skippedFinding(entry(tc.name, tc.kind).entry)
		switch {
		case tc.want == "" && ok:
			t.Errorf("%s: flagged (%s), want left alone", tc.name, f.Message)
		case tc.want != "" && !ok:
			t.Errorf("%s: not flagged, want %q", tc.name, tc.want)
		case ok && !strings.Contains(f.Message, tc.want):
			t.Errorf("%s: message %q lacks %q", tc.name, f.Message, tc.want)
		case ok && (f.Rule != RuleCorpusFileSkipped || f.Severity != adr.SeverityWarn || f.Path != "docs/adr/"+tc.name || f.ID != "" || f.Field != ""):
			t.Errorf("%s: finding %+v", tc.name, f)
		}
	}
}

func TestValidateDate(t *testing.T) {
	for _, ok := range []string{"2026-06-15", "2024-02-29", "0001-01-01"} {
		if err := ValidateDate(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "2026-6-15", "2026-02-30", "2023-02-29", "15/06/2026", "2026-06-15T00:00:00Z", "today"} {
		if err := ValidateDate(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

const overdueRecord = "---\nid: \"0001\"\ntitle: Deploy with blue-green releases\nstatus: %s\ndate: 2025-11-03\n" +
	"deciders: [\"@ops\"]\n%sreviewBy: %s\n---\n\nBody.\n"

func record(status, extra, reviewBy string) string {
	return fmt.Sprintf(overdueRecord, status, extra, reviewBy)
}

func TestReviewOverdue(t *testing.T) {
	cases := []struct {
		status, extra, reviewBy string
		asOf                    string
		overdue                 bool
	}{
		{"accepted", "", "2026-06-14", "", true},
		{"accepted", "", "2026-06-15", "", false}, // due today is not overdue
		{"accepted", "", "2026-06-16", "", false},
		{"proposed", "", "2020-01-01", "", true},
		{"draft", "", "2020-01-01", "", true},
		{"rejected", "", "2020-01-01", "", false},
		{"deprecated", "", "2020-01-01", "", false},
		{"superseded", "supersededBy: \"0002\"\n", "2020-01-01", "", false},
		{"accepted", "", "2026-06-14", "2026-06-01", false}, // --as-of wins over the clock
		{"accepted", "", "2026-06-14", "2026-07-01", true},
	}
	for _, tc := range cases {
		svc := New(corpusOf(regular("0001-x.md", record(tc.status, tc.extra, tc.reviewBy))), Options{})
		rep, err := svc.Lint(context.Background(), LintInput{AsOf: tc.asOf, Clock: june15})
		if err != nil {
			t.Fatal(err)
		}
		var got []adr.Finding
		for _, f := range rep.Findings {
			if f.Rule == RuleReviewOverdue {
				got = append(got, f)
			}
		}
		if (len(got) == 1) != tc.overdue {
			t.Errorf("%s reviewBy %s as of %q: findings %+v", tc.status, tc.reviewBy, tc.asOf, rep.Findings)
			continue
		}
		if tc.overdue {
			f := got[0]
			wantLine := 7
			if f.Severity != adr.SeverityWarn || f.ID != "0001" || f.Field != "reviewBy" || f.Line != wantLine || f.Path != "docs/adr/0001-x.md" {
				t.Errorf("finding %+v", f)
			}
		}
	}
}

func TestLintInputErrors(t *testing.T) {
	svc := New(corpusOf(), Options{})
	if _, err := svc.Lint(context.Background(), LintInput{AsOf: "2026-02-30", Clock: june15}); !errors.Is(err, ErrInvalidLintInput) {
		t.Errorf("bad as-of: %v", err)
	}
	if _, err := svc.Lint(context.Background(), LintInput{}); !errors.Is(err, ErrInvalidLintInput) {
		t.Errorf("no clock: %v", err)
	}
	r := openFails(unavailableErr(corpus.DirNotFound))
	_, err := New(r, Options{}).Lint(context.Background(), LintInput{Clock: june15})
	var u *ports.UnavailableError
	if !errors.As(err, &u) || u.Reason != corpus.DirNotFound {
		t.Errorf("unavailable: %v", err)
	}
}

// TestLintCombinesEverything checks one run over a fake directory: the
// projection's findings get lines, lint adds its own, the stray files are
// scanned from the same listing, and the counts and fingerprint are the
// projection's.
func TestLintCombinesEverything(t *testing.T) {
	files := []fakeFile{
		regular("0001-a.md", "---\nid: \"0001\"\ntitle: First decision\nstatus: accepted\ndate: 2026-01-01\n"+
			"deciders: [\"@a\"]\nrelatesTo:\n  - \"0009\"\naffects:\n  - type: path\n    pattern: \"/abs/**\"\n---\n"),
		regular("0002-b.md", "---\nid: \"0002\"\ntitle: x\nstatus: draft\ndate: 2026-01-01\n---\n"),
		entry("0003_c.md", ports.KindRegular),
		entry("old/0004-d.md", ports.KindRegular),
		entry("0005-e.md", ports.KindSymlink),
	}
	r := corpusOf(files...)
	rep, err := New(r, Options{}).Lint(context.Background(), LintInput{Clock: june15})
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		rule, path string
		line       int
	}
	var got []key
	for _, f := range rep.Findings {
		got = append(got, key{f.Rule, f.Path, f.Line})
	}
	want := []key{
		{"affects-bad-pattern", "docs/adr/0001-a.md", 11},
		{"corpus-file-skipped", "docs/adr/0003_c.md", 0},
		{"corpus-file-skipped", "docs/adr/0005-e.md", 0},
		{"corpus-file-skipped", "docs/adr/old/0004-d.md", 0},
		{"dangling-relatesTo", "docs/adr/0001-a.md", 7},
		{"invalid-size", "docs/adr/0002-b.md", 3},
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n got %v\nwant %v", got, want)
	}
	if rep.RecordCount != 1 || rep.ExcludedCount != 1 || rep.SkippedCount != 3 || rep.AsOf != "2026-06-15" {
		t.Errorf("counts %d/%d/%d as of %s", rep.RecordCount, rep.ExcludedCount, rep.SkippedCount, rep.AsOf)
	}
	p, err := New(corpusOf(files...), Options{}).Project(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Fingerprint != p.Fingerprint {
		t.Errorf("lint fingerprint %s, projection %s", rep.Fingerprint, p.Fingerprint)
	}
	if len(rep.Records) != 1 || rep.Records[0].ID != "0001" {
		t.Errorf("records %+v", rep.Records)
	}
	// Only top-level candidates are read, once each.
	if !slices.Equal(r.Reads(), []string{"0001-a.md", "0002-b.md"}) {
		t.Errorf("reads %v", r.Reads())
	}
	if rep.Count(adr.SeverityError) != 2 || rep.Count(adr.SeverityWarn) != 4 || !rep.Failed(false) {
		t.Errorf("severities: %d errors, %d warnings", rep.Count(adr.SeverityError), rep.Count(adr.SeverityWarn))
	}
}

func TestLintFailed(t *testing.T) {
	warnOnly := &LintReport{Findings: []adr.Finding{{Severity: adr.SeverityWarn}, {Severity: adr.SeverityInfo}}}
	if warnOnly.Failed(false) || !warnOnly.Failed(true) {
		t.Error("a warning fails only with strict")
	}
	infoOnly := &LintReport{Findings: []adr.Finding{{Severity: adr.SeverityInfo}}}
	if infoOnly.Failed(true) {
		t.Error("info never fails")
	}
}

func TestLintRulesCatalogue(t *testing.T) {
	rules := LintRules()
	if !slices.IsSortedFunc(rules, func(a, b LintRule) int { return jsstring.Compare(a.ID, b.ID) }) {
		t.Error("rules are not sorted by id")
	}
	seen := map[string]bool{}
	for _, r := range rules {
		if seen[r.ID] {
			t.Errorf("rule %s listed twice", r.ID)
		}
		seen[r.ID] = true
		if r.Summary == "" || !strings.HasSuffix(r.Summary, ".") {
			t.Errorf("rule %s: summary %q", r.ID, r.Summary)
		}
		if got, ok := LookupLintRule(r.ID); !ok || got != r {
			t.Errorf("lookup %s: %+v %v", r.ID, got, ok)
		}
	}
	for _, id := range []string{RuleCorpusFileSkipped, RuleReviewOverdue, "affects-bad-pattern", "unique-id", "frontmatter-parse"} {
		if !seen[id] {
			t.Errorf("rule %s missing", id)
		}
	}
}

// TestTemplateText: the prompts adrkit new writes, left in a record, are
// an error once it is accepted and a warning before, each at its file
// line; a body that quotes a prompt inside a sentence is left alone.
func TestTemplateText(t *testing.T) {
	const head = "---\nid: \"0001\"\ntitle: Orders in CockroachDB\nstatus: %s\ndate: 2025-11-03\ndeciders: [\"@ops\"]\n%s---\n"
	fresh := scaffold.Body("Orders in CockroachDB")
	cases := []struct {
		name, status, extra, body string
		sev                       adr.Severity
		lines                     []int
	}{
		{"accepted, untouched", "accepted", "", fresh, adr.SeverityError, []int{13, 17, 21}},
		{"proposed, untouched", "proposed", "", fresh, adr.SeverityWarn, []int{13, 17, 21}},
		{"draft, decision written", "draft", "", strings.Replace(fresh, "What we will do, in full sentences.", "We move orders.", 1),
			adr.SeverityWarn, []int{13, 21}},
		{"superseded, history still warns", "superseded", "supersededBy: \"0002\"\n", fresh, adr.SeverityWarn, []int{14, 18, 22}},
		{"CRLF, indented", "accepted", "", "\r\n## Decision\r\n\r\n   What we will do, in full sentences.  \r\n", adr.SeverityError, []int{11}},
		{"filled in", "accepted", "", "\n## Decision\n\nWe move orders; the prompt \"What we will do, in full sentences.\" is gone.\n", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := []fakeFile{regular("0001-orders.md", fmt.Sprintf(head, tc.status, tc.extra)+tc.body)}
			if tc.status == "superseded" {
				files = append(files, regular("0002-next.md", "---\nid: \"0002\"\ntitle: Next\nstatus: proposed\ndate: 2025-11-04\nsupersedes: [\"0001\"]\n---\n"))
			}
			rep, err := New(corpusOf(files...), Options{}).Lint(context.Background(), LintInput{Clock: june15})
			if err != nil {
				t.Fatal(err)
			}
			var lines []int
			for _, f := range rep.Findings {
				if f.Rule != RuleTemplateText {
					continue
				}
				lines = append(lines, f.Line)
				if f.Severity != tc.sev || f.ID != "0001" || f.Path != "docs/adr/0001-orders.md" || !strings.Contains(f.Message, "template's prompt") {
					t.Errorf("finding %+v", f)
				}
			}
			slices.Sort(lines)
			if !slices.Equal(lines, tc.lines) {
				t.Errorf("lines %v, want %v (findings %+v)", lines, tc.lines, rep.Findings)
			}
		})
	}
}

// TestMatchesNothing: a live decision's path pattern that matches no
// tracked file is a warning at its line, naming the nearest pattern that
// would match; one that matches, a negated one, a history record's, a
// malformed one (affects-bad-pattern says so) and every pattern when no
// working tree or no tracked file is at hand are left alone.
func TestMatchesNothing(t *testing.T) {
	const rec = "---\nid: \"%s\"\ntitle: Orders\nstatus: %s\ndate: 2025-11-03\ndeciders: [\"@ops\"]\n%saffects:\n" +
		"  - type: path\n    pattern: \"%s\"\n  - type: path\n    pattern: \"services/ordrs/gen/**\"\n    negate: true\n---\n\nWe keep orders apart.\n"
	tree := newMemRepo(map[string]string{"services/orders/db.go": "", "services/payments/ledger.go": "", "docs/adr/0001-orders.md": ""})
	cases := []struct {
		name, status, extra, pattern string
		tree                         ports.RepoFiles
		want                         string // the message's tail; "" for none
	}{
		{"typo'd directory", "accepted", "", "servics/**", tree, `did you mean "services/**"?`},
		{"case mismatch", "proposed", "", "Services/Orders/*.go", tree, `did you mean "services/orders/*.go"?`},
		{"nothing near", "draft", "", "billing/**", tree, "correct the pattern, or commit the files it is about"},
		{"matches", "accepted", "", "services/orders/*.go", tree, ""},
		{"history", "deprecated", "", "servics/**", tree, ""},
		{"malformed", "accepted", "", "/services/**", tree, ""},
		{"no working tree (--rev)", "accepted", "", "servics/**", nil, ""},
		{"no tracked file", "accepted", "", "servics/**", newMemRepo(map[string]string{}), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := corpusOf(regular("0001-orders.md", fmt.Sprintf(rec, "0001", tc.status, tc.extra, tc.pattern)))
			rep, err := New(r, Options{}).Lint(context.Background(), LintInput{Clock: june15, Tree: tc.tree})
			if err != nil {
				t.Fatal(err)
			}
			var got []adr.Finding
			for _, f := range rep.Findings {
				if f.Rule == RuleMatchesNothing {
					got = append(got, f)
				}
			}
			if tc.want == "" {
				if len(got) > 0 {
					t.Errorf("findings %+v, want none", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("findings %+v, want one", rep.Findings)
			}
			f := got[0]
			if !strings.HasSuffix(f.Message, tc.want) || f.Severity != adr.SeverityWarn || f.Pattern != tc.pattern ||
				f.Field != "affects.path" || f.ID != "0001" || f.Line != 9 {
				t.Errorf("finding %+v, want the message to end %q at line 9", f, tc.want)
			}
		})
	}
}

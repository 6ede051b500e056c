package queue

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

func i64(n int64) *int64 { return &n }

// rec is a proposed record 0001 with the given changes.
func rec(change func(fm *adr.Frontmatter)) *adr.Record {
	fm := &adr.Frontmatter{ID: "0001", Title: "Queue me", Status: adr.StatusProposed, Deciders: []string{"@a"}}
	if change != nil {
		change(fm)
	}
	return &adr.Record{Frontmatter: fm, SourcePath: "docs/adr/" + fm.ID + "-x.md"}
}

func build1(t *testing.T, asOf string, r *adr.Record) Item {
	t.Helper()
	rep := Build(Input{AsOf: asOf, Records: []*adr.Record{r}})
	if len(rep.Items) != 1 {
		t.Fatalf("items = %d, want 1", len(rep.Items))
	}
	return rep.Items[0]
}

func str(p *string) string {
	if p == nil {
		return "<null>"
	}
	return *p
}

func TestSLAStates(t *testing.T) {
	tests := []struct {
		name         string
		asOf         string
		review       *adr.Review
		reviewBy     string
		wantState    SLAState
		wantDeadline string
	}{
		{"overdue", "2026-01-08", &adr.Review{Tier: "arb", QueuedAt: "2025-12-01T00:00:00Z", SLADays: i64(14)}, "", Overdue, "2025-12-15"},
		{"due", "2026-01-08", &adr.Review{Tier: "async", QueuedAt: "2025-12-25T00:00:00Z", SLADays: i64(14)}, "", Due, "2026-01-08"},
		{"within-sla", "2026-01-08", &adr.Review{Tier: "arb", QueuedAt: "2026-01-01T00:00:00Z", SLADays: i64(14)}, "", WithinSLA, "2026-01-15"},
		{"missing-sla", "2026-01-08", &adr.Review{Tier: "async", QueuedAt: "2026-01-01T00:00:00Z"}, "", MissingSLA, "<null>"},
		{"not-queued, no review", "2026-01-08", nil, "", NotQueued, "<null>"},
		{"not-queued, review without queuedAt", "2026-01-08", &adr.Review{Tier: "arb", SLADays: i64(3)}, "", NotQueued, "<null>"},
		{"escalated beats overdue", "2026-01-08", &adr.Review{Tier: "arb", QueuedAt: "2025-11-01T00:00:00Z", SLADays: i64(14), EscalatedAt: "2025-11-20T00:00:00Z"}, "", Escalated, "2025-11-15"},
		{"decided beats escalated", "2026-01-08", &adr.Review{Tier: "arb", QueuedAt: "2026-01-01T00:00:00Z", SLADays: i64(14), EscalatedAt: "2026-01-04T00:00:00Z", DecidedAt: "2026-01-05T00:00:00Z"}, "", Decided, "2026-01-15"},
		{"reviewBy wins over slaDays", "2026-03-01", &adr.Review{Tier: "arb", QueuedAt: "2026-01-01T00:00:00Z", SLADays: i64(14)}, "2026-04-01", WithinSLA, "2026-04-01"},
		{"reviewBy alone", "2026-01-08", nil, "2027-02-08", WithinSLA, "2027-02-08"},
		{"reviewBy alone, past", "2027-02-09", nil, "2027-02-08", Overdue, "2027-02-08"},
		{"queuedAt in a zone west of UTC falls on the next UTC day", "2026-03-10", &adr.Review{Tier: "arb", QueuedAt: "2026-03-08T23:59:59-05:00", SLADays: i64(1)}, "", Due, "2026-03-10"},
		{"the same, a day later", "2026-03-11", &adr.Review{Tier: "arb", QueuedAt: "2026-03-08T23:59:59-05:00", SLADays: i64(1)}, "", Overdue, "2026-03-10"},
		{"slaDays 0: due on the day", "2026-05-01", &adr.Review{Tier: "arb", QueuedAt: "2026-05-01T00:00:00Z", SLADays: i64(0)}, "", Due, "2026-05-01"},
		{"slaDays 0: overdue the next", "2026-05-02", &adr.Review{Tier: "arb", QueuedAt: "2026-05-01T00:00:00Z", SLADays: i64(0)}, "", Overdue, "2026-05-01"},
		{"across a leap day", "2024-02-01", &adr.Review{Tier: "arb", QueuedAt: "2024-02-28T12:00Z", SLADays: i64(2)}, "", WithinSLA, "2024-03-01"},
		{"a deadline past the year 9999 is written as a JavaScript date would be", "2026-01-08", &adr.Review{Tier: "arb", QueuedAt: "2026-01-01T00:00:00Z", SLADays: i64(3_000_000)}, "", Overdue, "+010239-09"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it := build1(t, tt.asOf, rec(func(fm *adr.Frontmatter) { fm.Review, fm.ReviewBy = tt.review, tt.reviewBy }))
			if it.SLAState != tt.wantState || str(it.DeadlineDate) != tt.wantDeadline {
				t.Errorf("state %s deadline %s, want %s %s", it.SLAState, str(it.DeadlineDate), tt.wantState, tt.wantDeadline)
			}
		})
	}
}

func TestDeadlineOutOfRange(t *testing.T) {
	r := rec(func(fm *adr.Frontmatter) {
		fm.Review = &adr.Review{Tier: "arb", QueuedAt: "2026-01-01T00:00:00Z", SLADays: i64(1 << 53)}
	})
	it := build1(t, "2026-01-08", r)
	if it.DeadlineDate != nil || it.SLAState != MissingSLA || len(it.ItemFindings) != 1 ||
		it.ItemFindings[0].Code != CodeDeadlineOutOfRange || it.ItemFindings[0].Severity != adr.SeverityWarn {
		t.Errorf("got deadline %s, state %s, findings %+v", str(it.DeadlineDate), it.SLAState, it.ItemFindings)
	}
	// Before the year 0000 in UTC, the reference's day is its first ten
	// characters, a signed year and a month, which it reads as the first
	// of that month.
	it = build1(t, "2026-01-08", rec(func(fm *adr.Frontmatter) {
		fm.Review = &adr.Review{Tier: "arb", QueuedAt: "0000-01-01T00:30:00+01:00", SLADays: i64(1)}
	}))
	if str(it.DeadlineDate) != "-000001-12" || len(it.ItemFindings) != 0 || *it.QueuedAt != "-000001-12-31T23:30:00.000Z" {
		t.Errorf("got deadline %s, queuedAt %s, findings %+v", str(it.DeadlineDate), str(it.QueuedAt), it.ItemFindings)
	}
	// Past the year 9999 likewise.
	it = build1(t, "2026-01-08", rec(func(fm *adr.Frontmatter) {
		fm.Review = &adr.Review{Tier: "arb", QueuedAt: "9999-12-31T23:30:00-01:00", SLADays: i64(40)}
	}))
	if str(it.DeadlineDate) != "+010000-02" || *it.QueuedAt != "+010000-01-01T00:30:00.000Z" {
		t.Errorf("got deadline %s, queuedAt %s", str(it.DeadlineDate), str(it.QueuedAt))
	}
}

func TestItemFields(t *testing.T) {
	it := build1(t, "2026-01-08", rec(func(fm *adr.Frontmatter) {
		fm.Deciders = []string{"@b", "team:arb"}
		fm.Review = &adr.Review{
			Tier: "auto", QueuedAt: "2026-01-01T00:00:00.123456+05:30", SLADays: i64(14), Quorum: i64(2),
			EscalatedAt: "2026-01-02T10:00Z", Approvals: []string{"@b"},
			Objections: []adr.Objection{{By: "@c"}, {By: "@d", Resolved: true}, {By: "@e"}},
		}
	}))
	got, err := json.Marshal(it)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"0001","title":"Queue me","sourcePath":"docs/adr/0001-x.md","tier":"auto",` +
		`"tierLabel":"expedited routing; human acceptance required","queuedAt":"2025-12-31T18:30:00.123Z",` +
		`"slaDays":14,"reviewBy":null,"slaState":"escalated","deadlineDate":"2026-01-14",` +
		`"routingTargets":["@b","team:arb"],"quorum":2,"approvalCount":1,"unresolvedObjectionCount":2,` +
		`"resolvedObjectionCount":1,"escalatedAt":"2026-01-02T10:00:00.000Z","decidedAt":null,"itemFindings":[]}`
	if string(got) != want {
		t.Errorf("item\n got %s\nwant %s", got, want)
	}
}

func TestTierLabels(t *testing.T) {
	for tier, want := range map[string]string{
		"auto": "expedited routing; human acceptance required", "async": "asynchronous human review", "arb": "ARB human review", "": "<null>",
	} {
		it := build1(t, "2026-01-08", rec(func(fm *adr.Frontmatter) { fm.Review = &adr.Review{Tier: tier} }))
		if str(it.TierLabel) != want {
			t.Errorf("tier %q: label %s, want %s", tier, str(it.TierLabel), want)
		}
	}
}

func TestItemFindings(t *testing.T) {
	tests := []struct {
		name   string
		change func(fm *adr.Frontmatter)
		want   []string // code/severity
	}{
		{"complete record: none", func(fm *adr.Frontmatter) {
			fm.Review = &adr.Review{Tier: "arb", QueuedAt: "2026-01-01T00:00:00Z", SLADays: i64(14)}
		}, nil},
		{"not in review at all: none, even without tier and deciders", func(fm *adr.Frontmatter) { fm.Deciders = nil }, nil},
		{"review block without tier", func(fm *adr.Frontmatter) {
			fm.Review = &adr.Review{QueuedAt: "2026-01-01T00:00:00Z", SLADays: i64(14)}
		}, []string{"item.tier-absent/info"}},
		{"empty review block", func(fm *adr.Frontmatter) { fm.Review = &adr.Review{} }, []string{"item.tier-absent/info"}},
		{"reviewBy without review block: none, as the reference", func(fm *adr.Frontmatter) { fm.ReviewBy = "2027-02-08" }, nil},
		{"reviewBy before the queued day", func(fm *adr.Frontmatter) {
			fm.ReviewBy = "2025-12-31"
			fm.Review = &adr.Review{Tier: "async", QueuedAt: "2026-01-01T00:00:00Z", SLADays: i64(14)}
		}, []string{"item.review-by-before-queued/warn"}},
		{"reviewBy on the queued day: none", func(fm *adr.Frontmatter) {
			fm.ReviewBy = "2026-01-01"
			fm.Review = &adr.Review{Tier: "async", QueuedAt: "2026-01-01T12:00:00Z"}
		}, nil},
		{"reviewBy before the queued day only in UTC", func(fm *adr.Frontmatter) {
			fm.ReviewBy = "2026-01-01"
			fm.Review = &adr.Review{Tier: "async", QueuedAt: "2026-01-01T23:00:00-02:00"}
		}, []string{"item.review-by-before-queued/warn"}},
		{"queued without deciders", func(fm *adr.Frontmatter) {
			fm.Deciders = nil
			fm.Review = &adr.Review{Tier: "arb", QueuedAt: "2026-01-01T00:00:00Z", SLADays: i64(14)}
		}, []string{"item.deciders-empty/info"}},
		{"no deciders, not queued: none", func(fm *adr.Frontmatter) {
			fm.Deciders = nil
			fm.Review = &adr.Review{Tier: "arb"}
		}, nil},
		{"all three, in code order", func(fm *adr.Frontmatter) {
			fm.Deciders = nil
			fm.ReviewBy = "2025-01-01"
			fm.Review = &adr.Review{QueuedAt: "2026-01-01T00:00:00Z"}
		}, []string{"item.deciders-empty/info", "item.review-by-before-queued/warn", "item.tier-absent/info"}},
		{"decided below quorum: none", func(fm *adr.Frontmatter) {
			fm.Review = &adr.Review{Tier: "arb", QueuedAt: "2026-01-01T00:00:00Z", SLADays: i64(14),
				DecidedAt: "2026-01-05T00:00:00Z", Quorum: i64(3), Approvals: []string{"@a"}}
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it := build1(t, "2026-01-08", rec(tt.change))
			var got []string
			for _, f := range it.ItemFindings {
				got = append(got, f.Code+"/"+string(f.Severity))
				if f.Message == "" {
					t.Errorf("%s: empty message", f.Code)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("findings %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOrder(t *testing.T) {
	mk := func(id, path string, st SLAState, deadline, queued string) Item {
		it := Item{ID: Str(id), SourcePath: Str(path), SLAState: st}
		if deadline != "" {
			it.DeadlineDate = ptr(deadline)
		}
		if queued != "" {
			it.QueuedAt = ptr(queued)
		}
		return it
	}
	tests := []struct {
		name  string
		items []Item
		want  []string
	}{
		{"by urgency", []Item{
			mk("1", "a", Decided, "", ""), mk("2", "a", NotQueued, "", ""), mk("3", "a", MissingSLA, "", ""),
			mk("4", "a", WithinSLA, "2026-02-01", ""), mk("5", "a", Due, "2026-01-08", ""),
			mk("6", "a", Escalated, "", ""), mk("7", "a", Overdue, "2025-12-01", ""),
		}, []string{"7", "6", "5", "4", "3", "2", "1"}},
		{"earlier deadline first, none last", []Item{
			mk("3", "a", Escalated, "", "2025-01-01T00:00:00.000Z"), mk("2", "a", Escalated, "2025-12-10", ""), mk("1", "a", Escalated, "2025-12-01", ""),
		}, []string{"1", "2", "3"}},
		{"then queuedAt, none first", []Item{
			mk("1", "a", MissingSLA, "", "2026-01-02T00:00:00.000Z"), mk("2", "a", MissingSLA, "", "2026-01-01T00:00:00.000Z"), mk("3", "a", MissingSLA, "", ""),
		}, []string{"3", "2", "1"}},
		{"then id in code-unit order", []Item{
			mk("0002", "a", Overdue, "2025-12-15", ""), mk("0001", "b", Overdue, "2025-12-15", ""), mk("01ARZ3NDEKTSV4RRFFQ69G5FAV", "c", Overdue, "2025-12-15", ""), mk("01arz3ndektsv4rrffq69g5fav", "c", Overdue, "2025-12-15", ""),
		}, []string{"0001", "0002", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "01arz3ndektsv4rrffq69g5fav"}},
		{"then source path (a shared id)", []Item{
			mk("0001", "docs/adr/0001-b.md", NotQueued, "", ""), mk("0001", "docs/adr/0001-A.md", NotQueued, "", ""),
		}, []string{"docs/adr/0001-A.md", "docs/adr/0001-b.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := slices.Clone(tt.items)
			SortItems(items)
			var got []string
			for _, it := range items {
				if tt.name == "then source path (a shared id)" {
					got = append(got, string(it.SourcePath))
				} else {
					got = append(got, string(it.ID))
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("order %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOnlyProposedAreQueued(t *testing.T) {
	var recs []*adr.Record
	for i, st := range adr.Statuses {
		recs = append(recs, rec(func(fm *adr.Frontmatter) { fm.ID = "000" + string(rune('1'+i)); fm.Status = st }))
	}
	rep := Build(Input{AsOf: "2026-01-08", Records: recs})
	if rep.TotalItems != 1 || rep.Items[0].ID != "0002" {
		t.Errorf("items %+v, want the proposed 0002 only", rep.Items)
	}
}

func TestCorpusFindings(t *testing.T) {
	good := rec(nil)
	findings := []adr.Finding{
		// About a valid record: the linter's, not the queue's.
		{Rule: "unique-id", Severity: adr.SeverityError, Path: good.SourcePath, Message: "dup"},
		{Rule: "frontmatter-parse", Severity: adr.SeverityError, Path: "docs/adr/0005-b.md", Message: "bad yaml"},
		{Rule: "file-read", Severity: adr.SeverityError, Path: "docs/adr/0004-r.md", Message: "denied"},
		{Rule: "record-too-large", Severity: adr.SeverityError, Path: "docs/adr/0006-big.md", Message: "too big"},
		{Rule: "one-way-door-disallows-auto", Severity: adr.SeverityError, Path: "docs/adr/0003-o.md", Field: "review.tier", Message: "m"},
		{Rule: "invalid-size", Severity: adr.SeverityError, Path: "docs/adr/0002-s.md", Field: "title", Message: "short"},
		{Rule: "strict-unknown-key", Severity: adr.SeverityError, Path: "docs/adr/0002-s.md", Field: "foo", Message: "unknown"},
		{Rule: "frontmatter-fence", Severity: adr.SeverityError, Path: "docs/adr/0007-f.md", Message: "no fence"},
		{Rule: "some-future-rule", Severity: adr.SeverityError, Path: "docs/adr/0008-u.md", Message: "?"},
		{Rule: "corpus-file-skipped", Severity: adr.SeverityWarn, Path: "docs/adr/old/0009-n.md", Message: "nested"},
		// A warning about a file that is excluded for another reason rides along.
		{Rule: "import-incomplete", Severity: adr.SeverityWarn, Path: "docs/adr/0005-b.md", Message: "w"},
		// A warning about an otherwise fine file that is not a record: not excluded.
		{Rule: "affects-bad-pattern", Severity: adr.SeverityWarn, Path: "docs/adr/0010-w.md", Message: "w"},
	}
	rep := Build(Input{AsOf: "2026-01-08", Records: []*adr.Record{good}, Findings: findings, Fingerprint: "fp"})
	var got []string
	for _, f := range rep.CorpusFindings {
		got = append(got, string(f.SourcePath)+" "+f.Code+" "+string(f.Severity))
	}
	want := []string{
		"docs/adr/0002-s.md corpus.schema-invalid error",
		"docs/adr/0002-s.md corpus.schema-invalid error",
		"docs/adr/0003-o.md corpus.one-way-door-auto-tier error",
		"docs/adr/0004-r.md corpus.read-error error",
		"docs/adr/0005-b.md corpus.parse-error error",
		"docs/adr/0005-b.md corpus.schema-invalid error",
		"docs/adr/0006-big.md corpus.read-error error",
		"docs/adr/0007-f.md corpus.parse-error error",
		"docs/adr/0008-u.md corpus.schema-invalid error",
		"docs/adr/old/0009-n.md corpus.file-skipped warn",
	}
	if !slices.Equal(got, want) {
		t.Errorf("corpus findings\n got %q\nwant %q", got, want)
	}
	if rep.TotalCorpusFindings != len(want) || rep.CorpusFingerprint != "fp" || !rep.Failed() {
		t.Errorf("totals %d, fingerprint %q, failed %v", rep.TotalCorpusFindings, rep.CorpusFingerprint, rep.Failed())
	}
	skippedOnly := Build(Input{AsOf: "2026-01-08", Findings: findings[9:10]})
	if skippedOnly.Failed() {
		t.Error("a skipped file alone fails the run; it must only warn")
	}
}

func TestEmptyReportJSON(t *testing.T) {
	rep := Build(Input{AsOf: "2026-01-08", Fingerprint: "f"})
	got, _ := json.Marshal(rep)
	want := `{"version":"1","asOf":"2026-01-08","corpusFingerprint":"f","totalItems":0,"totalCorpusFindings":0,"itemsWithFindings":0,"items":[],"corpusFindings":[]}`
	if string(got) != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestResolveAsOf(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		problem AsOfProblem
	}{
		{"2026-01-08", "2026-01-08", ""},
		{"2024-02-29", "2024-02-29", ""},
		{"0000-01-01", "0000-01-01", ""},
		{"2023-02-29", "", AsOfInvalid},
		{"2026-02-30", "", AsOfInvalid},
		{"2026-13-01", "", AsOfInvalid},
		{"2026-1-8", "", AsOfInvalid},
		{"20260108", "", AsOfInvalid},
		{"today", "", AsOfInvalid},
		{"", "", AsOfInvalid},
		{"2026-01-08T00:00:00Z", "2026-01-08", ""},
		{"2026-01-08T23:30:00Z", "2026-01-08", ""},
		{"2026-01-08T23:30:00-05:00", "2026-01-09", ""},
		{"2026-01-08T01:00:00+05:00", "2026-01-07", ""},
		{"2026-01-08T01:00:00+0500", "2026-01-07", ""},
		{"2026-01-08T10:00Z", "2026-01-08", ""},
		{"2026-01-08T10:00:00.999999Z", "2026-01-08", ""},
		{"2026-01-08T24:00:00Z", "2026-01-09", ""},
		{"2026-01-08T00:00:00", "", AsOfZoneless},
		{"2026-01-08T00:00", "", AsOfZoneless},
		{"2026-01-08T00:00:00z", "", AsOfZoneless},
		{"2026-02-30T00:00:00Z", "", AsOfInvalid},
		{"2026-01-08T25:00:00Z", "", AsOfInvalid},
		{"2026-01-08T24:01:00Z", "", AsOfInvalid},
		{"2026-01-08T10:60:00Z", "", AsOfInvalid},
		{"2026-01-08T10:00:00+24:00", "", AsOfInvalid},
		{"2026-01-08T10:00:00.Z", "", AsOfInvalid},
		{"2026-01-08 10:00:00Z", "", AsOfInvalid},
		{"xT00:00Z", "", AsOfInvalid},
	}
	for _, tt := range tests {
		got, problem := ResolveAsOf(tt.in)
		if got != tt.want || problem != tt.problem {
			t.Errorf("ResolveAsOf(%q) = %q, %q; want %q, %q", tt.in, got, problem, tt.want, tt.problem)
		}
	}
}

func TestInstants(t *testing.T) {
	for in, want := range map[string]string{
		"2026-01-01T00:00Z":                   "2026-01-01T00:00:00.000Z",
		"2026-01-01T00:00:00.5Z":              "2026-01-01T00:00:00.500Z",
		"2026-01-01T00:00:00.1239Z":           "2026-01-01T00:00:00.123Z",
		"2026-01-01T00:00:00+14:00":           "2025-12-31T10:00:00.000Z",
		"0000-01-01T00:30:00+01:00":           "-000001-12-31T23:30:00.000Z",
		"9999-12-31T23:30:00-01:00":           "+010000-01-01T00:30:00.000Z",
		"2026-01-01T00:00:00.000000001-00:00": "2026-01-01T00:00:00.000Z",
	} {
		if got := instant(in); got != want {
			t.Errorf("instant(%q) = %q, want %q", in, got, want)
		}
	}
}

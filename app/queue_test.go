package app

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/queue"
	"github.com/adrkit/adrkit-go/ports"
)

// queueFiles is a small corpus: two proposals, an accepted record, an
// invalid one and a record nested where discovery never reads it.
func queueFiles() []fakeFile {
	return []fakeFile{
		regular("0001-a.md", "---\nid: \"0001\"\ntitle: Adopt the queue\nstatus: proposed\ndate: 2026-01-01\n"+
			"deciders: [\"@a\"]\nreview:\n  tier: arb\n  queuedAt: 2026-01-01T00:00:00Z\n  slaDays: 3\n---\n"),
		regular("0002-b.md", "---\nid: \"0002\"\ntitle: Not yet queued\nstatus: proposed\ndate: 2026-01-01\n---\n"),
		regular("0003-c.md", "---\nid: \"0003\"\ntitle: Settled\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@a\"]\n---\n"),
		regular("0004-d.md", "---\nid: \"0004\"\ntitle: x\nstatus: proposed\ndate: 2026-01-01\n---\n"),
		entry("old/0005-e.md", ports.KindRegular),
	}
}

func TestQueue(t *testing.T) {
	svc := New(corpusOf(queueFiles()...), Options{})
	rep, err := svc.Queue(context.Background(), QueueRequest{Clock: june15})
	if err != nil {
		t.Fatal(err)
	}
	var items, cfs []string
	for _, it := range rep.Items {
		items = append(items, string(it.ID)+" "+string(it.SLAState))
	}
	for _, f := range rep.CorpusFindings {
		cfs = append(cfs, string(f.SourcePath)+" "+f.Code+" "+string(f.Severity))
	}
	if rep.AsOf != "2026-06-15" || !slices.Equal(items, []string{"0001 overdue", "0002 not-queued"}) ||
		!slices.Equal(cfs, []string{"docs/adr/0004-d.md corpus.schema-invalid error", "docs/adr/old/0005-e.md corpus.file-skipped warn"}) {
		t.Errorf("as of %s: items %v, corpus findings %v", rep.AsOf, items, cfs)
	}
	p, err := svc.Project(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.CorpusFingerprint != p.Fingerprint {
		t.Errorf("fingerprint %s, the projection's %s", rep.CorpusFingerprint, p.Fingerprint)
	}

	// A zoned datetime stands for its UTC date.
	rep, err = svc.Queue(context.Background(), QueueRequest{AsOf: "2026-01-04T20:00:00-05:00"})
	if err != nil || rep.AsOf != "2026-01-05" || rep.Items[0].SLAState != "overdue" {
		t.Errorf("zoned as-of: %v %+v", err, rep)
	}
	rep, err = svc.Queue(context.Background(), QueueRequest{AsOf: "2026-01-04"})
	if err != nil || rep.Items[0].SLAState != "due" {
		t.Errorf("due: %v %+v", err, rep)
	}
}

func TestQueueInputErrors(t *testing.T) {
	r := corpusOf(queueFiles()...)
	svc := New(r, Options{})
	for _, in := range []QueueRequest{{AsOf: "2026-02-30"}, {AsOf: "2026-01-08T00:00:00"}, {}} {
		if _, err := svc.Queue(context.Background(), in); !errors.Is(err, ErrInvalidQueueInput) {
			t.Errorf("%+v: %v", in, err)
		}
	}
	if r.Opens() != 0 {
		t.Errorf("refused input opened the corpus %d times", r.Opens())
	}
	_, err := New(openFails(unavailableErr(corpus.DirNotFound)), Options{}).Queue(context.Background(), QueueRequest{AsOf: "2026-01-01"})
	var u *ports.UnavailableError
	if !errors.As(err, &u) || u.Reason != corpus.DirNotFound {
		t.Errorf("unavailable: %v", err)
	}
}

func TestListReviewQueueTool(t *testing.T) {
	ctx := context.Background()
	r := corpusOf(queueFiles()...)
	svc := New(r, Options{Extended: true, Clock: june15})
	res, err := svc.Call(ctx, ToolListReviewQueue, json.RawMessage(`{"asOf":"2026-01-04"}`))
	if err != nil || res.IsError {
		t.Fatalf("%v %q", err, res.Text)
	}
	want := "Review queue as of 2026-01-04: 2 proposed decisions (1 due, 1 not-queued); 0 items with findings; 2 files that could not be queued."
	if res.Text != want {
		t.Errorf("summary\n got %q\nwant %q", res.Text, want)
	}
	a, ok := res.Structured.Result.(QueueAnswer)
	if !ok || a.Outcome != OutcomeQueue || res.Structured.CorpusHealth == nil || res.Structured.CorpusHealth.RecordCount != 3 {
		t.Fatalf("answer %+v", res.Structured)
	}
	// The report is the command line's.
	cli, err := svc.Queue(ctx, QueueRequest{AsOf: "2026-01-04"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(a.Report)
	wantJSON, _ := json.Marshal(cli)
	if string(got) != string(wantJSON) {
		t.Errorf("tool report %s\ncli report %s", got, wantJSON)
	}
	// Without asOf: today by the clock.
	res, _ = svc.Call(ctx, ToolListReviewQueue, nil)
	if !strings.HasPrefix(res.Text, "Review queue as of 2026-06-15: ") {
		t.Errorf("clock: %q", res.Text)
	}

	opens := r.Opens()
	for args, want := range map[string]string{
		`{"asOf":"2026-01-08T10:00:00"}`: "asOf: a datetime needs an explicit zone",
		`{"asOf":"2026-02-30"}`:          "asOf: must be a date that exists",
		`{"asOf":5}`:                     "asOf: must be a string, got number",
		`{"when":"2026-01-01"}`:          "when",
	} {
		res, err := svc.Call(ctx, ToolListReviewQueue, json.RawMessage(args))
		if err != nil || !res.IsError || !strings.HasPrefix(res.Text, "Input validation error: Invalid arguments for tool list_review_queue: ") ||
			!strings.Contains(res.Text, want) {
			t.Errorf("%s: %v %q", args, err, res.Text)
		}
	}
	if r.Opens() != opens {
		t.Error("a refused call opened the corpus")
	}
	noClock := New(r, Options{Extended: true})
	if res, _ := noClock.Call(ctx, ToolListReviewQueue, nil); !res.IsError || !strings.Contains(res.Text, "asOf: is required") {
		t.Errorf("no clock: %q", res.Text)
	}
	down := New(openFails(unavailableErr(corpus.DirNotFound)), Options{Extended: true})
	res, _ = down.Call(ctx, ToolListReviewQueue, json.RawMessage(`{"asOf":"2026-01-01"}`))
	if _, ok := res.Structured.Result.(CorpusUnavailable); !ok || res.Structured.CorpusHealth != nil {
		t.Errorf("unavailable: %+v", res.Structured)
	}
}

// The asOf pattern of the input schema and the reading agree on every
// form: what the pattern refuses is refused, and the reverse.
func TestAsOfPatternMatchesReading(t *testing.T) {
	var s struct {
		Properties struct {
			AsOf struct {
				Pattern string `json:"pattern"`
			} `json:"asOf"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(schema("list_review_queue.input.json"), &s); err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(s.Properties.AsOf.Pattern)
	for _, v := range []string{
		"2026-01-08", "2024-02-29", "2000-02-29", "1900-02-29", "2023-02-29", "2026-04-31", "0000-01-01", "9999-12-31",
		"2026-01-08T00:00Z", "2026-01-08T00:00:00Z", "2026-01-08T00:00:00.5Z", "2026-01-08T00:00:00.Z",
		"2026-01-08T23:59:59+05:30", "2026-01-08T23:59:59+0530", "2026-01-08T23:59:59-23:59", "2026-01-08T23:59:59+24:00",
		"2026-01-08T24:00Z", "2026-01-08T24:00:00.000Z", "2026-01-08T24:00:01Z", "2026-01-08T25:00Z", "2026-01-08T10:60Z",
		"2026-01-08T10:00:60Z", "2026-01-08T10Z", "2026-01-08T10:00", "2026-01-08T10:00:00", "2026-01-08t10:00z",
		"2026-02-30T00:00:00Z", "2026-1-8", "26-01-08", "2026-01-08 10:00Z", "", "today", "2026-01-08T10:00:00+5:30",
	} {
		_, problem := queue.ResolveAsOf(v)
		if re.MatchString(v) != (problem == "") {
			t.Errorf("%q: the pattern matches %v, the reading's problem is %q", v, re.MatchString(v), problem)
		}
	}
}

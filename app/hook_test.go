package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
	"github.com/adrkit/adrkit-go/ports/memhookstore"
)

func governReader() *memcorpus.Reader { return corpusOf(governFiles()...) }

// governFiles are the records of governReader.
func governFiles() []fakeFile {
	return []fakeFile{
		regular("0001-pg.md", "---\nid: \"0001\"\ntitle: Use PostgreSQL\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@a\"]\n"+
			"affects:\n  - type: path\n    pattern: \"db/**\"\n  - type: package\n    pattern: \"pg@not a range\"\n---\n\n## Decision\n\nWe use PostgreSQL. Always.\n"),
		regular("0002-mongo.md", "---\nid: \"0002\"\ntitle: Use MongoDB\nstatus: rejected\ndate: 2026-01-01\n"+
			"affects:\n  - type: path\n    pattern: \"db/**\"\n---\n\n## Decision\n\nNo.\n"),
		regular("0003-logs.md", "---\nid: \"0003\"\ntitle: Log JSON\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@a\"]\n---\n"),
		regular("0004-broken.md", "---\nid: \"0004\"\ntitle: Broken\nstatus: approved\ndate: 2026-01-01\n"+
			"affects:\n  - type: path\n    pattern: \"db/**\"\n---\n"),
	}
}

// indexFiles is a corpus with everything an answer reads: negated, dot,
// repo-qualified, bad and non-path matchers, a line of supersession on
// hold (0005, replaced by a deprecated record) with a proposal that would
// replace it too, history, an id held twice and a record with errors.
func indexFiles() []fakeFile {
	head := "---\nid: \"%s\"\ntitle: %s\nstatus: %s\ndate: 2026-01-01\ndeciders: [\"@a\"]\n"
	f := func(name, id, title, status, rest, body string) fakeFile {
		return regular(name, fmt.Sprintf(head, id, title, status)+rest+"---\n"+body)
	}
	return append(governFiles(),
		f("0005-svc.md", "0005", "Services speak gRPC", "accepted",
			"affects:\n  - type: path\n    pattern: \"svc/**\"\n  - type: path\n    pattern: \"svc/legacy/**\"\n    negate: true\n"+
				"  - type: path\n    pattern: \"**/*.proto\"\n    repo: other/log\n",
			"\n## Decision\n\nServices speak *gRPC* to each other.\n"),
		f("0006-svc-http.md", "0006", "Services speak HTTP", "proposed",
			"supersedes: [\"0005\"]\naffects:\n  - type: path\n    pattern: \"svc/**\"\n", "\n## Decision\n\nHTTP it is.\n"),
		f("0007-dot.md", "0007", "CI in GitHub Actions", "accepted",
			"relatesTo: [\"0005\"]\naffects:\n  - type: path\n    pattern: \".github/**\"\n  - type: path\n    pattern: \"/abs/**\"\n"+
				"  - type: path\n    pattern: \"**/*\"\n", "\nNo decision heading.\n"),
		f("0008-old.md", "0008", "Services speak SOAP", "superseded",
			"supersededBy: \"0005\"\naffects:\n  - type: path\n    pattern: \"svc/*.go\"\n", "\n## Decision\n\nSOAP.\n"),
		f("0009-twice.md", "0009", "Twice A", "accepted", "affects:\n  - type: path\n    pattern: \"x/**\"\n", ""),
		f("0009-twice-b.md", "0009", "Twice B", "deprecated", "conflictsWith: [\"0001\"]\naffects:\n  - type: path\n    pattern: \"x/**\"\n", ""),
		f("0010-grpc-web.md", "0010", "Services speak gRPC-Web", "deprecated", "supersedes: [\"0005\"]\n", ""),
	)
}

// testSite is a site over reader keeping its state in store (nil: none),
// with the files of heads (path → content) in a working tree of its own;
// event paths are repository paths already.
func testSite(t *testing.T, reader ports.CorpusReader, store ports.HookStore, heads map[string]string) *HookSite {
	t.Helper()
	root := t.TempDir()
	for p, content := range heads {
		file := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	site := &HookSite{Reader: reader, Heads: filesystem.NewHeads(root), Place: "test", Dir: "docs/adr",
		EditPaths: func(paths []string) ([]string, []string) { return paths, nil }}
	if store != nil {
		site.Store = store
	}
	return site
}

// opens is an opener of site.
func opens(site *HookSite) func(context.Context) (*HookSite, error) {
	return func(context.Context) (*HookSite, error) { return site, nil }
}

// writeEvent is Claude Code's PreToolUse of a Write of paths.
func writeEvent(session string, paths ...string) agenthost.Event {
	ev := agenthost.Event{Host: agenthost.Claude, Kind: agenthost.Edit, Name: "PreToolUse", SessionID: session, Tool: "Write"}
	for _, p := range paths {
		ev.AddPath(p)
	}
	return ev
}

func hook(t *testing.T, site *HookSite, ev agenthost.Event) HookAnswer {
	t.Helper()
	ans, err := Hook(context.Background(), ev, opens(site))
	if err != nil {
		t.Fatal(err)
	}
	return ans
}

// The answer is read from the valid records of a corpus with errors,
// with the decision sentence of governing records only, markers
// counting; the digest counts the valid records; each is said once per
// session.
func TestHookGoverns(t *testing.T) {
	site := testSite(t, governReader(), &memhookstore.Store{}, map[string]string{"db/conn.go": "package db\n// @adr 0003\n"})
	got := hook(t, site, writeEvent("s", "db/conn.go", "README.md", "db/conn.go")).Context
	want := `Architecture decisions (adrkit, docs/adr) cover the file about to be written. Follow the accepted ones. ` +
		`Rejected and superseded decisions were decided against or replaced: do not propose them again.
The corpus has 1 error (adrkit lint): this is read from its valid records only.
db/conn.go:
- governs: 0001 "Use PostgreSQL" (accepted; path db/**): We use PostgreSQL.
- governs: 0003 "Log JSON" (accepted; @adr in db/conn.go:2)
- rejected: 0002 "Use MongoDB" (path db/**)`
	if got != want {
		t.Fatalf("context:\n%s\nwant:\n%s", got, want)
	}
	if again := hook(t, site, writeEvent("s", "db/conn.go")); again.Context != "" {
		t.Fatalf("said twice in one session:\n%s", again.Context)
	}
	if other := hook(t, site, writeEvent("t", "db/conn.go")); other.Context == "" {
		t.Fatal("another session was told nothing")
	}
	start := agenthost.Event{Host: agenthost.Claude, Kind: agenthost.SessionStart, Name: "SessionStart", SessionID: "s", Source: "compact"}
	digest := hook(t, site, start).Context
	for _, want := range []string{"3 valid records (2 accepted, 1 rejected)", "The corpus has 1 error", `Rejected, do not propose again: 0002 "Use MongoDB".`} {
		if !strings.Contains(digest, want) {
			t.Errorf("digest lacks %q:\n%s", want, digest)
		}
	}
	if after := hook(t, site, writeEvent("s", "db/conn.go")); after.Context == "" {
		t.Fatal("a compaction did not forget what the session was told")
	}
}

// Events with nothing to answer never open the repository; a path
// outside it and an unusable corpus are said.
func TestHookTriage(t *testing.T) {
	never := func(context.Context) (*HookSite, error) { return nil, errors.New("opened") }
	cases := []struct {
		ev   agenthost.Event
		note string
	}{
		{agenthost.Event{Host: agenthost.Copilot, Kind: agenthost.Edit, Name: "preToolUse", Paths: []string{"a"}},
			"GitHub Copilot's hooks cannot add context for the model (docs/agents.md); nothing to write"},
		{agenthost.Event{Host: agenthost.Claude, Name: "Stop"}, "nothing to add to a Stop event"},
		{agenthost.Event{Host: agenthost.Claude, Name: "PreToolUse", Tool: "Bash"}, ""},
		{agenthost.Event{Host: agenthost.Cursor, Name: "preToolUse", Tool: "Write"}, ""},
		{agenthost.Event{Host: agenthost.Claude, Kind: agenthost.Edit, Name: "PreToolUse", Tool: "Write"}, ""},
		// Gemini CLI shows a hook's stderr to the user when its stdout
		// is empty: an empty prompt gets no note either.
		{agenthost.Event{Host: agenthost.Gemini, Kind: agenthost.Prompt, Name: "BeforeAgent", Prompt: " \n"}, ""},
		{agenthost.Event{Host: agenthost.Gemini, Name: "BeforeTool", Tool: "write_file"}, ""},
	}
	for _, tc := range cases {
		ans, err := Hook(context.Background(), tc.ev, never)
		if err != nil || ans != (HookAnswer{Note: tc.note}) {
			t.Errorf("%+v: %+v, %v", tc.ev, ans, err)
		}
	}
	site := testSite(t, governReader(), nil, nil)
	site.EditPaths = func([]string) ([]string, []string) { return nil, []string{"notes.md", "x.go"} }
	if ans := hook(t, site, writeEvent("s", "/elsewhere/notes.md", "../x.go")); ans.Note != "notes.md, x.go is not inside the repository; nothing to add" {
		t.Fatalf("outside: %+v", ans)
	}
	var u *ports.UnavailableError
	if _, err := Hook(context.Background(), writeEvent("s", "a"), opens(testSite(t, openFails(unavailableErr(corpus.DirNotFound)), nil, nil))); !errors.As(err, &u) {
		t.Fatalf("an unusable corpus: %v", err)
	}
}

// A cold hook reads each record file once: its bytes are hashed for the
// key and, when nothing is kept under it, parsed from what was read. A
// run that finds the index or the answer kept reads each once too, and
// so does one with nowhere to keep anything.
func TestHookReadsEachRecordOnce(t *testing.T) {
	reader := corpusOf(indexFiles()...)
	var names []string
	for _, f := range indexFiles() {
		names = append(names, f.entry.Name)
	}
	slices.Sort(names)
	store := &memhookstore.Store{}
	withStore, without := testSite(t, reader, store, nil), testSite(t, reader, nil, nil)
	start := agenthost.Event{Host: agenthost.Claude, Kind: agenthost.SessionStart, Name: "SessionStart"}
	for _, run := range []struct {
		name string
		site *HookSite
		ev   agenthost.Event
	}{
		{"cold", withStore, writeEvent("", "svc/api.go")},
		{"index kept", withStore, writeEvent("", "db/x.go")},
		{"answer kept", withStore, writeEvent("", "db/x.go")},
		{"digest from the index", withStore, start},
		{"nothing kept", without, writeEvent("", "svc/api.go")},
		{"digest, nothing kept", without, start},
	} {
		before := len(reader.Reads())
		if ans := hook(t, run.site, run.ev); ans.Context == "" {
			t.Fatalf("%s: no context", run.name)
		}
		reads := reader.Reads()[before:]
		slices.Sort(reads)
		if !slices.Equal(reads, names) {
			t.Errorf("%s: read %q, want each record once: %q", run.name, reads, names)
		}
	}
	if store.Puts() != 3 { // the index and two answers
		t.Errorf("%d values kept, want 3", store.Puts())
	}
}

// The index is what answers once kept: another corpus's index under the
// key answers for that corpus, and a damaged one is read around.
func TestHookKeptIndexAnswers(t *testing.T) {
	other := New(corpusOf(), Options{})
	p, err := other.Project(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	empty := encodeIndex(indexOf(p))
	for name, value := range map[string][]byte{"another corpus": empty, "damaged": empty[:len(empty)-1]} {
		store := &swapIndex{Store: &memhookstore.Store{}, value: value}
		got := hook(t, testSite(t, governReader(), store, nil), writeEvent("", "db/x.go")).Context
		if covered := strings.Contains(got, "governs: 0001"); covered != (name == "damaged") {
			t.Errorf("%s: %q", name, got)
		}
	}
}

// swapIndex is a store whose every index is value.
type swapIndex struct {
	*memhookstore.Store
	value []byte
}

func (s *swapIndex) Get(shelf ports.Shelf, key string) ([]byte, bool) {
	if shelf == ports.ShelfIndex {
		return s.value, true
	}
	return s.Store.Get(shelf, key)
}

// The index holds everything the walk of check reads: over it, every
// file gets what it gets over the whole projection, with every glob
// compiled, holds included, and each governing decision its sentence;
// the digest counts as the projection does.
func TestHookIndexAnswersAsRecords(t *testing.T) {
	ctx := context.Background()
	decl := func(path, ref string, line int) markers.FileScan {
		return markers.FileScan{Path: path, State: markers.Scanned,
			Scan: markers.Scan{Declarations: []markers.Declaration{{Path: path, Ref: ref, ID: ref, Line: line}}}}
	}
	holds := 0
	for _, files := range [][]fakeFile{governFiles(), indexFiles(), nil} {
		s := New(corpusOf(files...), Options{})
		p, err := s.Project(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ix, err := decodeIndex(encodeIndex(indexOf(p)))
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range []governInput{
			{files: []string{"db/conn.go"}},
			{files: []string{"svc/api.go", "svc/legacy/old.go", ".github/workflows/ci.yml", "x/y", "README.md"}},
			{files: []string{"svc/api.go"}, markers: MarkerReport{Files: []markers.FileScan{decl("svc/api.go", "0008", 3)}}},
			{files: []string{"a/b.go"}, markers: MarkerReport{Files: []markers.FileScan{decl("a/b.go", "0009", 1), decl("a/b.go", "0099", 2)}}},
			{files: []string{"db/x.proto", "./svc\\win.go"}},
		} {
			files := slices.Clone(in.files)
			slices.SortFunc(files, jsstring.Compare)
			want, err := checkFiles(ctx, p, files, in.markers, s.memo.compile)
			if err != nil {
				t.Fatal(err)
			}
			g, err := New(corpusOf(), Options{}).govern(ctx, ix, in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g.Holds, checkHolds(p, want)) {
				t.Errorf("%v: holds %+v", in.files, g.Holds)
			}
			holds += len(g.Holds)
			for i, f := range g.Files {
				for _, bucket := range []struct {
					got  []governEntry
					want []ContextEntry
				}{
					{f.Governing, want[i].Governing}, {f.ActiveProposals, want[i].ActiveProposals}, {f.History, want[i].History},
				} {
					var entries []ContextEntry
					for _, e := range bucket.got {
						entries = append(entries, e.ContextEntry)
						r := p.ByID[string(e.ID)][0]
						if wantDecision := adr.DecisionSentence(r.Body); e.Status.Bucket() == adr.BucketGoverning && e.Decision != wantDecision {
							t.Errorf("%s: decision %q, want %q", e.ID, e.Decision, wantDecision)
						}
					}
					if !reflect.DeepEqual(entries, bucket.want) && len(entries)+len(bucket.want) > 0 {
						t.Errorf("%v, %s: %+v\nwant %+v", in.files, f.Path, entries, bucket.want)
					}
				}
			}
		}
		d := digestOf(ix)
		if d.Records != len(p.Records) || d.Errors != countErrors(p.Findings) {
			t.Errorf("digest %+v of %d records", d, len(p.Records))
		}
	}
	if holds == 0 {
		t.Error("no hold in the corpus meant to have one")
	}
}

// A patch naming 4,000 files over a 10,000-record corpus is answered for
// the first agenthost.MaxEventFiles, and says how many it left out
// (before the bound the run matched every file: 16 s in the attack run).
// The budget is large: this holds the bound, not the machine's speed.
func TestHookHugePatch(t *testing.T) {
	reader := memcorpus.New("docs/adr")
	for name, data := range corpusgen.New(corpusgen.Config{N: 10000, Seed: 1}).Files {
		reader.WriteFile(name, data)
	}
	var paths []string
	for i := range 4000 {
		paths = append(paths, fmt.Sprintf("services/payments/api/gen_%04d.go", i))
	}
	ev := writeEvent("s", paths...)
	ev.Host, ev.Tool = agenthost.Codex, agenthost.ApplyPatch
	site := testSite(t, reader, &memhookstore.Store{}, nil)
	site.Budget = 10 * time.Minute
	var named atomic.Int64
	site.EditPaths = func(paths []string) ([]string, []string) { named.Add(int64(len(paths))); return paths, nil }
	got := hook(t, site, ev).Context
	if named.Load() != agenthost.MaxEventFiles {
		t.Fatalf("%d paths looked at, want %d", named.Load(), agenthost.MaxEventFiles)
	}
	if !strings.Contains(got, "The edit names 4000 files: adrkit looked at the first 100 only and left 3900 out") ||
		!strings.Contains(got, "governs: ") || strings.Contains(got, "gen_0100.go") {
		t.Fatalf("context:\n%s", got)
	}
}

// The match stops at the first file after its context ends: it asks the
// context before each file, and nothing after.
func TestHookMatchStopsWhenCancelled(t *testing.T) {
	s := New(corpusOf(indexFiles()...), Options{})
	p, err := s.Project(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ix := indexOf(p)
	in := governInput{files: []string{"a.go", "b.go", "c.go", "d.go", "e.go"}}
	ctx := &countdown{Context: context.Background(), left: 2}
	if _, err := s.govern(ctx, ix, in); !errors.Is(err, context.Canceled) {
		t.Fatalf("govern = %v, want cancelled", err)
	}
	if ctx.asked != 3 {
		t.Fatalf("the context was asked %d times: the match went on after it ended", ctx.asked)
	}
}

// countdown is a context that ends after left questions.
type countdown struct {
	context.Context
	left, asked int
}

func (c *countdown) Err() error {
	c.asked++
	if c.asked > c.left {
		return context.Canceled
	}
	return nil
}

// An interrupted hook (SIGTERM cancels its context) returns at once, and
// one past its budget says so, far sooner than the budget a large
// corpus and patch would need.
func TestHookCancelledOrLate(t *testing.T) {
	reader := memcorpus.New("docs/adr")
	for name, data := range corpusgen.New(corpusgen.Config{N: 2000, Seed: 1}).Files {
		reader.WriteFile(name, data)
	}
	var paths []string
	for i := range agenthost.MaxEventFiles {
		paths = append(paths, fmt.Sprintf("services/payments/api/gen_%04d.go", i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	site := testSite(t, reader, nil, nil)
	site.Budget = time.Hour
	site.Heads = cancelling{cancel}
	t0 := time.Now()
	_, err := Hook(ctx, writeEvent("s", paths...), opens(site))
	if !errors.Is(err, context.Canceled) || time.Since(t0) > time.Minute {
		t.Fatalf("interrupted: %v after %s", err, time.Since(t0))
	}
	site = testSite(t, reader, nil, nil)
	site.Budget = time.Nanosecond
	_, err = Hook(context.Background(), writeEvent("s", paths...), opens(site))
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer within 1ns, the hook's time budget") {
		t.Fatalf("past the budget: %v", err)
	}
}

// A session's memory keeps the newest maxKeys keys.
func TestHookMemoryBound(t *testing.T) {
	store := &memhookstore.Store{}
	m := &memory{store: store, slot: sessionSlot("s")}
	for i := range maxKeys + 10 {
		m.keys = append(m.keys, fmt.Sprintf("%032x", i))
	}
	b := block{Path: "a.go", Lines: []string{"x"}}
	m.remember([]block{b})
	h := &hookRun{site: &HookSite{Store: store}, ev: agenthost.Event{SessionID: "s"}}
	kept := h.memory().keys
	if len(kept) != maxKeys || kept[0] != fmt.Sprintf("%032x", 11) || kept[maxKeys-1] != b.key() {
		t.Fatalf("%d keys kept, from %s to %s", len(kept), kept[0], kept[len(kept)-1])
	}
}

// The budget is at most half of every timeout init writes for a host.
func TestHookBudgetUnderTimeouts(t *testing.T) {
	for _, h := range agenthost.Hosts {
		if d := h.Contract().Timeout; d > 0 && 2*HookBudget > d {
			t.Errorf("%s's hooks time out after %s; the budget is %s", h, d, HookBudget)
		}
	}
}

// cancelling is a head reader that interrupts the run reading a head.
type cancelling struct{ cancel context.CancelFunc }

func (c cancelling) ReadHead(context.Context, string) (markers.Head, error) {
	c.cancel()
	return markers.Head{State: markers.Absent, FileBytes: -1}, nil
}

package gitrev

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/adrkit/adrkit-go/adapters/gitrepo"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

// Benchmark history: benchCommits first-parent commits in memory. Every
// commit changes a file outside the ADR directory; every benchADREvery-th
// one also changes the directory (adding, flipping, renaming, editing or
// removing a record, in turn).
const (
	benchCommits  = 20000
	benchADREvery = 10
)

// memHistory is a generated in-memory repository.
type memHistory struct {
	repo    *git.Repository
	commits []plumbing.Hash // oldest first
	changes int             // feed changes the generator expects
}

var (
	benchOnce sync.Once
	benchRepo *memHistory
)

func benchHistory(b *testing.B) *memHistory {
	b.Helper()
	benchOnce.Do(func() { benchRepo = generateHistory(b, benchCommits, benchADREvery) })
	return benchRepo
}

// generateHistory builds the history object by object; subtrees that do
// not change are reused by hash, as in a real repository.
func generateHistory(tb testing.TB, n, every int) *memHistory {
	tb.Helper()
	st := memory.NewStorage()
	repo, err := git.Init(st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	store := func(enc interface {
		Encode(o plumbing.EncodedObject) error
	}) plumbing.Hash {
		obj := st.NewEncodedObject()
		must(enc.Encode(obj))
		h, err := st.SetEncodedObject(obj)
		must(err)
		return h
	}
	blob := func(content string) plumbing.Hash {
		obj := st.NewEncodedObject()
		obj.SetType(plumbing.BlobObject)
		w, err := obj.Writer()
		must(err)
		_, err = w.Write([]byte(content))
		must(err)
		must(w.Close())
		h, err := st.SetEncodedObject(obj)
		must(err)
		return h
	}
	tree := func(entries map[string]object.TreeEntry) plumbing.Hash {
		es := make([]object.TreeEntry, 0, len(entries))
		for name, e := range entries {
			e.Name = name
			es = append(es, e)
		}
		sort.Sort(object.TreeEntrySorter(es))
		return store(&object.Tree{Entries: es})
	}

	type rec struct {
		name, title, status string
	}
	records := map[int]*rec{}
	nextID := 1
	adrTree := tree(nil)
	readme := blob("# Generated\n")
	rebuildADR := func() {
		entries := map[string]object.TreeEntry{}
		for id, r := range records {
			text := statusRecord("", fmt.Sprintf("%04d", id), r.status, r.title).Content
			entries[r.name] = object.TreeEntry{Mode: filemode.Regular, Hash: blob(text)}
		}
		adrTree = tree(entries)
	}
	pick := func(k int) (int, *rec) {
		if len(records) == 0 {
			return 0, nil
		}
		ids := make([]int, 0, len(records))
		for id := range records {
			ids = append(ids, id)
		}
		sort.Ints(ids)
		id := ids[(k*7)%len(ids)]
		return id, records[id]
	}

	m := &memHistory{repo: repo}
	var parent plumbing.Hash
	epoch := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		if i%every == 0 {
			k := i / every
			id, r := pick(k)
			switch op := k % 5; {
			case op == 0 || r == nil:
				records[nextID] = &rec{name: fmt.Sprintf("%04d-decision.md", nextID), title: fmt.Sprintf("Decision %d", nextID), status: "proposed"}
				nextID++
			case op == 1:
				if r.status == "proposed" || r.status == "deprecated" {
					r.status = "accepted"
				} else {
					r.status = "deprecated"
				}
			case op == 2:
				r.name = fmt.Sprintf("%04d-renamed-%d.md", id, k)
			case op == 3:
				r.title = fmt.Sprintf("Decision %d, revision %d", id, k)
			default:
				delete(records, id)
			}
			m.changes++
			rebuildADR()
		}
		src := tree(map[string]object.TreeEntry{"gen.txt": {Mode: filemode.Regular, Hash: blob(fmt.Sprint(i))}})
		docs := tree(map[string]object.TreeEntry{"adr": {Mode: filemode.Dir, Hash: adrTree}})
		root := tree(map[string]object.TreeEntry{
			"README.md": {Mode: filemode.Regular, Hash: readme},
			"docs":      {Mode: filemode.Dir, Hash: docs},
			"src":       {Mode: filemode.Dir, Hash: src},
		})
		sig := object.Signature{Name: "Bench", Email: "bench@example.invalid", When: epoch.Add(time.Duration(i) * time.Minute)}
		c := &object.Commit{TreeHash: root, Message: fmt.Sprintf("commit %d\n", i), Author: sig, Committer: sig}
		if !parent.IsZero() {
			c.ParentHashes = []plumbing.Hash{parent}
		}
		parent = store(c)
		m.commits = append(m.commits, parent)
	}
	must(st.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName("main"), parent)))
	must(st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName("main"))))
	return m
}

// history is a fresh History over the in-memory repository: an empty
// cache, as in a new process.
func (m *memHistory) history() *History {
	h := NewHistory("/in-memory", "docs/adr", "HEAD")
	h.open = func() (*gitrepo.Repository, string, error) {
		return &gitrepo.Repository{Storer: m.repo.Storer}, "/in-memory", nil
	}
	return h
}

// replay walks the whole feed from 0_ with pages of limit and returns the
// number of changes and pages. It reports failures with Errorf (and
// returns -1), so that it may run on any goroutine.
func replay(tb testing.TB, svc *app.Service, limit int) (changes, pages int) {
	since := feed.ReplayToken
	for {
		res, err := svc.CallInput(context.Background(), app.ChangesInput{Since: &since, Limit: limit})
		if err != nil {
			tb.Errorf("replay: %v", err)
			return -1, pages
		}
		pg, ok := res.Structured.Result.(app.ChangesAnswer)
		if !ok {
			tb.Errorf("replay: %s", res.Text)
			return -1, pages
		}
		changes += len(pg.Items)
		pages++
		if !pg.HasMore {
			return changes, pages
		}
		since = pg.Cursor
	}
}

// The generator and the feed agree on a small history.
func TestGeneratedHistory(t *testing.T) {
	m := generateHistory(t, 500, 10)
	svc := app.New(memcorpus.New("docs/adr"), app.Options{Extended: true, History: m.history()})
	if changes, _ := replay(t, svc, 200); changes != m.changes {
		t.Errorf("replay found %d changes, the generator made %d", changes, m.changes)
	}
}

// BenchmarkFeedReplayCold replays the whole 20k-commit feed with pages of
// 200 through a History with an empty cache, as a new process would.
func BenchmarkFeedReplayCold(b *testing.B) {
	m := benchHistory(b)
	b.ResetTimer()
	for b.Loop() {
		svc := app.New(memcorpus.New("docs/adr"), app.Options{Extended: true, History: m.history()})
		changes, pages := replay(b, svc, 200)
		b.ReportMetric(float64(changes), "changes/op")
		b.ReportMetric(float64(pages), "pages/op")
	}
}

// BenchmarkFeedReplayWarm is the same replay with the commit cache warm.
func BenchmarkFeedReplayWarm(b *testing.B) {
	m := benchHistory(b)
	svc := app.New(memcorpus.New("docs/adr"), app.Options{Extended: true, History: m.history()})
	replay(b, svc, 200)
	b.ResetTimer()
	for b.Loop() {
		replay(b, svc, 200)
	}
}

// BenchmarkFeedFirstPageCold is the first replay page (0_, limit 50) in a
// new process: the whole first-parent history is walked once.
func BenchmarkFeedFirstPageCold(b *testing.B) {
	m := benchHistory(b)
	since := feed.ReplayToken
	b.ResetTimer()
	for b.Loop() {
		svc := app.New(memcorpus.New("docs/adr"), app.Options{Extended: true, History: m.history()})
		if _, err := svc.CallInput(context.Background(), app.ChangesInput{Since: &since}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFeedPollCold is a poller's call in a new process: the cursor
// is ten commits behind the head.
func BenchmarkFeedPollCold(b *testing.B) {
	m := benchHistory(b)
	since := feed.Encode(feed.Position{Commit: m.commits[len(m.commits)-11].String()}, "docs/adr")
	b.ResetTimer()
	for b.Loop() {
		svc := app.New(memcorpus.New("docs/adr"), app.Options{Extended: true, History: m.history()})
		if _, err := svc.CallInput(context.Background(), app.ChangesInput{Since: &since}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFeedPollWarm is the same poll with the cache warm: the common
// case of a long-running server.
func BenchmarkFeedPollWarm(b *testing.B) {
	m := benchHistory(b)
	since := feed.Encode(feed.Position{Commit: m.commits[len(m.commits)-11].String()}, "docs/adr")
	svc := app.New(memcorpus.New("docs/adr"), app.Options{Extended: true, History: m.history()})
	b.ResetTimer()
	for b.Loop() {
		if _, err := svc.CallInput(context.Background(), app.ChangesInput{Since: &since}); err != nil {
			b.Fatal(err)
		}
	}
}

package gitrev

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

// statusRecord is a valid record with the given status and title.
func statusRecord(p, id, status, title string) file {
	extra := ""
	switch status {
	case "accepted", "deprecated":
		extra = "deciders: [\"@adrkit-go\"]\n"
	case "superseded":
		extra = "deciders: [\"@adrkit-go\"]\nsupersededBy: \"9999\"\n"
	}
	return reg(p, "---\nid: \""+id+"\"\ntitle: "+title+"\nstatus: "+status+"\ndate: 2026-01-01\n"+extra+"---\n\n# "+title+"\n")
}

func openHistory(t *testing.T, h *History) ports.History {
	t.Helper()
	v, err := h.OpenHistory(context.Background())
	if err != nil {
		t.Fatalf("OpenHistory: %v", err)
	}
	return v
}

// firstParents walks v from its head and returns the commits, newest
// first.
func firstParents(t *testing.T, v ports.History) []ports.Commit {
	t.Helper()
	var out []ports.Commit
	for c, ok := v.Head(); ok; {
		out = append(out, c)
		var err error
		if c, ok, err = v.Parent(context.Background(), c); err != nil {
			t.Fatalf("Parent: %v", err)
		}
	}
	return out
}

func TestHistoryWalk(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	c1 := repo.CommitOn("main", "1", reg("README.md", "x"))
	c2 := repo.CommitOn("main", "2", reg("README.md", "x"), statusRecord("docs/adr/0001-a.md", "0001", "proposed", "Alpha"))
	c3 := repo.CommitOn("main", "3", reg("README.md", "y"), statusRecord("docs/adr/0001-a.md", "0001", "proposed", "Alpha"))
	c4 := repo.CommitOn("main", "4", reg("README.md", "y"), statusRecord("docs/adr/0001-a.md", "0001", "accepted", "Alpha"),
		reg("docs/adr/notes.txt", "n"), link("docs/adr/0002-l.md", "0001-a.md"), reg("docs/adr/sub/0003-x.md", "x"))

	v := openHistory(t, NewHistory(repo.Root(), "docs/adr", ""))
	if v.Dir() != "docs/adr" {
		t.Errorf("Dir %q", v.Dir())
	}
	cs := firstParents(t, v)
	var hashes []string
	for _, c := range cs {
		hashes = append(hashes, c.Hash)
	}
	equalNames(t, "first parents", hashes, []string{c4.String(), c3.String(), c2.String(), c1.String()})
	if cs[0].Time.Unix() != when.Add(4*time.Minute).Unix() {
		t.Errorf("time %v", cs[0].Time)
	}
	switch {
	case cs[3].Dir != "":
		t.Errorf("no ADR directory in c1, but Dir %q", cs[3].Dir)
	case cs[2].Dir == "" || cs[2].Dir != cs[1].Dir:
		t.Errorf("c2 and c3 have the same directory: %q %q", cs[2].Dir, cs[1].Dir)
	case cs[0].Dir == cs[1].Dir:
		t.Error("c4 changed the directory")
	}

	files, err := v.Files(context.Background(), cs[0])
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Name+" "+f.Path+" "+kindName(f.Kind))
	}
	equalNames(t, "files", got, []string{
		"0001-a.md docs/adr/0001-a.md regular", "0002-l.md docs/adr/0002-l.md symlink",
		"notes.txt docs/adr/notes.txt regular", "sub docs/adr/sub directory",
	})
	if files[0].Object != repo.EntryHash(c4, "docs/adr/0001-a.md").String() {
		t.Errorf("object %s", files[0].Object)
	}
	data, err := v.Read(context.Background(), files[0], 1000)
	if err != nil || !strings.Contains(string(data), "status: accepted") {
		t.Errorf("Read: %q %v", data, err)
	}
	if _, err := v.Read(context.Background(), files[0], 10); readKindOf(t, err) != ports.ReadTooLarge {
		t.Errorf("over the limit: %v", err)
	}
	if files, err := v.Files(context.Background(), cs[3]); err != nil || len(files) != 0 {
		t.Errorf("c1 files: %v %v", files, err)
	}
}

func TestHistoryFirstParentsOnly(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	repo.CommitOn("main", "1", statusRecord("docs/adr/0001-a.md", "0001", "proposed", "Alpha"))
	side := repo.CommitOn("side", "s", statusRecord("docs/adr/0001-a.md", "0001", "accepted", "Alpha"))
	m := repo.MergeOn("main", "merge\n", side, statusRecord("docs/adr/0001-a.md", "0001", "accepted", "Alpha"))
	cs := firstParents(t, openHistory(t, NewHistory(repo.Root(), "docs/adr", "main")))
	if len(cs) != 2 || cs[0].Hash != m.String() {
		t.Errorf("walked %d commits", len(cs))
	}

	// The merge carries the side branch's change, at the merge.
	svc := app.New(memcorpus.New("docs/adr"), app.Options{Extended: true, History: NewHistory(repo.Root(), "docs/adr", "main")})
	res, err := svc.CallInput(context.Background(), app.ChangesInput{Since: ptrTo(feed.ReplayToken)})
	if err != nil {
		t.Fatal(err)
	}
	items := res.Structured.Result.(app.ChangesAnswer).Items
	if len(items) != 2 || items[1].Kind != feed.StatusChanged || items[1].Commit != m.String() {
		t.Errorf("%s: %+v", res.Text, items)
	}
}

func TestHistoryUnbornAndReasons(t *testing.T) {
	dir := base(t)
	repo := gittest.Init(t, filepath.Join(dir, "repo"))
	v := openHistory(t, NewHistory(repo.Root(), "docs/adr", ""))
	if _, ok := v.Head(); ok {
		t.Error("an unborn branch has a head")
	}

	repo.CommitOn("main", "1", record("docs/adr/0001-a.md", "0001"))
	plain := filepath.Join(dir, "plain")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	gitfile := filepath.Join(dir, "gitfile")
	writeFile(t, filepath.Join(gitfile, ".git"), []byte("gitdir: /nonexistent/worktree\n"))
	regular := filepath.Join(dir, "regular")
	writeFile(t, regular, []byte("x"))

	cases := []struct {
		name, path, dir, rev string
		want                 feed.UnavailableReason
	}{
		{"missing root", filepath.Join(dir, "nope"), "docs/adr", "", feed.RootNotFound},
		{"root is a file", regular, "docs/adr", "", feed.RootNotDirectory},
		{"no repository", plain, "docs/adr", "", feed.NoRepository},
		{"a gitfile pointing nowhere", gitfile, "docs/adr", "", feed.NoRepository},
		{"unknown revision", repo.Root(), "docs/adr", "v9", feed.RevisionNotFound},
		{"unsupported revision syntax", repo.Root(), "docs/adr", "HEAD:docs", feed.RevisionNotFound},
		{"HEAD~5 past the root", repo.Root(), "docs/adr", "HEAD~5", feed.RevisionNotFound},
		{"directory outside the root", repo.Root(), "../x", "", feed.DirOutsideRoot},
	}
	for _, tc := range cases {
		_, err := NewHistory(tc.path, tc.dir, tc.rev).OpenHistory(context.Background())
		var hu *ports.HistoryUnavailableError
		if !errors.As(err, &hu) || hu.Reason != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
	// A directory missing from every commit is not an error: no records.
	v = openHistory(t, NewHistory(repo.Root(), "decisions", ""))
	if c, _ := v.Head(); c.Dir != "" {
		t.Errorf("Dir %q", c.Dir)
	}
}

func TestHistoryMissingObjects(t *testing.T) {
	incompleteErr := func(t *testing.T, what string, err error) {
		t.Helper()
		var hu *ports.HistoryUnavailableError
		if !errors.As(err, &hu) || hu.Reason != feed.HistoryIncomplete {
			t.Errorf("%s: %v, want history-incomplete", what, err)
		}
	}

	// A shallow boundary: the parent is gone.
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	c1 := repo.CommitOn("main", "1", record("docs/adr/0001-a.md", "0001"))
	repo.CommitOn("main", "2", record("docs/adr/0001-a.md", "0001"), record("docs/adr/0002-b.md", "0002"))
	repo.DeleteObject(c1)
	v := openHistory(t, NewHistory(repo.Root(), "docs/adr", ""))
	head, _ := v.Head()
	_, _, err := v.Parent(context.Background(), head)
	incompleteErr(t, "missing parent", err)

	// A missing blob: its record cannot be known.
	repo = gittest.Init(t, filepath.Join(base(t), "repo"))
	c := repo.CommitOn("main", "1", record("docs/adr/0001-a.md", "0001"))
	repo.DeleteObject(repo.EntryHash(c, "docs/adr/0001-a.md"))
	v = openHistory(t, NewHistory(repo.Root(), "docs/adr", ""))
	head, _ = v.Head()
	files, err := v.Files(context.Background(), head)
	if err != nil {
		t.Fatal(err)
	}
	_, err = v.Read(context.Background(), files[0], 1000)
	incompleteErr(t, "missing blob", err)

	// A missing ADR directory tree.
	repo = gittest.Init(t, filepath.Join(base(t), "repo"))
	c = repo.CommitOn("main", "1", record("docs/adr/0001-a.md", "0001"))
	repo.DeleteObject(repo.EntryHash(c, "docs/adr"))
	v = openHistory(t, NewHistory(repo.Root(), "docs/adr", ""))
	head, _ = v.Head()
	_, err = v.Files(context.Background(), head)
	incompleteErr(t, "missing directory tree", err)

	// A missing tree on the way to it.
	repo = gittest.Init(t, filepath.Join(base(t), "repo"))
	c = repo.CommitOn("main", "1", record("docs/adr/0001-a.md", "0001"))
	repo.DeleteObject(repo.EntryHash(c, "docs"))
	_, err = NewHistory(repo.Root(), "docs/adr", "").OpenHistory(context.Background())
	incompleteErr(t, "missing tree on the way", err)
}

// A symlinked ADR directory in the tree is followed, with the canonical
// path in sourcePath; retargeting the link renames every record.
func TestHistorySymlinkedDirectory(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	repo.CommitOn("main", "1", record("docs/decisions/0001-a.md", "0001"), link("docs/adr", "decisions"))
	repo.CommitOn("main", "2", record("docs/decisions/0001-a.md", "0001"), link("docs/adr", "decisions"), reg("x", "y"))
	repo.CommitOn("main", "3", record("docs/records/0001-a.md", "0001"), link("docs/adr", "records"))
	h := NewHistory(repo.Root(), "docs/adr", "")
	cs := firstParents(t, openHistory(t, h))
	if cs[2].Dir == "" || cs[2].Dir != cs[1].Dir || cs[1].Dir == cs[0].Dir {
		t.Errorf("dirs %q %q %q", cs[2].Dir, cs[1].Dir, cs[0].Dir)
	}
	svc := app.New(memcorpus.New("docs/adr"), app.Options{Extended: true, History: h})
	res, err := svc.CallInput(context.Background(), app.ChangesInput{Since: ptrTo(feed.ReplayToken)})
	if err != nil {
		t.Fatal(err)
	}
	items := res.Structured.Result.(app.ChangesAnswer).Items
	if len(items) != 2 || items[0].SourcePath != "docs/decisions/0001-a.md" ||
		items[1].Kind != feed.Renamed || items[1].SourcePath != "docs/records/0001-a.md" {
		t.Errorf("%+v", items)
	}
}

// The feed over a real repository, end to end: adds, status flips,
// renames, edits, a record that becomes invalid, removals.
func TestHistoryFeedEndToEnd(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	repo.CommitOn("main", "1", statusRecord("docs/adr/0001-a.md", "0001", "proposed", "Use Go"))
	repo.CommitOn("main", "2", statusRecord("docs/adr/0001-a.md", "0001", "accepted", "Use Go"),
		statusRecord("docs/adr/0002-b.md", "0002", "draft", "Use git"))
	repo.CommitOn("main", "3", statusRecord("docs/adr/0001-use-go.md", "0001", "accepted", "Use Go"),
		statusRecord("docs/adr/0002-b.md", "0002", "draft", "Use git for history"), reg("README.md", "r"))
	repo.CommitOn("main", "4", statusRecord("docs/adr/0001-use-go.md", "0001", "accepted", "Use Go"),
		reg("docs/adr/0002-b.md", "---\nid: broken\n---\n"))
	repo.CommitOn("main", "5", reg("README.md", "r"))

	svc := app.New(memcorpus.New("docs/adr"), app.Options{Extended: true, History: NewHistory(repo.Root(), "docs/adr", "")})
	res, err := svc.CallInput(context.Background(), app.ChangesInput{Since: ptrTo(feed.ReplayToken)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range res.Structured.Result.(app.ChangesAnswer).Items {
		got = append(got, strings.TrimSpace(string(it.Kind)+" "+string(it.ID)+" "+string(it.SourcePath)+" "+string(it.Cause)+" "+string(it.FromPath)))
	}
	equalNames(t, "feed", got, []string{
		"added 0001 docs/adr/0001-a.md file-created",
		"status-changed 0001 docs/adr/0001-a.md",
		"added 0002 docs/adr/0002-b.md file-created",
		"renamed 0001 docs/adr/0001-use-go.md  docs/adr/0001-a.md",
		"edited 0002 docs/adr/0002-b.md",
		"removed 0002 docs/adr/0002-b.md became-invalid",
		"removed 0001 docs/adr/0001-use-go.md file-deleted",
	})
}

func ptrTo[T any](v T) *T { return &v }

// Concurrent calls share one History (an MCP server answers requests
// concurrently): each call has its own repository handle, and the caches
// are shared safely. Run with -race.
func TestHistoryConcurrentUse(t *testing.T) {
	m := generateHistory(t, 300, 3)
	h := m.history()
	var wg sync.WaitGroup
	counts := make([]int, 8)
	for i := range counts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[i], _ = replay(t, app.New(memcorpus.New("docs/adr"), app.Options{Extended: true, History: h}), 7+i)
		}()
	}
	wg.Wait()
	for i, n := range counts {
		if n != m.changes {
			t.Errorf("call %d saw %d changes, want %d", i, n, m.changes)
		}
	}
}

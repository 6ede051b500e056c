package gitrev

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/fifotest"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/internal/linktest"
	"github.com/adrkit/adrkit-go/ports/corpustest"
)

// history is a repository with four commits on main, a side branch, a
// lightweight and an annotated tag:
//
//	c1 0001            <- v1.0.0 (lightweight)
//	c2 0001 0002       <- feature: c2 + 0099
//	c3 0001 0002 0003  <- v2.0.0 (annotated)
//	c4 0001 .. 0004    <- main, HEAD
type history struct {
	*gittest.Repo
	c         [5]plumbing.Hash // c[1]..c[4]
	feature   plumbing.Hash
	tagObject plumbing.Hash
}

func newHistory(t *testing.T, bare bool) *history {
	t.Helper()
	h := &history{Repo: initFunc(bare)(t, filepath.Join(base(t), "repo"))}
	var files []file
	for i := 1; i <= 4; i++ {
		id := "000" + string(rune('0'+i))
		files = append(files, record("docs/adr/"+id+"-r.md", id))
		h.c[i] = h.CommitOn("main", "commit "+id+"\n", files...)
		if i == 2 {
			h.SetRef(plumbing.NewBranchReferenceName("feature"), h.c[2])
			h.feature = h.CommitOn("feature", "feature\n", append(files[:2:2], record("docs/adr/0099-feature.md", "0099"))...)
		}
	}
	h.SetRef(plumbing.NewTagReferenceName("v1.0.0"), h.c[1])
	h.tagObject = h.AnnotatedTag("v2.0.0", h.c[3])
	return h
}

// upTo is the top-level listing of commit ci of a history.
func upTo(i int) []string {
	var out []string
	for j := 1; j <= i; j++ {
		out = append(out, "000"+string(rune('0'+j))+"-r.md")
	}
	return out
}

func TestRevisionForms(t *testing.T) {
	h := newHistory(t, false)
	tests := []struct {
		rev  string
		want []string
	}{
		{"HEAD", upTo(4)},
		{"main", upTo(4)},
		{"refs/heads/main", upTo(4)},
		{"heads/main", upTo(4)},
		{"feature", append(upTo(2), "0099-feature.md")},
		{"v1.0.0", upTo(1)},
		{"refs/tags/v1.0.0", upTo(1)},
		{"v2.0.0", upTo(3)},
		{"v2.0.0~1", upTo(2)},
		{"v2.0.0^", upTo(2)},
		{"HEAD~3", upTo(1)},
		{"HEAD^^", upTo(2)},
		{"main~2", upTo(2)},
		{"HEAD^{/commit 0002}", upTo(2)},
		{h.c[2].String(), upTo(2)},
		{short(h.c[2]), upTo(2)},
		{strings.ToUpper(short(h.c[3])), upTo(3)},
		{short(h.c[3]) + "~2", upTo(1)},
		{h.tagObject.String(), upTo(3)},
		{h.feature.String()[:12], append(upTo(2), "0099-feature.md")},
	}
	for _, tc := range tests {
		t.Run(tc.rev, func(t *testing.T) {
			r := New(h.Root(), "docs/adr", tc.rev)
			if err := r.Check(context.Background()); err != nil {
				t.Fatalf("Check: %v (%v)", err, causeOf(err))
			}
			equalNames(t, "listing", topNames(t, r), tc.want)
		})
	}
}

func TestRevisionFailures(t *testing.T) {
	h := newHistory(t, false)
	blob := h.EntryHash(h.c[1], "docs/adr/0001-r.md")
	tests := []struct {
		rev       string
		fragments []string
	}{
		{"v9", []string{`revision "v9" not found`}},
		{"", []string{"no revision"}},
		{"HEAD~4", []string{`"HEAD~4"`, "ancestor"}},
		{"HEAD^2", []string{"parent"}},
		{"HEAD:docs/adr", []string{"syntax"}},
		{"main@{1}", []string{"syntax"}},
		{"0000000", []string{`no commit or tag has a hash starting with "0000000"`}},
		{strings.Repeat("0", 40), []string{"not found"}},
		{short(blob), []string{"no commit or tag"}},
		{"HEAD^{/no such message}", []string{"no such message"}},
	}
	for _, tc := range tests {
		t.Run(tc.rev, func(t *testing.T) {
			err := New(h.Root(), "docs/adr", tc.rev).Check(context.Background())
			checkUnavailable(t, "Check", err, corpus.RootNotFound, tc.fragments...)
		})
	}
}

func TestAmbiguousShortHash(t *testing.T) {
	// Two commits whose ids share their first four hex digits: ids are
	// computed in memory until a pair collides (deterministically, the
	// same pair every run), and only that pair is stored.
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	repo.CommitOn("main", "first\n", record("docs/adr/0001-r.md", "0001"))
	tree := repo.EntryHash(repo.CommitOn("main", "second\n", record("docs/adr/0001-r.md", "0001")), "")
	seen := map[string]*plumbing.MemoryObject{}
	var pair []*plumbing.MemoryObject
	for i := 0; pair == nil && i < 5000; i++ {
		obj := &plumbing.MemoryObject{}
		c := &object.Commit{TreeHash: tree, Message: fmt.Sprintf("probe %d\n", i), Author: object.Signature{When: when}, Committer: object.Signature{When: when}}
		if err := c.Encode(obj); err != nil {
			t.Fatal(err)
		}
		p := obj.Hash().String()[:4]
		if other, dup := seen[p]; dup {
			pair = []*plumbing.MemoryObject{other, obj}
		}
		seen[p] = obj
	}
	if pair == nil {
		t.Fatal("no two commits share a four-digit prefix")
	}
	for _, obj := range pair {
		if _, err := repo.Git().Storer.SetEncodedObject(obj); err != nil {
			t.Fatal(err)
		}
	}
	prefix := pair[0].Hash().String()[:4]
	err := New(repo.Root(), "docs/adr", prefix).Check(context.Background())
	checkUnavailable(t, "Check", err, corpus.RootNotFound, "ambiguous", pair[0].Hash().String(), pair[1].Hash().String())
	// One more digit tells them apart, unless they share it too.
	if a, b := pair[0].Hash().String()[:5], pair[1].Hash().String()[:5]; a != b {
		if err := New(repo.Root(), "docs/adr", a).Check(context.Background()); err != nil {
			t.Errorf("Check(%s): %v (%v)", a, err, causeOf(err))
		}
	}
}

func TestBranchIsReResolved(t *testing.T) {
	h := newHistory(t, false)
	r := New(h.Root(), "docs/adr", "main")
	first := mustOpen(t, r)
	equalNames(t, "before", names(t, first, false), upTo(4))

	h.CommitOn("main", "commit 0005\n", append(filesOf(4), record("docs/adr/0005-r.md", "0005"))...)
	equalNames(t, "a new Open", topNames(t, r), upTo(5))

	// The earlier projection read one commit and stays on it.
	equalNames(t, "the earlier view", names(t, first, false), upTo(4))
	if _, err := first.Read(context.Background(), "0005-r.md", corpus.MaxRecordBytes, nil); readKindOf(t, err) == -1 {
		t.Error("the earlier view reads a record of a later commit")
	}
	if err := first.Verify(context.Background()); err != nil {
		t.Errorf("Verify after the branch moved: %v (%v); the view read one commit consistently", err, causeOf(err))
	}
}

// filesOf is the committed file list of commit ci of a history.
func filesOf(i int) []file {
	var files []file
	for j := 1; j <= i; j++ {
		id := "000" + string(rune('0'+j))
		files = append(files, record("docs/adr/"+id+"-r.md", id))
	}
	return files
}

func TestTagAndHeadAreReResolved(t *testing.T) {
	h := newHistory(t, false)
	tag := New(h.Root(), "docs/adr", "v1.0.0")
	head := New(h.Root(), "docs/adr", "HEAD")
	equalNames(t, "tag", topNames(t, tag), upTo(1))
	equalNames(t, "HEAD", topNames(t, head), upTo(4))

	// A tag moved (re-tagged) and HEAD switched to another branch.
	h.SetRef(plumbing.NewTagReferenceName("v1.0.0"), h.c[2])
	if err := h.Git().Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, "refs/heads/feature")); err != nil {
		t.Fatal(err)
	}
	equalNames(t, "tag after moving", topNames(t, tag), upTo(2))
	equalNames(t, "HEAD after switching", topNames(t, head), append(upTo(2), "0099-feature.md"))
}

func TestHashIsPinned(t *testing.T) {
	h := newHistory(t, false)
	for _, rev := range []string{short(h.c[2]), h.c[2].String(), short(h.c[3]) + "~1"} {
		t.Run(rev, func(t *testing.T) {
			r := New(h.Root(), "docs/adr", rev)
			equalNames(t, "first", topNames(t, r), upTo(2))
			if r.pinned != h.c[2] {
				t.Errorf("pinned %s, want %s", r.pinned, h.c[2])
			}
			// New commits, and even a branch later named like the hash,
			// do not change what the revision means.
			h.CommitOn("main", "later\n", filesOf(4)...)
			h.SetRef(plumbing.NewBranchReferenceName(rev), h.c[1])
			equalNames(t, "after", topNames(t, r), upTo(2))
		})
	}
}

func TestHexBranchNameIsAReference(t *testing.T) {
	h := newHistory(t, false)
	h.SetRef(plumbing.NewBranchReferenceName("cafe"), h.c[1])
	r := New(h.Root(), "docs/adr", "cafe")
	equalNames(t, "first", topNames(t, r), upTo(1))
	if !r.pinned.IsZero() {
		t.Errorf("a branch named like a hash was pinned to %s", r.pinned)
	}
	h.SetRef(plumbing.NewBranchReferenceName("cafe"), h.c[3])
	equalNames(t, "after the branch moved", topNames(t, r), upTo(3))
}

func TestPinnedCommitPruned(t *testing.T) {
	h := newHistory(t, false)
	r := New(h.Root(), "docs/adr", h.c[4].String())
	mustOpen(t, r)
	h.DeleteObject(h.c[4])
	_, err := r.Open(context.Background())
	checkUnavailable(t, "Open", err, corpus.RootNotFound, "no longer in the repository")
}

func TestRepositoryFailures(t *testing.T) {
	tests := []struct {
		name      string
		setup     func(t *testing.T, parent string) string // returns the repository path
		want      corpus.UnavailableReason
		fragments []string
	}{
		{"empty path", func(t *testing.T, parent string) string { return "" }, corpus.RootNotFound, []string{"no repository path"}},
		{"missing path", func(t *testing.T, parent string) string { return filepath.Join(parent, "nope") }, corpus.RootNotFound, nil},
		{"a file", func(t *testing.T, parent string) string {
			p := filepath.Join(parent, "file")
			writeFile(t, p, []byte("x"))
			return p
		}, corpus.RootNotDirectory, []string{"regular file"}},
		{"a directory that is not a repository", func(t *testing.T, parent string) string { return parent }, corpus.RootNotGit, []string{"opening the git repository"}},
		{"a subdirectory of a worktree", func(t *testing.T, parent string) string {
			r := gittest.Init(t, filepath.Join(parent, "repo"))
			r.CommitOn("main", "x\n", record("docs/adr/0001-a.md", "0001"))
			if err := os.MkdirAll(filepath.Join(r.Root(), "docs"), 0o755); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(r.Root(), "docs")
		}, corpus.RootNotGit, nil},
		{"a .git file without gitdir", func(t *testing.T, parent string) string {
			writeFile(t, filepath.Join(parent, ".git"), []byte("garbage\n"))
			return parent
		}, corpus.RootNotGit, nil},
		{"a .git FIFO is never opened", func(t *testing.T, parent string) string {
			fifotest.Make(t, filepath.Join(parent, ".git"))
			return parent
		}, corpus.RootNotGit, []string{"FIFO"}},
		{"an empty repository", func(t *testing.T, parent string) string {
			return gittest.Init(t, filepath.Join(parent, "repo")).Root()
		}, corpus.RootNotFound, []string{`revision "HEAD" not found`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.setup(t, base(t))
			err := New(p, "docs/adr", "HEAD").Check(context.Background())
			checkUnavailable(t, "Check", err, tc.want, tc.fragments...)
		})
	}
}

func TestRepositoryRetargeted(t *testing.T) {
	parent := base(t)
	one := gittest.InitBare(t, filepath.Join(parent, "one"))
	one.CommitOn("main", "one\n", record("docs/adr/0001-a.md", "0001"))
	two := gittest.InitBare(t, filepath.Join(parent, "two"))
	two.CommitOn("main", "two\n", record("docs/adr/0002-b.md", "0002"))
	current := filepath.Join(parent, "current")
	linktest.Make(t, "one", current)
	r := New(current, "docs/adr", "main")
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := mustOpen(t, r)
	if err := os.Remove(current); err != nil {
		t.Fatal(err)
	}
	linktest.Make(t, "two", current)
	checkUnavailable(t, "Verify", c.Verify(context.Background()), corpus.RootNotFound, "now resolves to")
	_, err := r.Open(context.Background())
	checkUnavailable(t, "Open", err, corpus.RootNotFound, "now resolves to")
}

func TestDirResolution(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	repo.CommitOn("main", "tree\n",
		record("docs/adr/0001-a.md", "0001"),
		record("real/adr/0002-b.md", "0002"),
		link("docs/linked", "../real/adr"),
		link("chain", "docs/linked"),
		link("loop-a", "loop-b"),
		link("loop-b", "loop-a"),
		link("absolute", "/etc"),
		link("up", "../.."),
		link("dangling", "nowhere"),
		link("to-file", "docs/adr/0001-a.md"),
		reg("README.md", "# Repo\n"),
		gitlink("vendor/lib", "0123456789abcdef0123456789abcdef01234567"),
	)
	tests := []struct {
		dir         string
		want        corpus.UnavailableReason
		wantDisplay string // on success
	}{
		{"docs/adr", "", "docs/adr"},
		{"docs/adr/", "", "docs/adr"},
		{"./docs//adr/../adr", "", "docs/adr"},
		{"", "", ""},
		{".", "", ""},
		{filepath.Join(repo.Root(), "docs", "adr"), "", "docs/adr"},
		{repo.Root(), "", ""},
		{"docs/linked", "", "real/adr"},
		{"chain", "", "real/adr"},
		// The configured path is cleaned lexically first, as the
		// working-tree reader joins it: the ".." never meets the link.
		{"docs/linked/../adr", "", "docs/adr"},
		{"missing", corpus.DirNotFound, ""},
		{"docs/missing", corpus.DirNotFound, ""},
		{"dangling", corpus.DirNotFound, ""},
		{"docs/adr/0001-a.md", corpus.DirNotDirectory, ""},
		{"to-file", corpus.DirNotDirectory, ""},
		{"README.md/adr", corpus.DirNotReadable, ""},
		{"loop-a", corpus.DirNotReadable, ""},
		{"vendor/lib", corpus.DirNotReadable, ""},
		{"../elsewhere", corpus.DirOutsideRoot, ""},
		{"docs/../..", corpus.DirOutsideRoot, ""},
		// Absolute on this system: /somewhere/else, or on Windows the
		// same on the repository's volume.
		{filepath.Join(filepath.VolumeName(repo.Root())+string(filepath.Separator), "somewhere", "else"), corpus.DirOutsideRoot, ""},
		{filepath.Join(repo.Root(), "..", "sibling"), corpus.DirOutsideRoot, ""},
		{"absolute", corpus.DirOutsideRoot, ""},
		{"up", corpus.DirOutsideRoot, ""},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			c, err := New(repo.Root(), tc.dir, "HEAD").Open(context.Background())
			if got := corpustest.ReasonOf(t, err); got != tc.want {
				t.Fatalf("Open: reason %q (%v), want %q", got, causeOf(err), tc.want)
			}
			if err != nil {
				if causeOf(err) == "" {
					t.Error("no cause")
				}
				return
			}
			if got := c.(*view).displayDir; got != tc.wantDisplay {
				t.Errorf("display dir %q, want %q", got, tc.wantDisplay)
			}
		})
	}
}

func TestDirMissingAtRevision(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	repo.CommitOn("main", "before the decisions\n", reg("README.md", "# Repo\n"))
	repo.CommitOn("main", "first decision\n", reg("README.md", "# Repo\n"), record("docs/adr/0001-a.md", "0001"))
	equalNames(t, "HEAD", topNames(t, New(repo.Root(), "docs/adr", "HEAD")), []string{"0001-a.md"})
	_, err := New(repo.Root(), "docs/adr", "HEAD~1").Open(context.Background())
	checkUnavailable(t, "Open(HEAD~1)", err, corpus.DirNotFound, "docs is not in the tree")
}

func TestNewDoesNoIO(t *testing.T) {
	// A reader for a path that does not exist is built without error; the
	// failure shows on Check.
	r := New(filepath.Join(base(t), "nope"), "docs/adr", "v9")
	checkUnavailable(t, "Check", r.Check(context.Background()), corpus.RootNotFound)
}

func TestContextCancelled(t *testing.T) {
	h := newHistory(t, false)
	r := New(h.Root(), "docs/adr", "HEAD")
	c := mustOpen(t, r)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Open(ctx); !isCanceled(err) {
		t.Errorf("Open: %v, want context.Canceled", err)
	}
	if _, err := c.List(ctx, true); !isCanceled(err) {
		t.Errorf("List: %v, want context.Canceled", err)
	}
	if _, err := c.Read(ctx, "0001-r.md", corpus.MaxRecordBytes, nil); !isCanceled(err) {
		t.Errorf("Read: %v, want context.Canceled", err)
	}
	if err := c.Verify(ctx); !isCanceled(err) {
		t.Errorf("Verify: %v, want context.Canceled", err)
	}
}

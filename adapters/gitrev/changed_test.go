package gitrev

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

func TestChanges(t *testing.T) {
	r := gittest.NewWorktree(t, filepath.Join(base(t), "repo"))
	for _, p := range []string{"a.txt", "keep.txt", "gone.txt", "rm.txt", "docs/adr/0001-x.md", "old/name.txt"} {
		r.Write(p, p+"\n")
	}
	first := r.Commit("first")

	r.Checkout("feature", true)
	r.Write("a.txt", "changed\n")
	r.Remove("gone.txt")
	r.Write("new.txt", "new\n")
	r.Remove("old/name.txt")
	r.Write("new/name.txt", "old/name.txt\n")
	r.Commit("feature work")

	r.Checkout("main", false)
	r.Write("keep.txt", "changed on main only\n")
	main := r.Commit("main moves on")
	r.Checkout("feature", false)

	// Uncommitted work: unstaged, staged, untracked, deleted, ignored.
	r.Write("docs/adr/0001-x.md", "edited\n")
	r.Write("staged.txt", "staged\n")
	r.Stage("staged.txt")
	r.Write("untracked.txt", "untracked\n")
	r.Write(".gitignore", "*.log\n")
	r.Write("ignored.log", "ignored\n")
	r.Remove("rm.txt")

	cs, err := Changes(context.Background(), r.Root(), "main")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "a.txt", "docs/adr/0001-x.md", "gone.txt", "new.txt", "new/name.txt", "old/name.txt", "rm.txt", "staged.txt", "untracked.txt"}
	if !slices.Equal(cs.Files, want) {
		t.Errorf("files %q,\nwant %q", cs.Files, want)
	}
	if cs.Base != first || cs.Since != main || !cs.Worktree {
		t.Errorf("base %s since %s worktree %v; want base %s since %s", cs.Base, cs.Since, cs.Worktree, first, main)
	}

	// Since HEAD itself: only the working tree.
	cs, err = Changes(context.Background(), r.Root(), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	want = []string{".gitignore", "docs/adr/0001-x.md", "rm.txt", "staged.txt", "untracked.txt"}
	if !slices.Equal(cs.Files, want) {
		t.Errorf("since HEAD: %q, want %q", cs.Files, want)
	}

	// A revision that does not resolve is the caller's mistake.
	if _, err := Changes(context.Background(), r.Root(), "no-such-branch"); !errors.Is(err, ErrRevision) {
		t.Errorf("unknown revision: %v", err)
	}
}

// A revision with no history in common with HEAD has no merge base.
func TestChangesUnrelated(t *testing.T) {
	r := gittest.NewWorktree(t, filepath.Join(base(t), "repo"))
	r.Write("a.txt", "a\n")
	r.Commit("first")
	repo, err := git.PlainOpen(r.Root())
	if err != nil {
		t.Fatal(err)
	}
	orphan := plumbing.NewBranchReferenceName("orphan")
	c := &object.Commit{
		Author:    object.Signature{Name: "x", Email: "x@example.invalid", When: when},
		Committer: object.Signature{Name: "x", Email: "x@example.invalid", When: when},
		Message:   "orphan\n",
	}
	tree := &object.Tree{}
	obj := repo.Storer.NewEncodedObject()
	if err := tree.Encode(obj); err != nil {
		t.Fatal(err)
	}
	th, err := repo.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	c.TreeHash = th
	obj = repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		t.Fatal(err)
	}
	ch, err := repo.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.Storer.SetReference(plumbing.NewHashReference(orphan, ch)); err != nil {
		t.Fatal(err)
	}
	if _, err := Changes(context.Background(), r.Root(), "orphan"); !errors.Is(err, ErrRevision) {
		t.Errorf("unrelated history: %v", err)
	}
}

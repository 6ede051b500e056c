package gitrev

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// worktreeRepo is a repository driven through its working tree and index,
// as a developer's checkout is.
type worktreeRepo struct {
	t    *testing.T
	root string
	repo *git.Repository
	wt   *git.Worktree
	tick int
}

func newWorktreeRepo(t *testing.T) *worktreeRepo {
	t.Helper()
	root := filepath.Join(base(t), "repo")
	repo, err := git.PlainInitWithOptions(root, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	return &worktreeRepo{t: t, root: root, repo: repo, wt: wt}
}

func (r *worktreeRepo) write(p, content string) {
	r.t.Helper()
	full := filepath.Join(r.root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *worktreeRepo) remove(p string) {
	r.t.Helper()
	if err := os.Remove(filepath.Join(r.root, filepath.FromSlash(p))); err != nil {
		r.t.Fatal(err)
	}
}

func (r *worktreeRepo) add(p string) {
	r.t.Helper()
	if _, err := r.wt.Add(p); err != nil {
		r.t.Fatal(err)
	}
}

// commit commits everything (deletions included) with a fixed signature.
func (r *worktreeRepo) commit(msg string) plumbing.Hash {
	r.t.Helper()
	if err := r.wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		r.t.Fatal(err)
	}
	r.tick++
	sig := object.Signature{Name: "ADR Kit", Email: "adrkit@example.invalid", When: when.Add(time.Duration(r.tick) * time.Minute)}
	h, err := r.wt.Commit(msg, &git.CommitOptions{Author: &sig, Committer: &sig})
	if err != nil {
		r.t.Fatal(err)
	}
	return h
}

func (r *worktreeRepo) checkout(branch string, create bool) {
	r.t.Helper()
	if err := r.wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName(branch), Create: create}); err != nil {
		r.t.Fatal(err)
	}
}

func TestChanges(t *testing.T) {
	r := newWorktreeRepo(t)
	for _, p := range []string{"a.txt", "keep.txt", "gone.txt", "rm.txt", "docs/adr/0001-x.md", "old/name.txt"} {
		r.write(p, p+"\n")
	}
	first := r.commit("first")

	r.checkout("feature", true)
	r.write("a.txt", "changed\n")
	r.remove("gone.txt")
	r.write("new.txt", "new\n")
	r.remove("old/name.txt")
	r.write("new/name.txt", "old/name.txt\n")
	r.commit("feature work")

	r.checkout("main", false)
	r.write("keep.txt", "changed on main only\n")
	main := r.commit("main moves on")
	r.checkout("feature", false)

	// Uncommitted work: unstaged, staged, untracked, deleted, ignored.
	r.write("docs/adr/0001-x.md", "edited\n")
	r.write("staged.txt", "staged\n")
	r.add("staged.txt")
	r.write("untracked.txt", "untracked\n")
	r.write(".gitignore", "*.log\n")
	r.write("ignored.log", "ignored\n")
	r.remove("rm.txt")

	cs, err := Changes(context.Background(), r.root, "main")
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
	cs, err = Changes(context.Background(), r.root, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	want = []string{".gitignore", "docs/adr/0001-x.md", "rm.txt", "staged.txt", "untracked.txt"}
	if !slices.Equal(cs.Files, want) {
		t.Errorf("since HEAD: %q, want %q", cs.Files, want)
	}

	// A revision that does not resolve is the caller's mistake.
	if _, err := Changes(context.Background(), r.root, "no-such-branch"); !errors.Is(err, ErrRevision) {
		t.Errorf("unknown revision: %v", err)
	}
}

// A revision with no history in common with HEAD has no merge base.
func TestChangesUnrelated(t *testing.T) {
	r := newWorktreeRepo(t)
	r.write("a.txt", "a\n")
	r.commit("first")
	orphan := plumbing.NewBranchReferenceName("orphan")
	c := &object.Commit{
		Author:    object.Signature{Name: "x", Email: "x@example.invalid", When: when},
		Committer: object.Signature{Name: "x", Email: "x@example.invalid", When: when},
		Message:   "orphan\n",
	}
	tree := &object.Tree{}
	obj := r.repo.Storer.NewEncodedObject()
	if err := tree.Encode(obj); err != nil {
		t.Fatal(err)
	}
	th, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	c.TreeHash = th
	obj = r.repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		t.Fatal(err)
	}
	ch, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.repo.Storer.SetReference(plumbing.NewHashReference(orphan, ch)); err != nil {
		t.Fatal(err)
	}
	if _, err := Changes(context.Background(), r.root, "orphan"); !errors.Is(err, ErrRevision) {
		t.Errorf("unrelated history: %v", err)
	}
}

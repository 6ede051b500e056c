// Package gittest builds git repositories for tests, with go-git and
// fixed signatures, so that every commit id (and every golden that shows
// one) is the same on every run. Only tests import it.
package gittest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Repo is a repository on disk whose commits are built object by object,
// never through the index or the working tree, on the branch main.
type Repo struct {
	t    testing.TB
	root string
	repo *git.Repository
}

// Init makes root (an existing directory without a .git entry) a
// repository whose default branch is main.
func Init(t testing.TB, root string) *Repo {
	t.Helper()
	repo, err := git.PlainInitWithOptions(root, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &Repo{t: t, root: root, repo: repo}
}

// Root is the repository's working-tree root.
func (r *Repo) Root() string { return r.root }

// Signature is the author and committer of every commit, at when.
func Signature(when time.Time) object.Signature {
	return object.Signature{Name: "ADR Kit", Email: "adrkit@example.invalid", When: when}
}

// Commit stores files ("/"-separated path → content, every file regular)
// as the whole tree of a commit on top of parent (zero for a root
// commit), with message msg plus a line break, dated when, and moves main
// to it.
func (r *Repo) Commit(parent plumbing.Hash, msg string, when time.Time, files map[string]string) plumbing.Hash {
	r.t.Helper()
	sig := Signature(when)
	c := &object.Commit{TreeHash: r.tree(files), Message: msg + "\n", Author: sig, Committer: sig}
	if !parent.IsZero() {
		c.ParentHashes = []plumbing.Hash{parent}
	}
	obj := r.repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		r.t.Fatal(err)
	}
	h := r.store(obj)
	if err := r.repo.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName("main"), h)); err != nil {
		r.t.Fatal(err)
	}
	return h
}

func (r *Repo) store(obj plumbing.EncodedObject) plumbing.Hash {
	r.t.Helper()
	h, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		r.t.Fatal(err)
	}
	return h
}

// tree stores files as nested trees and returns the top one.
func (r *Repo) tree(files map[string]string) plumbing.Hash {
	r.t.Helper()
	var entries []object.TreeEntry
	sub := map[string]map[string]string{}
	for p, content := range files {
		if first, rest, nested := strings.Cut(p, "/"); nested {
			if sub[first] == nil {
				sub[first] = map[string]string{}
			}
			sub[first][rest] = content
			continue
		}
		obj := r.repo.Storer.NewEncodedObject()
		obj.SetType(plumbing.BlobObject)
		w, err := obj.Writer()
		if err != nil {
			r.t.Fatal(err)
		}
		if _, err := w.Write([]byte(content)); err != nil {
			r.t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			r.t.Fatal(err)
		}
		entries = append(entries, object.TreeEntry{Name: p, Mode: filemode.Regular, Hash: r.store(obj)})
	}
	for name, fs := range sub {
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: r.tree(fs)})
	}
	sort.Sort(object.TreeEntrySorter(entries))
	obj := r.repo.Storer.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		r.t.Fatal(err)
	}
	return r.store(obj)
}

// CommitWorkingTree replaces root's .git entry with a new repository
// holding one commit of everything under root/dir, as it is on disk,
// dated when.
func CommitWorkingTree(t testing.TB, root, dir, msg string, when time.Time) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(root, ".git")); err != nil {
		t.Fatal(err)
	}
	repo, err := git.PlainInit(root, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wt.Add(dir); err != nil {
		t.Fatal(err)
	}
	sig := Signature(when)
	if _, err := wt.Commit(msg, &git.CommitOptions{Author: &sig, Committer: &sig}); err != nil {
		t.Fatal(err)
	}
}

// Worktree is a repository driven through its working tree and index, as
// a developer's checkout is: files are written to disk, then committed
// with git add -A semantics, on the branch checked out. Commits are dated
// one minute apart from a fixed time, so that every hash is the same on
// every run.
type Worktree struct {
	t    testing.TB
	root string
	repo *git.Repository
	wt   *git.Worktree
	tick int
}

// NewWorktree makes root (a directory that need not exist) a repository
// whose branch main is checked out, with no commit yet.
func NewWorktree(t testing.TB, root string) *Worktree {
	t.Helper()
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
	return &Worktree{t: t, root: root, repo: repo, wt: wt}
}

// Root is the working tree's root.
func (w *Worktree) Root() string { return w.root }

// Write writes content to the "/"-separated path p, making directories.
func (w *Worktree) Write(p, content string) {
	w.t.Helper()
	full := filepath.Join(w.root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// Remove deletes the file at p from the working tree (not the index).
func (w *Worktree) Remove(p string) {
	w.t.Helper()
	if err := os.Remove(filepath.Join(w.root, filepath.FromSlash(p))); err != nil {
		w.t.Fatal(err)
	}
}

// Stage adds the file at p to the index.
func (w *Worktree) Stage(p string) {
	w.t.Helper()
	if _, err := w.wt.Add(p); err != nil {
		w.t.Fatal(err)
	}
}

// Commit stages everything (deletions included) and commits it.
func (w *Worktree) Commit(msg string) plumbing.Hash {
	w.t.Helper()
	if err := w.wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		w.t.Fatal(err)
	}
	w.tick++
	sig := Signature(time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(w.tick) * time.Minute))
	h, err := w.wt.Commit(msg, &git.CommitOptions{Author: &sig, Committer: &sig})
	if err != nil {
		w.t.Fatal(err)
	}
	return h
}

// Checkout checks out branch, creating it at HEAD when create is set.
func (w *Worktree) Checkout(branch string, create bool) {
	w.t.Helper()
	err := w.wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName(branch), Create: create})
	if err != nil {
		w.t.Fatal(err)
	}
}

// CopyDir writes every file under the directory src (on disk) into the
// working tree at the same relative path.
func (w *Worktree) CopyDir(src string) {
	w.t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w.Write(filepath.ToSlash(rel), string(data))
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

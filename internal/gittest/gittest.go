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

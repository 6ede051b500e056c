// Package gittest builds git repositories for tests, with go-git and
// fixed signatures, so that every commit id (and every golden that shows
// one) is the same on every run: a Repo built object by object (any file
// mode, bare or not, branches, merges, tags, missing objects), a Worktree
// driven through its index as a developer's checkout is, and MakeRoot, a
// repository root without a repository, which is all most tests of the
// working tree need. It is the one place tests make repositories. Only
// tests import it.
package gittest

import (
	"errors"
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
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Repo is a repository on disk whose commits are built object by object,
// never through the index or the working tree, so what a test commits and
// what its working tree holds are independent.
type Repo struct {
	t    testing.TB
	root string // the working-tree root, or the bare repository
	repo *git.Repository
	// ticks makes each CommitOn's time distinct, so equal trees on one
	// branch still give distinct, deterministic commits.
	ticks int
}

// Init makes root (an existing directory without a .git entry, or one
// that need not exist) a repository whose HEAD is the unborn branch main.
func Init(t testing.TB, root string) *Repo { return initRepo(t, root, false) }

// InitBare makes root a bare repository whose HEAD is the unborn branch
// main.
func InitBare(t testing.TB, root string) *Repo { return initRepo(t, root, true) }

func initRepo(t testing.TB, root string, bare bool) *Repo {
	t.Helper()
	repo, err := git.PlainInitWithOptions(root, &git.PlainInitOptions{
		Bare:        bare,
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &Repo{t: t, root: root, repo: repo}
}

// Root is the repository's working-tree root (the repository itself when
// it is bare).
func (r *Repo) Root() string { return r.root }

// Git is the go-git handle, for what a test does that Repo does not.
func (r *Repo) Git() *git.Repository { return r.repo }

// GitDir is the repository's own directory, where objects live.
func (r *Repo) GitDir() string {
	if _, err := os.Stat(filepath.Join(r.root, ".git")); err == nil {
		return filepath.Join(r.root, ".git")
	}
	return r.root
}

// Signature is the author and committer of every commit, at when.
func Signature(when time.Time) object.Signature {
	return object.Signature{Name: "ADR Kit", Email: "adrkit@example.invalid", When: when}
}

// Epoch is the time of the first CommitOn; each later one is a minute on.
var Epoch = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)

// File is one tree entry to commit. The zero Mode is a regular file.
type File struct {
	// Path is "/"-separated, relative to the top of the tree.
	Path string
	// Content is a file's bytes or a symlink's target.
	Content string
	Mode    filemode.FileMode
	// Commit is what a submodule entry (filemode.Submodule) points at.
	Commit plumbing.Hash
}

// Regular is a regular file.
func Regular(p, content string) File { return File{Path: p, Content: content} }

// Symlink is a symbolic link to target.
func Symlink(p, target string) File { return File{Path: p, Content: target, Mode: filemode.Symlink} }

// Executable is an executable file.
func Executable(p, content string) File {
	return File{Path: p, Content: content, Mode: filemode.Executable}
}

// Gitlink is a submodule entry pointing at the commit hash.
func Gitlink(p, hash string) File {
	return File{Path: p, Mode: filemode.Submodule, Commit: plumbing.NewHash(hash)}
}

// Commit stores files ("/"-separated path → content, every file regular)
// as the whole tree of a commit on top of parent (zero for a root
// commit), with message msg plus a line break, dated when, and moves main
// to it.
func (r *Repo) Commit(parent plumbing.Hash, msg string, when time.Time, files map[string]string) plumbing.Hash {
	r.t.Helper()
	var fs []File
	for p, content := range files {
		fs = append(fs, Regular(p, content))
	}
	var parents []plumbing.Hash
	if !parent.IsZero() {
		parents = []plumbing.Hash{parent}
	}
	h := r.commit(r.Tree(fs...), msg+"\n", when, parents)
	r.SetRef(plumbing.NewBranchReferenceName("main"), h)
	return h
}

// CommitOn commits files as the whole tree on branch, on top of the
// branch's tip when it has one, with message msg as given, dated a minute
// after the previous CommitOn (the first at Epoch), and moves the branch.
func (r *Repo) CommitOn(branch, msg string, files ...File) plumbing.Hash {
	r.t.Helper()
	return r.commitOn(branch, msg, nil, files)
}

// MergeOn is CommitOn for a merge commit: its parents are the branch's
// tip (the first parent) and other.
func (r *Repo) MergeOn(branch, msg string, other plumbing.Hash, files ...File) plumbing.Hash {
	r.t.Helper()
	return r.commitOn(branch, msg, []plumbing.Hash{other}, files)
}

func (r *Repo) commitOn(branch, msg string, others []plumbing.Hash, files []File) plumbing.Hash {
	r.t.Helper()
	name := plumbing.NewBranchReferenceName(branch)
	var parents []plumbing.Hash
	if ref, err := r.repo.Storer.Reference(name); err == nil {
		parents = []plumbing.Hash{ref.Hash()}
	}
	r.ticks++
	h := r.commit(r.Tree(files...), msg, Epoch.Add(time.Duration(r.ticks)*time.Minute), append(parents, others...))
	r.SetRef(name, h)
	return h
}

func (r *Repo) commit(tree plumbing.Hash, msg string, when time.Time, parents []plumbing.Hash) plumbing.Hash {
	r.t.Helper()
	sig := Signature(when)
	c := &object.Commit{TreeHash: tree, Message: msg, Author: sig, Committer: sig, ParentHashes: parents}
	obj := r.repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		r.t.Fatal(err)
	}
	return r.store(obj)
}

// SetRef points the reference name at h.
func (r *Repo) SetRef(name plumbing.ReferenceName, h plumbing.Hash) {
	r.t.Helper()
	if err := r.repo.Storer.SetReference(plumbing.NewHashReference(name, h)); err != nil {
		r.t.Fatal(err)
	}
}

// AnnotatedTag stores a tag object for the commit target and points
// refs/tags/name at it; it returns the tag object's hash.
func (r *Repo) AnnotatedTag(name string, target plumbing.Hash) plumbing.Hash {
	r.t.Helper()
	tag := &object.Tag{
		Name:       name,
		Tagger:     Signature(Epoch),
		Message:    "Release " + name + "\n",
		TargetType: plumbing.CommitObject,
		Target:     target,
	}
	obj := r.repo.Storer.NewEncodedObject()
	if err := tag.Encode(obj); err != nil {
		r.t.Fatal(err)
	}
	h := r.store(obj)
	r.SetRef(plumbing.NewTagReferenceName(name), h)
	return h
}

// Blob stores b and returns its hash.
func (r *Repo) Blob(b []byte) plumbing.Hash {
	r.t.Helper()
	obj := r.repo.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		r.t.Fatal(err)
	}
	if _, err := w.Write(b); err != nil {
		r.t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		r.t.Fatal(err)
	}
	return r.store(obj)
}

// Tree stores the tree holding files (paths relative to it) and every
// subtree on the way, in git's entry order, and returns its hash.
func (r *Repo) Tree(files ...File) plumbing.Hash {
	r.t.Helper()
	var entries []object.TreeEntry
	sub := map[string][]File{}
	for _, f := range files {
		if first, rest, nested := strings.Cut(f.Path, "/"); nested {
			f.Path = rest
			sub[first] = append(sub[first], f)
			continue
		}
		e := object.TreeEntry{Name: f.Path, Mode: f.Mode}
		switch f.Mode {
		case filemode.Empty:
			e.Mode = filemode.Regular
			e.Hash = r.Blob([]byte(f.Content))
		case filemode.Submodule:
			e.Hash = f.Commit
		default:
			e.Hash = r.Blob([]byte(f.Content))
		}
		entries = append(entries, e)
	}
	for name, fs := range sub {
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: r.Tree(fs...)})
	}
	sort.Sort(object.TreeEntrySorter(entries))
	obj := r.repo.Storer.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		r.t.Fatal(err)
	}
	return r.store(obj)
}

func (r *Repo) store(obj plumbing.EncodedObject) plumbing.Hash {
	r.t.Helper()
	h, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		r.t.Fatal(err)
	}
	return h
}

// ObjectFile is the loose object file of h.
func (r *Repo) ObjectFile(h plumbing.Hash) string {
	s := h.String()
	return filepath.Join(r.GitDir(), "objects", s[:2], s[2:])
}

// DeleteObject removes the loose object h, as a shallow clone lacks the
// commits past its boundary and a pruned or partial repository lacks
// others.
func (r *Repo) DeleteObject(h plumbing.Hash) {
	r.t.Helper()
	if err := os.Remove(r.ObjectFile(h)); err != nil {
		r.t.Fatal(err)
	}
}

// EntryHash is the object id of the entry at p ("" for the whole tree)
// in commit c's tree.
func (r *Repo) EntryHash(c plumbing.Hash, p string) plumbing.Hash {
	r.t.Helper()
	commit, err := r.repo.CommitObject(c)
	if err != nil {
		r.t.Fatal(err)
	}
	tree, err := commit.Tree()
	if err != nil {
		r.t.Fatal(err)
	}
	if p == "" {
		return tree.Hash
	}
	e, err := tree.FindEntry(p)
	if err != nil {
		r.t.Fatalf("%s in %s: %v", p, c, err)
	}
	return e.Hash
}

// CloneBare copies every object and reference of r into a new bare
// repository at root, which is what a bare clone holds.
func (r *Repo) CloneBare(root string) *Repo {
	r.t.Helper()
	dst := InitBare(r.t, root)
	iter, err := r.repo.Storer.IterEncodedObjects(plumbing.AnyObject)
	if err != nil {
		r.t.Fatal(err)
	}
	err = iter.ForEach(func(o plumbing.EncodedObject) error {
		_, err := dst.repo.Storer.SetEncodedObject(o)
		return err
	})
	if err != nil {
		r.t.Fatal(err)
	}
	refs, err := r.repo.Storer.IterReferences()
	if err != nil {
		r.t.Fatal(err)
	}
	err = refs.ForEach(func(ref *plumbing.Reference) error { return dst.repo.Storer.SetReference(ref) })
	if err != nil && !errors.Is(err, storer.ErrStop) {
		r.t.Fatal(err)
	}
	return dst
}

// MakeRoot makes root (created if missing) what the working-tree reader
// accepts as a repository root without a repository behind it: an empty
// .git directory, and files ("/"-separated path → content) written
// under root. Most tests of the working tree need no commits.
func MakeRoot(t testing.TB, root string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// CopyDir copies every file under the directory src into dst at the same
// relative path, making directories (empty ones included).
func CopyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
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
	CopyDir(w.t, src, w.root)
}

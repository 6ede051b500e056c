package gitrev

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// when is the fixed time of every signature, so that object ids (and the
// goldens that show them) are the same on every run.
var when = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)

// file is one tree entry a test commits. The zero mode is a regular file.
type file struct {
	path    string
	content string // the blob; a symlink's target
	mode    filemode.FileMode
	hash    plumbing.Hash // the commit of a submodule
}

func reg(p, content string) file { return file{path: p, content: content} }
func link(p, target string) file { return file{path: p, content: target, mode: filemode.Symlink} }
func record(p, id string) file   { return reg(p, string(recordText(id))) }
func exe(p, content string) file { return file{path: p, content: content, mode: filemode.Executable} }
func gitlink(p string, h string) file {
	return file{path: p, mode: filemode.Submodule, hash: plumbing.NewHash(h)}
}

// recordText is a small valid record.
func recordText(id string) []byte {
	return []byte("---\nschemaVersion: 0.1.0\nid: \"" + id + "\"\ntitle: Record " + id +
		"\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@adrkit-go\"]\n---\n\n# Record " + id + "\n\nBody.\n")
}

// testRepo builds commits directly in a repository's object database with
// go-git, never through a working tree: what a test commits and what its
// working tree holds are independent.
type testRepo struct {
	t    *testing.T
	path string // the worktree root, or the bare repository
	repo *git.Repository
	// ticks makes each commit's time distinct, so equal trees on one
	// branch still give distinct, deterministic commits.
	ticks int
}

// base returns a fresh canonical temporary directory: tests compare
// canonical paths, and the temporary directory may sit behind a symlink.
func base(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// newRepo initialises a repository at parent/name whose HEAD is the
// unborn branch main.
func newRepo(t *testing.T, parent, name string, bare bool) *testRepo {
	t.Helper()
	p := filepath.Join(parent, name)
	repo, err := git.PlainInitWithOptions(p, &git.PlainInitOptions{
		Bare:        bare,
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &testRepo{t: t, path: p, repo: repo}
}

// gitDir is the repository's own directory (where objects live).
func (r *testRepo) gitDir() string {
	if _, err := os.Stat(filepath.Join(r.path, ".git")); err == nil {
		return filepath.Join(r.path, ".git")
	}
	return r.path
}

func (r *testRepo) store(obj plumbing.EncodedObject) plumbing.Hash {
	r.t.Helper()
	h, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		r.t.Fatal(err)
	}
	return h
}

func (r *testRepo) blob(b []byte) plumbing.Hash {
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

// tree stores the tree holding files (paths relative to it) and every
// subtree on the way, in git's entry order.
func (r *testRepo) tree(files []file) plumbing.Hash {
	r.t.Helper()
	var entries []object.TreeEntry
	sub := map[string][]file{}
	for _, f := range files {
		if first, rest, nested := strings.Cut(f.path, "/"); nested {
			f.path = rest
			sub[first] = append(sub[first], f)
			continue
		}
		e := object.TreeEntry{Name: f.path, Mode: f.mode}
		switch f.mode {
		case filemode.Empty:
			e.Mode = filemode.Regular
			e.Hash = r.blob([]byte(f.content))
		case filemode.Submodule:
			e.Hash = f.hash
		default:
			e.Hash = r.blob([]byte(f.content))
		}
		entries = append(entries, e)
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

// commit commits files as the whole tree on branch, on top of the
// branch's tip when it has one, and moves the branch.
func (r *testRepo) commit(branch, msg string, files ...file) plumbing.Hash {
	r.t.Helper()
	c := &object.Commit{TreeHash: r.tree(files), Message: msg}
	name := plumbing.NewBranchReferenceName(branch)
	if ref, err := r.repo.Storer.Reference(name); err == nil {
		c.ParentHashes = []plumbing.Hash{ref.Hash()}
	}
	r.ticks++
	sig := object.Signature{Name: "ADR Kit", Email: "adrkit@example.invalid", When: when.Add(time.Duration(r.ticks) * time.Minute)}
	c.Author, c.Committer = sig, sig
	obj := r.repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		r.t.Fatal(err)
	}
	h := r.store(obj)
	r.setRef(name, h)
	return h
}

func (r *testRepo) setRef(name plumbing.ReferenceName, h plumbing.Hash) {
	r.t.Helper()
	if err := r.repo.Storer.SetReference(plumbing.NewHashReference(name, h)); err != nil {
		r.t.Fatal(err)
	}
}

// annotatedTag stores a tag object for target and points refs/tags/name
// at it; it returns the tag object's hash.
func (r *testRepo) annotatedTag(name string, target plumbing.Hash) plumbing.Hash {
	r.t.Helper()
	tag := &object.Tag{
		Name:       name,
		Tagger:     object.Signature{Name: "ADR Kit", Email: "adrkit@example.invalid", When: when},
		Message:    "Release " + name + "\n",
		TargetType: plumbing.CommitObject,
		Target:     target,
	}
	obj := r.repo.Storer.NewEncodedObject()
	if err := tag.Encode(obj); err != nil {
		r.t.Fatal(err)
	}
	h := r.store(obj)
	r.setRef(plumbing.NewTagReferenceName(name), h)
	return h
}

// objectFile is the loose object file of h.
func (r *testRepo) objectFile(h plumbing.Hash) string {
	s := h.String()
	return filepath.Join(r.gitDir(), "objects", s[:2], s[2:])
}

// deleteObject removes the loose object h, as a shallow clone lacks the
// commits past its boundary and a pruned or partial repository lacks
// others.
func (r *testRepo) deleteObject(h plumbing.Hash) {
	r.t.Helper()
	if err := os.Remove(r.objectFile(h)); err != nil {
		r.t.Fatal(err)
	}
}

// entryHash is the object id of the entry at p in commit c's tree.
func (r *testRepo) entryHash(c plumbing.Hash, p string) plumbing.Hash {
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

// cloneBare copies every object and reference of r into a new bare
// repository, which is what a bare clone holds.
func (r *testRepo) cloneBare(parent, name string) *testRepo {
	r.t.Helper()
	dst := newRepo(r.t, parent, name, true)
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

// writeFile writes b at p, making the directories on the way.
func writeFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeLooseObject replaces the loose object file of h by one holding the
// given header and content, compressed as git stores them, so a test can
// give an object a header that its content does not match.
func writeLooseObject(t *testing.T, p, header string, content []byte) {
	t.Helper()
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	if _, err := zw.Write(append([]byte(header+"\x00"), content...)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	// Loose objects are written read-only.
	if err := os.Chmod(p, 0o644); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	writeFile(t, p, buf.Bytes())
}

// runGit runs the git command line, for the shapes go-git cannot build (a
// linked worktree). It skips the test when git is not installed, and
// isolates git from the user's and the system's configuration.
func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("the git command is not installed; it is needed to build a linked worktree")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "LC_ALL=C")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// mustOpen opens r and returns the concrete view.
func mustOpen(t *testing.T, r *Reader) *view {
	t.Helper()
	c, err := r.Open(context.Background())
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return c.(*view)
}

// names lists c (recursively or not) and returns the entry names.
func names(t *testing.T, c ports.ADRDir, recursive bool) []string {
	t.Helper()
	es, err := c.List(context.Background(), recursive)
	if err != nil {
		t.Fatalf("List(recursive=%v): %v", recursive, err)
	}
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name
	}
	return out
}

// topNames opens r and returns the top-level names of its directory.
func topNames(t *testing.T, r *Reader) []string {
	t.Helper()
	return names(t, mustOpen(t, r), false)
}

// reasonOf returns the reason of an *ports.UnavailableError, "" for nil,
// and fails the test for any other error.
func reasonOf(t *testing.T, err error) corpus.UnavailableReason {
	t.Helper()
	if err == nil {
		return ""
	}
	var ue *ports.UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("error %v (%T) is not a *ports.UnavailableError", err, err)
	}
	return ue.Reason
}

// causeOf is the diagnostic cause of an *ports.UnavailableError.
func causeOf(err error) string {
	var ue *ports.UnavailableError
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err.Error()
	}
	return ""
}

// readKindOf returns the kind of a *ports.ReadError, -1 for nil, and fails
// the test for any other error.
func readKindOf(t *testing.T, err error) ports.ReadErrorKind {
	t.Helper()
	if err == nil {
		return -1
	}
	var re *ports.ReadError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T) is not a *ports.ReadError", err, err)
	}
	return re.Kind
}

// checkUnavailable requires err to carry reason want and a cause that
// holds every fragment.
func checkUnavailable(t *testing.T, what string, err error, want corpus.UnavailableReason, fragments ...string) {
	t.Helper()
	if got := reasonOf(t, err); got != want {
		t.Fatalf("%s: reason %q (%v), want %q", what, got, causeOf(err), want)
	}
	for _, f := range fragments {
		if !strings.Contains(causeOf(err), f) {
			t.Errorf("%s: cause %q does not say %q", what, causeOf(err), f)
		}
	}
}

func equalNames(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func short(h plumbing.Hash) string { return h.String()[:7] }

func isCanceled(err error) bool { return errors.Is(err, context.Canceled) }

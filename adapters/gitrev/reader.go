// Package gitrev reads a git repository with go-git's object and storage
// packages (the repository opened by adapters/gitrepo): the CorpusReader and
// the FileHeadReader over a revision (the ADR directory and the files as
// they are in the tree of one commit, read from the object database), the
// HistoryReader over the revision's first-parent history (history.go),
// and the files a branch and the working tree changed (changed.go, for
// adrkit check). Reading a revision never looks at the working tree, the
// index or any uncommitted change, so the same revision gives the same
// answers on a developer's checkout, a bare mirror and a CI clone.
//
// Every Open re-opens the repository and, unless the revision names a
// commit by its hash, resolves it again: a branch, a tag or HEAD is read
// as it is at that moment, so answers follow commits as they land. A
// revision based on a hash is resolved once and pinned, because it can
// only ever mean that commit.
//
// Failures map onto the contract's fixed reasons (docs/adr/0005): the
// repository → root-*, the revision → root-not-found, the directory in
// the tree → dir-*, missing objects → dir-not-readable for the trees the
// listing needs and a per-record ReadFailed for a blob. A cancelled
// context ends any operation with the context's error, wrapped, so that
// cancellation is never mistaken for an unusable corpus.
package gitrev

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/adrkit/adrkit-go/adapters/gitrepo"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// Reader is a ports.CorpusReader over the tree of a git revision. It is
// safe for concurrent use: concurrent Opens are independent projections,
// each with its own repository handle.
type Reader struct {
	repoPath string
	dir      string
	rev      string

	mu sync.Mutex
	// expectedRoot is the canonical repository path of the first
	// successful validation. A later validation finding another one
	// means the configured path was retargeted (a symlink flipped), which
	// the contract reports as root-not-found rather than silently serving
	// another repository; the working-tree reader does the same.
	expectedRoot string
	// pinned is the commit an immutable revision (one based on a hash)
	// resolved to the first time; zero until then, and forever zero for
	// a revision that names a reference.
	pinned plumbing.Hash
}

var _ ports.CorpusReader = (*Reader)(nil)

// New returns a Reader for the repository at repoPath, the ADR directory
// dir and the revision rev. It performs no I/O: a bogus path or revision
// is only reported by Check or Open.
//
// repoPath is the root of a worktree (main or linked) or a bare
// repository; it is made absolute lexically, without resolving symlinks,
// so that a retargeted symlink can be noticed later. An empty repoPath
// stays empty and reports root-not-found, as the working-tree reader does.
//
// dir is a path in the revision's tree relative to the repository root
// ("" or "." is the root itself). An absolute dir must lie inside
// repoPath and is made relative to it lexically: the tree, not the disk,
// is what is read, so no symlink on disk is followed.
//
// rev is a revision that names a commit (revparse.go has the syntax):
// HEAD or @, a branch, a tag (lightweight or annotated), a full or
// abbreviated hash, optionally followed by ~n, ^n or ^{/text}.
func New(repoPath, dir, rev string) *Reader {
	if repoPath != "" {
		if abs, err := filepath.Abs(repoPath); err == nil {
			repoPath = abs
		}
	}
	return &Reader{repoPath: repoPath, dir: dir, rev: rev}
}

// Check is the start-up validation: it opens the repository, resolves the
// revision and finds the ADR directory in its tree, exactly as Open does.
// A failure is an *ports.UnavailableError whose Err says precisely what
// is wrong (for example `revision "v9" not found`).
func (r *Reader) Check(ctx context.Context) error {
	_, err := r.open(ctx)
	return err
}

// Open opens the repository afresh, resolves the revision (unless it is
// pinned) and returns a view of the ADR directory in that commit's tree.
// A failure is an *ports.UnavailableError (or the context's error).
func (r *Reader) Open(ctx context.Context) (ports.ADRDir, error) {
	v, err := r.open(ctx)
	if err != nil {
		// Not v: a nil *view in the interface would not be a nil ADRDir.
		return nil, err
	}
	return v, nil
}

func (r *Reader) open(ctx context.Context) (*view, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("opening the git revision: %w", err)
	}
	repo, root, err := r.openRepo()
	if err != nil {
		return nil, err
	}
	commit, err := r.resolve(repo)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("opening the git revision: %w", err)
	}
	rel, err := r.relDir(root)
	if err != nil {
		return nil, err
	}
	return newView(ctx, r, repo, commit, rel)
}

// openRepo validates the configured path and opens the repository there.
// The checks before gitrepo.Open runs exist because its errors, like
// go-git's, do not distinguish a missing path from a directory that is
// not a repository, and because it would read a .git FIFO and block (see
// docs/adr/0004-git-root-detection.md).
func (r *Reader) openRepo() (*gitrepo.Repository, string, error) {
	if r.repoPath == "" {
		return nil, "", unavailable(corpus.RootNotFound, errors.New("no repository path was configured"))
	}
	root, err := filepath.EvalSymlinks(r.repoPath)
	if err != nil {
		return nil, "", unavailable(notFoundOr(err, corpus.RootNotFound, corpus.RootNotReadable),
			fmt.Errorf("resolving repository path %q: %w", r.repoPath, err))
	}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, "", unavailable(notFoundOr(err, corpus.RootNotFound, corpus.RootNotReadable),
			fmt.Errorf("checking repository path %s: %w", root, err))
	}
	if !fi.IsDir() {
		return nil, "", unavailable(corpus.RootNotDirectory,
			fmt.Errorf("repository path %s is a %s, not a directory", root, typeName(fi.Mode())))
	}
	// A .git entry, when there is one, must be something Open can read
	// without blocking: a directory (a main worktree) or a regular file
	// (the "gitdir:" pointer of a linked worktree). Without one the path
	// may still be a bare repository, which Open recognises itself.
	if gi, err := os.Stat(filepath.Join(root, ".git")); err == nil && !gi.IsDir() && !gi.Mode().IsRegular() {
		return nil, "", unavailable(corpus.RootNotGit,
			fmt.Errorf("the .git entry of %s is a %s, neither a directory nor a gitdir file", root, typeName(gi.Mode())))
	}

	r.mu.Lock()
	expected := r.expectedRoot
	r.mu.Unlock()
	if expected != "" && expected != root {
		return nil, "", unavailable(corpus.RootNotFound,
			fmt.Errorf("repository path %s now resolves to %s, not %s as at start-up", r.repoPath, root, expected))
	}

	repo, err := gitrepo.Open(root)
	if err != nil {
		return nil, "", unavailable(corpus.RootNotGit, fmt.Errorf("opening the git repository at %s: %w", root, err))
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	switch r.expectedRoot {
	case "":
		r.expectedRoot = root
	case root:
	default:
		// Another Open captured a different root concurrently.
		return nil, "", unavailable(corpus.RootNotFound,
			fmt.Errorf("repository path %s now resolves to %s, not %s as at start-up", r.repoPath, root, r.expectedRoot))
	}
	return repo, root, nil
}

// relDir turns the configured directory into a clean tree path relative
// to the repository root: "" for the root, never starting with "..".
// It is lexical, like the working-tree reader's join: "a/../b" is "b".
func (r *Reader) relDir(root string) (string, error) {
	d := r.dir
	if filepath.IsAbs(d) {
		rel, ok := relInside(r.repoPath, d)
		if !ok {
			// The configured path may be spelt through a symlink that
			// the absolute dir is not, or the other way round.
			rel, ok = relInside(root, d)
		}
		if !ok {
			return "", unavailable(corpus.DirOutsideRoot,
				fmt.Errorf("ADR directory %s is not inside repository %s", d, r.repoPath))
		}
		d = rel
	}
	clean := path.Clean(filepath.ToSlash(d))
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", unavailable(corpus.DirOutsideRoot,
			fmt.Errorf("ADR directory %q leaves the repository root", r.dir))
	}
	if clean == "." {
		clean = ""
	}
	return clean, nil
}

// relInside returns p relative to root, "/"-separated, when p is root or
// lies beneath it by whole path segments (both cleaned lexically).
func relInside(root, p string) (string, bool) {
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// notFoundOr maps a missing path to notFound and every other failure
// (permission, a loop, a file where a directory was expected) to other.
func notFoundOr(err error, notFound, other corpus.UnavailableReason) corpus.UnavailableReason {
	if errors.Is(err, fs.ErrNotExist) {
		return notFound
	}
	return other
}

// typeName names the type bits of m for diagnostics.
func typeName(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return m.Type().String()
}

// unavailable builds the port's error for reason with its cause.
func unavailable(reason corpus.UnavailableReason, err error) *ports.UnavailableError {
	return &ports.UnavailableError{Reason: reason, Err: err}
}

// Package gitrepo opens a git repository on disk with go-git's storage
// and object packages alone. go-git's root package would do the same in
// one call (PlainOpenWithOptions), but importing it links every transport
// (ssh, http, the git protocol), x/crypto/ssh, known_hosts and ssh-agent
// support into the binaries, whose package initialisation every process
// pays at start-up, although adrkit only ever reads a local repository.
//
// Open follows PlainOpenWithOptions with EnableDotGitCommonDir and without
// DetectDotGit: a worktree with a .git directory, a linked worktree whose
// .git file points at its gitdir (objects and references shared through
// its commondir), or a bare repository.
package gitrepo

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// ErrNotExist is Open's answer for a path that holds no repository: no
// .git entry and no bare repository there, a gitdir that is not there,
// or a repository without HEAD. Its text is go-git's for the same case.
var ErrNotExist = errors.New("repository does not exist")

// dotGit is the name of the entry that makes a directory a worktree.
const dotGit = ".git"

// Repository is an opened repository: its object and reference storage
// and, unless it is bare, its working tree. It is not safe for concurrent
// use, because go-git's storage loads its pack indexes lazily.
type Repository struct {
	// Storer holds the objects, references, configuration and index.
	Storer storage.Storer
	// Worktree is the working tree's root; nil for a bare repository.
	Worktree billy.Filesystem
}

// Open opens the repository at path (absolute, or relative to the
// working directory).
func Open(path string) (*Repository, error) {
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dot, wt, err := locate(path)
	if err != nil {
		return nil, err
	}
	if _, err := dot.Stat(""); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ErrNotExist
		}
		return nil, err
	}
	common, err := commonDir(dot)
	if err != nil {
		return nil, err
	}
	s := filesystem.NewStorage(dotgit.NewRepositoryFilesystem(dot, common), cache.NewObjectLRUDefault())
	if _, err := s.Reference(plumbing.HEAD); errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, ErrNotExist
	}
	cfg, err := s.Config()
	if err != nil {
		return nil, err
	}
	if err := supported(cfg); err != nil {
		return nil, err
	}
	return &Repository{Storer: s, Worktree: wt}, nil
}

// locate finds the repository's own directory and the working tree at
// path: path/.git when it is a directory, the gitdir a .git file names,
// or path itself (a bare repository, wt nil) when there is no .git.
func locate(path string) (dot, wt billy.Filesystem, err error) {
	if _, err := os.Stat(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	fi, err := os.Stat(filepath.Join(path, dotGit))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return osfs.New(path), nil, nil
	case err != nil:
		return nil, nil, err
	case fi.IsDir():
		return osfs.New(filepath.Join(path, dotGit)), osfs.New(path), nil
	}
	gitdir, err := readGitdir(filepath.Join(path, dotGit))
	if err != nil {
		return nil, nil, err
	}
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(path, gitdir)
	}
	return osfs.New(gitdir), osfs.New(path), nil
}

// readGitdir reads the "gitdir: <path>" line of a linked worktree's
// .git file.
func readGitdir(name string) (string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	const prefix = "gitdir: "
	line := string(b)
	if !strings.HasPrefix(line, prefix) {
		return "", fmt.Errorf(".git file has no %s prefix", prefix)
	}
	line, _, _ = strings.Cut(line[len(prefix):], "\n")
	return strings.TrimSpace(line), nil
}

// commonDir is the directory a linked worktree's gitdir shares objects
// and references with (its commondir file); nil when there is none.
func commonDir(dot billy.Filesystem) (billy.Filesystem, error) {
	f, err := dot.Open("commondir")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || len(b) == 0 {
		return nil, err
	}
	p := strings.TrimSpace(string(b))
	if !filepath.IsAbs(p) {
		p = filepath.Join(dot.Root(), p)
	}
	common := osfs.New(p)
	if _, err := common.Stat(""); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("the repository's common directory %s is missing: %w", p, err)
		}
		return nil, err
	}
	return common, nil
}

// supported refuses what go-git's Open refuses: a repository format
// version above 1, and any extension but its no-op ones (objectFormat =
// sha256, partialClone, worktreeConfig ...), whose objects, references or
// configuration it would misread.
func supported(cfg *config.Config) error {
	v := cfg.Core.RepositoryFormatVersion
	if v != "" && v != "0" && v != "1" {
		return fmt.Errorf("core.repositoryformatversion not supported: %q", v)
	}
	if cfg.Raw == nil || !cfg.Raw.HasSection("extensions") {
		return nil
	}
	for _, opt := range cfg.Raw.Section("extensions").Options {
		switch name := strings.ToLower(opt.Key); {
		case name == "noop", v == "1" && name == "noop-v1":
		case v == "1":
			return fmt.Errorf("unknown extension: %s", name)
		default:
			return fmt.Errorf("core.repositoryformatversion does not support extension: %s", name)
		}
	}
	return nil
}

// Head is the reference HEAD leads to, resolved to a hash.
func (r *Repository) Head() (*plumbing.Reference, error) {
	return storer.ResolveReference(r.Storer, plumbing.HEAD)
}

// CommitObject reads commit h.
func (r *Repository) CommitObject(h plumbing.Hash) (*object.Commit, error) {
	return object.GetCommit(r.Storer, h)
}

// TreeObject reads tree h.
func (r *Repository) TreeObject(h plumbing.Hash) (*object.Tree, error) {
	return object.GetTree(r.Storer, h)
}

// TagObject reads annotated tag h.
func (r *Repository) TagObject(h plumbing.Hash) (*object.Tag, error) {
	return object.GetTag(r.Storer, h)
}

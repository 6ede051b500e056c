package filesystem

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/adrkit/adrkit-go/domain/corpus"
)

// gitEntry is the name of the entry that makes a directory a Git worktree
// root. It is checked directly rather than through go-git: see
// docs/adr/0004-git-root-detection.md.
const gitEntry = ".git"

// roots are the canonical (symlink-free, absolute) repository root and ADR
// directory of one validation.
type roots struct {
	root string
	dir  string
}

// resolveRoots validates cwd and dir in the contract's order (mcp-server.md
// §3.2); the first failing step decides the reason, so the order of the
// checks below is observable and must not change.
func resolveRoots(cwd, dir string, access func(string, uint32) error) (roots, error) {
	// 1. The canonical root.
	root, err := realpath(cwd)
	if err != nil {
		return roots{}, unavailable(notFoundOr(err, corpus.RootNotFound, corpus.RootNotReadable),
			fmt.Errorf("resolving repository root %q: %w", cwd, err))
	}
	// 2. It must be a directory.
	if err := requireDir(root, corpus.RootNotFound, corpus.RootNotReadable, corpus.RootNotDirectory); err != nil {
		return roots{}, err
	}
	// 3. Readable and searchable.
	if err := access(root, accessRead|accessSearch); err != nil {
		return roots{}, unavailable(corpus.RootNotReadable,
			fmt.Errorf("checking access to repository root %s: %w", root, err))
	}
	// 4. A .git entry of any type that stat reaches (a directory, or the
	// file of a linked worktree whose content is never read), readable.
	git := filepath.Join(root, gitEntry)
	if _, err := os.Stat(git); err != nil {
		return roots{}, unavailable(corpus.RootNotGit, fmt.Errorf("looking for the Git entry: %w", err))
	}
	if err := access(git, accessRead); err != nil {
		return roots{}, unavailable(corpus.RootNotGit,
			fmt.Errorf("checking access to the Git entry %s: %w", git, err))
	}
	// 5. The directory input, against the canonical root unless absolute.
	// Join cleans lexically (like path.resolve), so "", "." and "a/../b"
	// need no special case; an absolute dir goes to realpath untouched.
	dirPath := dir
	if !filepath.IsAbs(dirPath) {
		dirPath = filepath.Join(root, dirPath)
	}
	// 6. The canonical directory.
	canonDir, err := realpath(dirPath)
	if err != nil {
		return roots{}, unavailable(notFoundOr(err, corpus.DirNotFound, corpus.DirNotReadable),
			fmt.Errorf("resolving ADR directory %q: %w", dir, err))
	}
	// 7. It must be a directory.
	if err := requireDir(canonDir, corpus.DirNotFound, corpus.DirNotReadable, corpus.DirNotDirectory); err != nil {
		return roots{}, err
	}
	// 8. Readable and searchable.
	if err := access(canonDir, accessRead|accessSearch); err != nil {
		return roots{}, unavailable(corpus.DirNotReadable,
			fmt.Errorf("checking access to ADR directory %s: %w", canonDir, err))
	}
	// 9. Contained by whole path segments.
	if !within(root, canonDir) {
		return roots{}, unavailable(corpus.DirOutsideRoot,
			fmt.Errorf("ADR directory %s is not inside repository root %s", canonDir, root))
	}
	return roots{root: root, dir: canonDir}, nil
}

// requireDir stats p (following symlinks) and maps the outcome to the
// three reasons of a root or directory check.
func requireDir(p string, notFound, notReadable, notDir corpus.UnavailableReason) error {
	fi, err := os.Stat(p)
	if err != nil {
		return unavailable(notFoundOr(err, notFound, notReadable), fmt.Errorf("checking %s: %w", p, err))
	}
	if !fi.IsDir() {
		return unavailable(notDir, fmt.Errorf("%s is a %s, not a directory", p, fi.Mode().Type()))
	}
	return nil
}

// notFoundOr maps a missing file (ENOENT; on Windows also a missing
// path) to notFound and every other failure (ENOTDIR, EACCES, ELOOP, ...)
// to other, as the contract distinguishes only those.
func notFoundOr(err error, notFound, other corpus.UnavailableReason) corpus.UnavailableReason {
	if errors.Is(err, fs.ErrNotExist) {
		return notFound
	}
	return other
}

// realpath resolves every symlink in p. The empty path names nothing, as
// for realpath(3), whereas filepath.EvalSymlinks would treat it as ".".
func realpath(p string) (string, error) {
	if p == "" {
		return "", &fs.PathError{Op: "realpath", Path: p, Err: fs.ErrNotExist}
	}
	return filepath.EvalSymlinks(p)
}

// within reports whether p is root or lies beneath it, comparing whole
// path segments: /x/repo-secrets is not inside /x/repo. Both paths must
// be clean and absolute.
func within(root, p string) bool {
	return p == root || beneath(root, p)
}

// beneath reports whether p lies strictly beneath dir by whole segments.
func beneath(dir, p string) bool {
	prefix := dir
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return len(p) > len(prefix) && strings.HasPrefix(p, prefix)
}

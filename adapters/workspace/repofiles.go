package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/adrkit/adrkit-go/adapters/gitrepo"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// RepoFiles is the working tree of a repository as renumber, init and
// doctor use it (ports.RepoFiles): files named relative to the root, read
// and written through an os.Root, so that no path (and no symbolic link on
// the way) leads out of the repository.
type RepoFiles struct {
	path string
	root *os.Root
}

// OpenRepoFiles opens the repository at root.
func OpenRepoFiles(root string) (*RepoFiles, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("opening the repository root: %w", withoutPath(err))
	}
	return &RepoFiles{path: root, root: r}, nil
}

// Close releases the root.
func (f *RepoFiles) Close() error { return f.root.Close() }

// TrackedFiles lists the regular files git tracks (its index), as
// repository-relative "/"-separated paths in code-unit order: the files
// renumber looks in for @adr markers. Symbolic links and submodules are
// left out. None when the root holds no repository (gitrepo.ErrNotExist).
func (f *RepoFiles) TrackedFiles() ([]string, error) {
	repo, err := openRepo(f.path)
	if errors.Is(err, gitrepo.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	idx, err := repo.Storer.Index()
	if err != nil {
		return nil, fmt.Errorf("reading git's index: %w", err)
	}
	var out []string
	for _, e := range idx.Entries {
		if e.Mode == filemode.Regular || e.Mode == filemode.Executable {
			out = append(out, e.Name)
		}
	}
	slices.SortFunc(out, jsstring.Compare)
	return slices.Compact(out), nil
}

// Read reads up to limit bytes of the regular file p (all of it for
// limit < 0), and whether it goes on past them.
func (f *RepoFiles) Read(p string, limit int) ([]byte, bool, error) {
	if !fs.ValidPath(p) || p == "." {
		return nil, false, notInRepository(p)
	}
	return readRegular(f.root, filepath.FromSlash(p), p, limit)
}

// Write replaces p atomically, or creates it with the directories it
// needs: a host reading its configuration meanwhile sees the old file or
// the new one. A path inside git's own directory is refused.
func (f *RepoFiles) Write(p string, content []byte) error {
	if !fs.ValidPath(p) || p == "." {
		return notInRepository(p)
	}
	if err := outsideGit(p); err != nil {
		return err
	}
	name := filepath.FromSlash(p)
	if dir := filepath.Dir(name); dir != "." {
		if err := f.root.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("writing %s: %w", p, withoutPath(err))
		}
	}
	return writeAtomic(f.root, name, p, content, createOrReplace, nil)
}

// outsideGit refuses a "/"-separated path with a .git element, in any
// case (a case-insensitive file system, or git's own rule for what it
// tracks): git's directory, a submodule's, or the file that points a
// linked worktree at its repository. adrkit never writes there, whatever
// a command line names.
func outsideGit(p string) error {
	for elem := range strings.SplitSeq(p, "/") {
		if strings.EqualFold(elem, ".git") {
			return fmt.Errorf("%s is inside git's own directory (.git), where adrkit writes nothing: %w", p, fs.ErrInvalid)
		}
	}
	return nil
}

func notInRepository(p string) error {
	return fmt.Errorf("%q is not a clean path inside the repository: %w", p, fs.ErrInvalid)
}

// readRegular reads up to limit bytes (all for limit < 0) of the regular
// file name under root, and whether it goes on past them; shown names it
// in errors. A symbolic link or a directory is not read.
func readRegular(root *os.Root, name, shown string, limit int) ([]byte, bool, error) {
	fail := func(err error) ([]byte, bool, error) {
		return nil, false, fmt.Errorf("reading %s: %w", shown, withoutPath(err))
	}
	st, err := root.Lstat(name)
	if err != nil {
		return fail(err)
	}
	if !st.Mode().IsRegular() {
		return nil, false, fmt.Errorf("reading %s: not a regular file", shown)
	}
	file, err := root.Open(name)
	if err != nil {
		return fail(err)
	}
	defer file.Close()
	var r io.Reader = file
	if limit >= 0 {
		r = io.LimitReader(file, int64(limit)+1)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return fail(err)
	}
	if limit >= 0 && len(b) > limit {
		return b[:limit], true, nil
	}
	return b, false, nil
}

// writeMode says what a write may find at its name.
type writeMode int

const (
	// createOnly fails with fs.ErrExist when the name is taken.
	createOnly writeMode = iota
	// replaceOnly fails with fs.ErrNotExist when there is no file.
	replaceOnly
	createOrReplace
)

// writeAtomic writes content to name under root (shown names it in
// errors): the bytes go to a temporary file in the same directory, which
// is synced and then renamed over name, or for createOnly linked to it,
// since a hard link fails when the name is taken and so never replaces
// another writer's file. Only a regular file is replaced, and it keeps
// its permissions. unchanged, when given, is asked last, just before the
// rename: an error from it stops the write.
func writeAtomic(root *os.Root, name, shown string, content []byte, mode writeMode, unchanged func() error) error {
	fail := func(err error) error { return fmt.Errorf("writing %s: %w", shown, withoutPath(err)) }
	taken := func() error { return fmt.Errorf("%s exists already: %w", shown, fs.ErrExist) }
	perm := fs.FileMode(0o644)
	switch st, err := root.Lstat(name); {
	case err == nil && mode == createOnly:
		return taken()
	case err == nil && !st.Mode().IsRegular():
		return fmt.Errorf("writing %s: not a regular file", shown)
	case err == nil:
		perm = st.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist) || mode == replaceOnly:
		return fail(err)
	}
	var suffix [6]byte
	_, _ = rand.Read(suffix[:])
	tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".adrkit-"+hex.EncodeToString(suffix[:]))
	fh, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fail(err)
	}
	_, err = fh.Write(content)
	if err == nil {
		err = fh.Chmod(perm)
	}
	if err == nil {
		err = fh.Sync()
	}
	if closeErr := fh.Close(); err == nil {
		err = closeErr
	}
	if err == nil && unchanged != nil {
		if err = unchanged(); err != nil {
			_ = root.Remove(tmp)
			return err
		}
	}
	if err == nil && mode == createOnly {
		err = root.Link(tmp, name)
	} else if err == nil {
		err = root.Rename(tmp, name)
	}
	if err != nil || mode == createOnly {
		_ = root.Remove(tmp)
	}
	switch {
	case err != nil && mode == createOnly && errors.Is(err, fs.ErrExist):
		return taken()
	case err != nil:
		return fail(err)
	}
	return nil
}

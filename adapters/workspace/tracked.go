package workspace

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/adrkit/adrkit-go/adapters/gitrepo"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// TrackedFiles lists the regular files git tracks (its index), as
// repository-relative "/"-separated paths in code-unit order: the files
// renumber looks in for @adr markers. Symbolic links and submodules are
// left out. None when the root holds no repository (gitrepo.ErrNotExist).
func (f *Folder) TrackedFiles() ([]string, error) {
	repo, err := openRepo(f.root)
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

// ReadRepoFile reads up to limit bytes of the file at p (repository-
// relative, "/"-separated; limit < 0 for all of it), and whether it goes
// on past them. A file that is not regular (a symbolic link, a directory)
// or not there is an error.
func (f *Folder) ReadRepoFile(p string, limit int) ([]byte, bool, error) {
	full := filepath.Join(f.root, filepath.FromSlash(p))
	st, err := os.Lstat(full)
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", p, withoutPath(err))
	}
	if !st.Mode().IsRegular() {
		return nil, false, fmt.Errorf("reading %s: not a regular file", p)
	}
	file, err := os.Open(full)
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", p, withoutPath(err))
	}
	defer file.Close()
	var r io.Reader = file
	if limit >= 0 {
		r = io.LimitReader(file, int64(limit)+1)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", p, withoutPath(err))
	}
	if limit >= 0 && len(b) > limit {
		return b[:limit], true, nil
	}
	return b, false, nil
}

// ReplaceRepoFile writes content over the existing file at p
// (repository-relative), atomically and keeping its permissions, as
// Replace does in the ADR directory. The file's directory must lie
// inside the repository.
func (f *Folder) ReplaceRepoFile(p string, content []byte) error {
	dir, err := OpenFolder(f.root, filepath.FromSlash(path.Dir(p)))
	if err != nil {
		return fmt.Errorf("writing %s: %w", p, err)
	}
	return dir.Replace(path.Base(p), content)
}

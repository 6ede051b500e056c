package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// RepoFiles is the working tree of a repository as "adrkit init" writes
// it: files named relative to the root, read and written through an
// os.Root, so that no path (and no symbolic link on the way) leads out of
// the repository.
type RepoFiles struct {
	root *os.Root
}

// OpenRepoFiles opens the repository at root.
func OpenRepoFiles(root string) (*RepoFiles, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("opening the repository root: %w", withoutPath(err))
	}
	return &RepoFiles{root: r}, nil
}

// Close releases the root.
func (f *RepoFiles) Close() error { return f.root.Close() }

// Read returns the bytes of rel; exists is false when there is no such
// file. A directory, or a link leading out of the repository, is an
// error.
func (f *RepoFiles) Read(rel string) ([]byte, bool, error) {
	b, err := f.root.ReadFile(filepath.FromSlash(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, withoutPath(err)
	}
	return b, true, nil
}

// Write replaces rel atomically: the bytes go to a temporary file in the
// same directory, synced, then renamed over rel, so that a host reading
// its configuration meanwhile sees the old file or the new one. Missing
// directories are made; an existing file keeps its permissions.
func (f *RepoFiles) Write(rel string, content []byte) error {
	name := filepath.FromSlash(rel)
	if dir := filepath.Dir(name); dir != "." {
		if err := f.root.MkdirAll(dir, 0o755); err != nil {
			return withoutPath(err)
		}
	}
	perm := fs.FileMode(0o644)
	if st, err := f.root.Stat(name); err == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", rel)
		}
		perm = st.Mode().Perm()
	}
	var suffix [6]byte
	_, _ = rand.Read(suffix[:])
	tmp := filepath.Join(filepath.Dir(name), "."+path.Base(rel)+".adrkit-"+hex.EncodeToString(suffix[:]))
	fh, err := f.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return withoutPath(err)
	}
	ok := false
	defer func() {
		if !ok {
			_ = fh.Close()
			_ = f.root.Remove(tmp)
		}
	}()
	if _, err := fh.Write(content); err != nil {
		return withoutPath(err)
	}
	if err := fh.Sync(); err != nil {
		return withoutPath(err)
	}
	if err := fh.Close(); err != nil {
		return withoutPath(err)
	}
	if err := f.root.Rename(tmp, name); err != nil {
		_ = f.root.Remove(tmp)
		ok = true
		return withoutPath(err)
	}
	ok = true
	return nil
}

package hooks

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/ports"
)

// Store is the hook's ports.HookStore: one file per value in a directory
// outside the repository (the caller checks that), the sessions at its
// top, the indexes in index/ and the answers in answers/. Every write
// goes through a temporary file renamed over the old one; a shelf past
// its bound loses its least recently written files first.
type Store struct {
	dir string
}

// NewStore is the store in dir (absolute), which need not exist yet.
func NewStore(dir string) *Store { return &Store{dir: dir} }

// DefaultStateDir is where the hook keeps its state unless told
// otherwise: adrkit/hooks under the user's cache directory.
func DefaultStateDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the hook's state: %w", err)
	}
	return filepath.Join(dir, "adrkit", "hooks"), nil
}

// BuildID identifies the running adrkit for the keys of what the hook
// keeps: its version and its executable's size and modification time (a
// development build keeps its version while its rules change).
func BuildID(version string) string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	info, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return version + "/" + strconv.FormatInt(info.Size(), 10) + "/" + strconv.FormatInt(info.ModTime().UnixNano(), 10)
}

// shelfDir is the directory of a shelf's files.
func (s *Store) shelfDir(shelf ports.Shelf) string {
	switch shelf {
	case ports.ShelfIndex:
		return filepath.Join(s.dir, "index")
	case ports.ShelfAnswer:
		return filepath.Join(s.dir, "answers")
	}
	return s.dir
}

// Get implements ports.HookStore.
func (s *Store) Get(shelf ports.Shelf, key string) ([]byte, bool) {
	if !ports.ValidKey(key) {
		return nil, false
	}
	f, err := os.Open(filepath.Join(s.shelfDir(shelf), key))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, ports.MaxHookValue+1))
	if err != nil || len(data) > ports.MaxHookValue {
		return nil, false
	}
	return data, true
}

// Put implements ports.HookStore. A shelf's directory that is a symbolic
// link is refused: it could lead anywhere, the repository included.
func (s *Store) Put(shelf ports.Shelf, key string, value []byte) error {
	if !ports.ValidKey(key) {
		return fmt.Errorf("keeping hook state: %q is not a key", key)
	}
	if len(value) > ports.MaxHookValue {
		return fmt.Errorf("keeping hook state: %d bytes, more than %d", len(value), ports.MaxHookValue)
	}
	dir := s.shelfDir(shelf)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("keeping hook state: %w", err)
	}
	if info, err := os.Lstat(dir); err != nil || !info.IsDir() {
		return fmt.Errorf("keeping hook state: %s is not a directory", filepath.Base(dir))
	}
	if err := writeAtomic(dir, key, value); err != nil {
		return fmt.Errorf("keeping hook state: %w", err)
	}
	prune(dir, shelf.Bound(), key)
	return nil
}

// writeAtomic writes data to dir/name through a temporary file renamed
// over it, so that a concurrent reader sees the old bytes or the new.
func writeAtomic(dir, name string, data []byte) error {
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return nil
}

// prune removes the least recently written files of dir past max (by
// modification time, oldest first; ties by name), never keep: the value
// just written, whose time may tie with all the others'. Failures are
// ignored: the next run tries again.
func prune(dir string, max int, keep string) {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) <= max {
		return
	}
	type aged struct {
		name string
		mod  int64
	}
	var files []aged
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		files = append(files, aged{e.Name(), info.ModTime().UnixNano()})
	}
	slices.SortFunc(files, func(a, b aged) int {
		if a.mod != b.mod {
			if a.mod < b.mod {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	over := len(files) - max
	for _, f := range files {
		if over <= 0 {
			break
		}
		if f.name != keep {
			_ = os.Remove(filepath.Join(dir, f.name))
			over--
		}
	}
}

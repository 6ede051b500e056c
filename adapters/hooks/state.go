package hooks

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The bounds of the state kept between hook runs: the keys remembered
// per session (the oldest are forgotten first) and the sessions kept
// (the least recently written are removed first).
const (
	MaxKeys     = 1024
	MaxSessions = 256
)

// Memory is what one session was already told: the keys of the blocks
// (Block.Key) given to it. It lives in one small file per session, in a
// directory outside the repository; every failure to read or write it is
// the caller's to ignore (a hook that cannot remember repeats itself,
// and that is all).
type Memory struct {
	file string
	keys []string
	has  map[string]bool
	// dirty says Save has something to write.
	dirty bool
}

// DefaultStateDir is where the memories are kept unless the command is
// told otherwise: adrkit/hooks under the user's cache directory.
func DefaultStateDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the session memory: %w", err)
	}
	return filepath.Join(dir, "adrkit", "hooks"), nil
}

// sessionFile is the file of session in dir, named by a hash of its id
// (an id is the host's, of any length and any bytes).
func sessionFile(dir, session string) string {
	sum := sha256.Sum256([]byte(session))
	return filepath.Join(dir, hex.EncodeToString(sum[:16]))
}

// OpenMemory reads the memory of session from dir. A memory that does
// not exist yet is empty; one that cannot be read is an error, with an
// empty Memory that can still be used.
func OpenMemory(dir, session string) (*Memory, error) {
	m := &Memory{file: sessionFile(dir, session), has: map[string]bool{}}
	data, err := os.ReadFile(m.file)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, fmt.Errorf("reading the session memory: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if k := strings.TrimSpace(sc.Text()); k != "" && !m.has[k] {
			m.keys = append(m.keys, k)
			m.has[k] = true
		}
	}
	return m, nil
}

// Has reports whether the session was given key.
func (m *Memory) Has(key string) bool { return m.has[key] }

// Add remembers key, forgetting the oldest past MaxKeys.
func (m *Memory) Add(key string) {
	if m.has[key] {
		return
	}
	m.keys = append(m.keys, key)
	m.has[key] = true
	m.dirty = true
	if over := len(m.keys) - MaxKeys; over > 0 {
		for _, k := range m.keys[:over] {
			delete(m.has, k)
		}
		m.keys = slices.Clone(m.keys[over:])
	}
}

// Save writes the memory, whole, through a temporary file renamed over
// the old one, so that a concurrent reader sees the old memory or the
// new, never half of one; then it removes the least recently written
// sessions past MaxSessions.
func (m *Memory) Save() error {
	if !m.dirty {
		return nil
	}
	dir := filepath.Dir(m.file)
	if err := writeAtomic(dir, filepath.Base(m.file), []byte(strings.Join(m.keys, "\n")+"\n")); err != nil {
		return fmt.Errorf("writing the session memory: %w", err)
	}
	m.dirty = false
	prune(dir, MaxSessions)
	return nil
}

// Forget removes the memory of session: after a clear or a compaction
// the model no longer holds what it was told.
func Forget(dir, session string) error {
	err := os.Remove(sessionFile(dir, session))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("forgetting the session memory: %w", err)
	}
	return nil
}

// prune removes the least recently written files of dir past max (by
// modification time, oldest first; ties by name). Failures are ignored:
// the next run tries again.
func prune(dir string, max int) {
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
		if err != nil || !info.Mode().IsRegular() || isTemp(e.Name()) {
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
	for len(files) > max {
		_ = os.Remove(filepath.Join(dir, files[0].name))
		files = files[1:]
	}
}

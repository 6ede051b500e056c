package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/linktest"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/hookstoretest"
)

func TestStoreConformance(t *testing.T) {
	hookstoretest.Run(t, func(t *testing.T) ports.HookStore {
		return NewStore(filepath.Join(t.TempDir(), "nested", "hooks"))
	})
}

// Past a shelf's bound the least recently written files go, and
// nothing but the values is left behind.
func TestStorePrunesOldest(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(dir)
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	bound := ports.ShelfSession.Bound()
	for i := range bound + 5 {
		key := fmt.Sprintf("%04x", i)
		if err := s.Put(ports.ShelfSession, key, []byte("k\n")); err != nil {
			t.Fatal(err)
		}
		at := old.Add(time.Duration(i) * time.Minute)
		_ = os.Chtimes(filepath.Join(dir, key), at, at)
	}
	if err := s.Put(ports.ShelfSession, "ffff", []byte("new")); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != bound {
		t.Fatalf("%d sessions kept, want %d", len(entries), bound)
	}
	for i, want := range map[int]bool{0: false, 5: false, 6: true, bound + 4: true} {
		if _, ok := s.Get(ports.ShelfSession, fmt.Sprintf("%04x", i)); ok != want {
			t.Errorf("session %d kept: %v, want %v", i, ok, want)
		}
	}
}

// A shelf's directory that is a symbolic link is not written through,
// and a store under a regular file fails to write, without a panic.
func TestStoreRefuses(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	linktest.Make(t, elsewhere, filepath.Join(dir, "answers"))
	s := NewStore(dir)
	if err := s.Put(ports.ShelfAnswer, "ab", []byte("x")); err == nil {
		t.Fatal("wrote through a linked shelf")
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("%d files written through the link", len(entries))
	}
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := NewStore(filepath.Join(file, "hooks")).Put(ports.ShelfSession, "ab", []byte("x")); err == nil {
		t.Fatal("wrote under a regular file")
	}
}

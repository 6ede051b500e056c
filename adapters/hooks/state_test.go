package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestMemoryRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "hooks")
	m, err := OpenMemory(dir, "session one")
	if err != nil || m.Has("a") {
		t.Fatalf("a new memory: %v, has a: %v", err, m.Has("a"))
	}
	m.Add("a")
	m.Add("b")
	m.Add("a")
	if err := m.Save(); err != nil {
		t.Fatal(err)
	}
	again, err := OpenMemory(dir, "session one")
	if err != nil || !again.Has("a") || !again.Has("b") || again.Has("c") {
		t.Fatalf("reopened: %v, a %v b %v c %v", err, again.Has("a"), again.Has("b"), again.Has("c"))
	}
	other, _ := OpenMemory(dir, "session two")
	if other.Has("a") {
		t.Fatal("another session shares the memory")
	}
	if err := Forget(dir, "session one"); err != nil {
		t.Fatal(err)
	}
	if m, _ := OpenMemory(dir, "session one"); m.Has("a") {
		t.Fatal("forgotten, yet remembered")
	}
	if err := Forget(dir, "never seen"); err != nil {
		t.Fatalf("forgetting nothing: %v", err)
	}
	// Nothing but the session files is left behind.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name()[0] == '.' {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// The memory keeps the newest MaxKeys keys.
func TestMemoryBound(t *testing.T) {
	dir := t.TempDir()
	m, _ := OpenMemory(dir, "s")
	for i := range MaxKeys + 10 {
		m.Add(fmt.Sprint(i))
	}
	if err := m.Save(); err != nil {
		t.Fatal(err)
	}
	m, _ = OpenMemory(dir, "s")
	if m.Has("0") || m.Has("9") || !m.Has("10") || !m.Has(fmt.Sprint(MaxKeys+9)) || len(m.keys) != MaxKeys {
		t.Fatalf("kept %d keys; 0 %v, 10 %v", len(m.keys), m.Has("0"), m.Has("10"))
	}
}

// Past MaxSessions, the least recently written sessions are removed.
func TestMemoryPrunesSessions(t *testing.T) {
	dir := t.TempDir()
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range MaxSessions + 5 {
		f := sessionFile(dir, fmt.Sprint("old", i))
		if err := os.WriteFile(f, []byte("k\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_ = os.Chtimes(f, old.Add(time.Duration(i)*time.Minute), old.Add(time.Duration(i)*time.Minute))
	}
	m, _ := OpenMemory(dir, "new")
	m.Add("k")
	if err := m.Save(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != MaxSessions {
		t.Fatalf("%d sessions kept, want %d", len(entries), MaxSessions)
	}
	if _, err := os.Stat(sessionFile(dir, "new")); err != nil {
		t.Fatal("the session just written was removed")
	}
	if _, err := os.Stat(sessionFile(dir, "old0")); err == nil {
		t.Fatal("the oldest session was kept")
	}
}

// A memory that cannot be written is an error to ignore, never a panic.
func TestMemoryUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	m, _ := OpenMemory(filepath.Join(file, "hooks"), "s")
	m.Add("k")
	if err := m.Save(); err == nil {
		t.Fatal("saved under a regular file")
	}
}

// Package memhookstore is an in-memory ports.HookStore, held to the same
// conformance suite as the hook's directory (ports/hookstoretest), for
// tests of app.Hook that need a store without a file system. It counts
// the values put (Puts).
package memhookstore

import (
	"fmt"
	"slices"
	"sync"

	"github.com/adrkit/adrkit-go/ports"
)

// Store is an in-memory HookStore; the zero value is empty and ready.
// It is safe for concurrent use.
type Store struct {
	mu     sync.Mutex
	values map[slot][]byte
	// order lists each shelf's keys, least recently written first.
	order map[ports.Shelf][]string
	puts  int
}

type slot struct {
	shelf ports.Shelf
	key   string
}

// Get implements ports.HookStore.
func (s *Store) Get(shelf ports.Shelf, key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.values[slot{shelf, key}]
	return slices.Clone(v), ok
}

// Put implements ports.HookStore.
func (s *Store) Put(shelf ports.Shelf, key string, value []byte) error {
	if !ports.ValidKey(key) || len(value) > ports.MaxHookValue {
		return fmt.Errorf("memhookstore: refused a value of %d bytes under %q", len(value), key)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.puts++
	if s.values == nil {
		s.values, s.order = map[slot][]byte{}, map[ports.Shelf][]string{}
	}
	s.values[slot{shelf, key}] = append([]byte{}, value...)
	keys := append(slices.DeleteFunc(s.order[shelf], func(k string) bool { return k == key }), key)
	for len(keys) > shelf.Bound() {
		delete(s.values, slot{shelf, keys[0]})
		keys = keys[1:]
	}
	s.order[shelf] = keys
	return nil
}

// Puts counts the values put so far.
func (s *Store) Puts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.puts
}

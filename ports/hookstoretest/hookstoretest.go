// Package hookstoretest is the conformance suite every ports.HookStore
// must pass (adapters/hooks' directory, ports/memhookstore), in the
// manner of corpustest: what app.Hook relies on and cannot check itself.
package hookstoretest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/ports"
)

// Run checks the contract of ports.HookStore against stores made by
// open, a new empty store for every subtest.
func Run(t *testing.T, open func(t *testing.T) ports.HookStore) {
	shelves := []ports.Shelf{ports.ShelfIndex, ports.ShelfAnswer, ports.ShelfSession}

	t.Run("put, get, replace", func(t *testing.T) {
		s := open(t)
		if _, ok := s.Get(ports.ShelfAnswer, "ab"); ok {
			t.Fatal("a value in an empty store")
		}
		value := []byte("first")
		if err := s.Put(ports.ShelfAnswer, "ab", value); err != nil {
			t.Fatal(err)
		}
		value[0] = 'X' // the store keeps its own copy
		if got, ok := s.Get(ports.ShelfAnswer, "ab"); !ok || string(got) != "first" {
			t.Fatalf("Get = %q, %v", got, ok)
		}
		if err := s.Put(ports.ShelfAnswer, "ab", []byte("second")); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Get(ports.ShelfAnswer, "ab"); string(got) != "second" {
			t.Fatalf("after a replacement Get = %q", got)
		}
		if err := s.Put(ports.ShelfAnswer, "ac", nil); err != nil {
			t.Fatal(err)
		}
		if got, ok := s.Get(ports.ShelfAnswer, "ac"); !ok || len(got) != 0 {
			t.Fatalf("an empty value: %q, %v", got, ok)
		}
	})

	t.Run("shelves are apart", func(t *testing.T) {
		s := open(t)
		for i, sh := range shelves {
			if err := s.Put(sh, "0f", []byte{byte(i)}); err != nil {
				t.Fatal(err)
			}
		}
		for i, sh := range shelves {
			if got, ok := s.Get(sh, "0f"); !ok || !bytes.Equal(got, []byte{byte(i)}) {
				t.Fatalf("shelf %d: %v, %v", sh, got, ok)
			}
		}
	})

	t.Run("keys", func(t *testing.T) {
		s := open(t)
		for _, bad := range []string{"", "AB", "../ab", "a/b", "ab\x00", ".ab", "zz", strings.Repeat("a", 65), "a b"} {
			if err := s.Put(ports.ShelfSession, bad, []byte("x")); err == nil {
				t.Errorf("Put under %q: no error", bad)
			}
			if _, ok := s.Get(ports.ShelfSession, bad); ok {
				t.Errorf("Get under %q found a value", bad)
			}
		}
		long := strings.Repeat("f", 64)
		if err := s.Put(ports.ShelfSession, long, []byte("x")); err != nil {
			t.Fatal(err)
		}
		if _, ok := s.Get(ports.ShelfSession, long); !ok {
			t.Fatal("a 64-digit key is not kept")
		}
	})

	t.Run("a value past the bound is refused", func(t *testing.T) {
		s := open(t)
		if err := s.Put(ports.ShelfIndex, "aa", make([]byte, ports.MaxHookValue+1)); err == nil {
			t.Fatal("no error")
		}
		if _, ok := s.Get(ports.ShelfIndex, "aa"); ok {
			t.Fatal("the refused value was kept")
		}
	})

	t.Run("bounded", func(t *testing.T) {
		s := open(t)
		sh := ports.ShelfIndex
		n := sh.Bound() + 5
		for i := range n {
			key := fmt.Sprintf("%02x", i)
			if err := s.Put(sh, key, []byte(key)); err != nil {
				t.Fatal(err)
			}
			// The value just put is never the one removed.
			if got, ok := s.Get(sh, key); !ok || string(got) != key {
				t.Fatalf("value %d was removed as it was put", i)
			}
		}
		kept := 0
		for i := range n {
			if _, ok := s.Get(sh, fmt.Sprintf("%02x", i)); ok {
				kept++
			}
		}
		if kept > sh.Bound() {
			t.Fatalf("%d values kept, more than the bound %d", kept, sh.Bound())
		}
		if kept == 0 {
			t.Fatal("nothing kept")
		}
	})
}

package gitrev

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/corpus"
)

// TestObjectFilesClosed: reading records and heads leaves no object file
// open. A descriptor left open per blob (go-git's EncodedObjectSize does
// that for a loose object) piles up in a long-running server and, on
// Windows, keeps git gc from pruning the object; /proc shows it here.
func TestObjectFilesClosed(t *testing.T) {
	h := newHistory(t, false)
	c := mustOpen(t, New(h.Root(), "docs/adr", "main"))
	for _, n := range upTo(4) {
		if _, err := c.Read(context.Background(), n, corpus.MaxRecordBytes, nil); err != nil {
			t.Fatal(err)
		}
	}
	heads := NewHeads(h.Root(), "main")
	for _, n := range upTo(4) {
		if _, err := heads.ReadHead(context.Background(), "docs/adr/"+n); err != nil {
			t.Fatal(err)
		}
	}
	objects := filepath.Join(h.GitDir(), "objects") + string(filepath.Separator)
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(target, objects) {
			t.Errorf("descriptor %s is still open on %s", fd.Name(), target)
		}
	}
}

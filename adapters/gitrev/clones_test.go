package gitrev

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// The tests in this file let git itself produce the repositories CI jobs
// meet, which go-git cannot build: packed objects, a shallow clone and a
// blob-less partial clone. They are skipped when git is not installed.

// sizedHistory is a history whose HEAD also holds a record over the cap.
func sizedHistory(t *testing.T) *history {
	t.Helper()
	h := newHistory(t, false)
	h.CommitOn("main", "big\n", append(filesOf(4), reg("docs/adr/0010-big.md", strings.Repeat("b", corpus.MaxRecordBytes+1)))...)
	return h
}

func TestPackedRepository(t *testing.T) {
	h := sizedHistory(t)
	runGit(t, h.Root(), "gc", "--quiet", "--prune=now")
	if packs, _ := filepath.Glob(filepath.Join(h.GitDir(), "objects", "pack", "*.pack")); len(packs) == 0 {
		t.Fatal("git gc left no pack")
	}
	if _, err := os.Stat(h.ObjectFile(h.c[4])); err == nil {
		t.Fatal("git gc left the objects loose")
	}
	c := mustOpen(t, New(h.Root(), "docs/adr", "v2.0.0~1"))
	equalNames(t, "v2.0.0~1", names(t, c, false), upTo(2))
	got, err := c.Read(context.Background(), "0002-r.md", corpus.MaxRecordBytes, nil)
	if err != nil || !bytes.Equal(got, recordText("0002")) {
		t.Errorf("Read = %q, %v", got, err)
	}
	c = mustOpen(t, New(h.Root(), "docs/adr", short(h.c[4])+"^"))
	equalNames(t, "short hash in a pack", names(t, c, false), upTo(3))

	c = mustOpen(t, New(h.Root(), "docs/adr", "HEAD"))
	_, err = c.Read(context.Background(), "0010-big.md", corpus.MaxRecordBytes, nil)
	if k := readKindOf(t, err); k != ports.ReadTooLarge {
		t.Errorf("Read(packed, over the cap): kind %d (%v), want ReadTooLarge", k, err)
	}
}

func TestShallowClone(t *testing.T) {
	h := sizedHistory(t)
	dst := filepath.Join(base(t), "shallow")
	runGit(t, filepath.Dir(dst), "clone", "--quiet", "--depth", "1", "--branch", "main", "file://"+h.Root(), dst)

	c := mustOpen(t, New(dst, "docs/adr", "HEAD"))
	equalNames(t, "HEAD of a shallow clone", names(t, c, false), append(upTo(4), "0010-big.md"))
	if _, err := c.Read(context.Background(), "0004-r.md", corpus.MaxRecordBytes, nil); err != nil {
		t.Errorf("Read: %v", err)
	}
	_, err := New(dst, "docs/adr", "HEAD~1").Open(context.Background())
	checkUnavailable(t, "Open(HEAD~1) past the shallow boundary", err, corpus.RootNotFound, "missing", "shallow")
	_, err = New(dst, "docs/adr", h.c[1].String()).Open(context.Background())
	checkUnavailable(t, "Open(a commit not fetched)", err, corpus.RootNotFound)
}

func TestBloblessPartialClone(t *testing.T) {
	h := newHistory(t, false)
	runGit(t, h.Root(), "config", "uploadpack.allowFilter", "true")
	dst := filepath.Join(base(t), "partial.git")
	runGit(t, filepath.Dir(dst), "clone", "--quiet", "--bare", "--filter=blob:none", "file://"+h.Root(), dst)

	// The trees are there, so the directory lists; the blobs are not, and
	// go-git cannot fetch them from the promisor remote, so every read
	// fails on its own with a cause that says so.
	c := mustOpen(t, New(dst, "docs/adr", "main"))
	es, err := c.List(context.Background(), true)
	if err != nil {
		t.Fatalf("List: %v (%v)", err, causeOf(err))
	}
	if len(es) != 4 {
		t.Errorf("listing %+v, want the four records", es)
	}
	_, err = c.Read(context.Background(), "0001-r.md", corpus.MaxRecordBytes, nil)
	if k := readKindOf(t, err); k != ports.ReadFailed {
		t.Fatalf("Read: kind %d (%v), want ReadFailed", k, err)
	}
	if !strings.Contains(err.Error(), "missing from the repository") {
		t.Errorf("cause %q does not say the blob is missing", err)
	}
}

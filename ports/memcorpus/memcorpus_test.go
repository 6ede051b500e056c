package memcorpus_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/corpustest"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

// TestConformance holds the in-memory reader to the suite every source
// passes. It has symlink and special entries and changes after opening,
// but no symlinked ADR directory.
func TestConformance(t *testing.T) {
	corpustest.RunConformance(t, func(t *testing.T) corpustest.Harness { return &harness{} })
}

type harness struct{ r *memcorpus.Reader }

func (*harness) Features() corpustest.Feature {
	return corpustest.Symlinks | corpustest.SpecialFiles
}

func (h *harness) MakeReader(t *testing.T, fx corpustest.Fixture) ports.CorpusReader {
	if fx.DirLink != "" {
		t.Fatal("a symlinked dir was requested although the feature is not declared")
	}
	h.r = memcorpus.New(fx.Dir)
	for _, e := range fx.Entries {
		switch e.Kind {
		case ports.KindSymlink:
			h.r.Symlink(e.Path)
		case ports.KindOther:
			h.r.Special(e.Path)
		default:
			h.r.WriteFile(e.Path, e.Content)
		}
	}
	return h.r
}

func (h *harness) Rewrite(_ *testing.T, path string, content []byte) { h.r.WriteFile(path, content) }

// TestFaults: a failure set for an operation is what it returns until
// cleared, and the reader counts what it was asked.
func TestFaults(t *testing.T) {
	ctx := context.Background()
	r := memcorpus.New("docs/adr")
	r.WriteFile("0001-a.md", []byte("a"))
	boom := errors.New("boom")
	r.FailOpen(boom)
	if _, err := r.Open(ctx); err != boom {
		t.Fatalf("Open: %v, want boom", err)
	}
	r.FailOpen(nil)
	v, err := r.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r.FailList(boom)
	if _, err := v.List(ctx, false); err != boom {
		t.Errorf("List: %v, want boom", err)
	}
	r.FailRead("0001-a.md", boom)
	if _, err := v.Read(ctx, "0001-a.md", 10, nil); err != boom {
		t.Errorf("Read: %v, want boom", err)
	}
	r.FailRead("0001-a.md", nil)
	if b, err := v.Read(ctx, "0001-a.md", 10, nil); err != nil || string(b) != "a" {
		t.Errorf("Read after clearing: %q %v", b, err)
	}
	r.FailVerify(boom)
	if err := v.Verify(ctx); err != boom {
		t.Errorf("Verify: %v, want boom", err)
	}
	if r.Opens() != 2 || !slices.Equal(r.Reads(), []string{"0001-a.md", "0001-a.md"}) {
		t.Errorf("opens %d, reads %q", r.Opens(), r.Reads())
	}
}

// TestLoad: a repository on disk becomes the same entries, and a
// repository that is not one becomes the reason Open reports.
func TestLoad(t *testing.T) {
	repo := fstest.MapFS{
		".git":                   {Mode: os.ModeDir},
		"docs/adr/0001-a.md":     {Data: []byte("a")},
		"docs/adr/sub/0002-b.md": {Data: []byte("b")},
		"docs/adr/0003-link.md":  {Mode: os.ModeSymlink, Data: []byte("0001-a.md")},
		"docs/file":              {Data: []byte("not a directory")},
	}
	r, err := memcorpus.Load(repo, "docs/adr")
	if err != nil {
		t.Fatal(err)
	}
	v, err := r.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	es, _ := v.List(context.Background(), true)
	var got []string
	for _, e := range es {
		got = append(got, e.Path+" "+filepath.Base(kind(e.Kind)))
	}
	want := []string{"docs/adr/0001-a.md regular", "docs/adr/0003-link.md symlink", "docs/adr/sub directory", "docs/adr/sub/0002-b.md regular"}
	if !slices.Equal(got, want) {
		t.Errorf("entries %q, want %q", got, want)
	}
	noGit := fstest.MapFS{"docs/adr/0001-a.md": {Data: []byte("a")}}
	for _, tc := range []struct {
		fsys fstest.MapFS
		dir  string
		want corpus.UnavailableReason
	}{
		{noGit, "docs/adr", corpus.RootNotGit},
		{repo, "docs/none", corpus.DirNotFound},
		{repo, "docs/file", corpus.DirNotDirectory},
	} {
		r, err := memcorpus.Load(tc.fsys, tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Open(context.Background())
		var ue *ports.UnavailableError
		if !errors.As(err, &ue) || ue.Reason != tc.want {
			t.Errorf("Load(%s): Open = %v, want %s", tc.dir, err, tc.want)
		}
	}
}

func kind(k ports.EntryKind) string {
	return [...]string{"regular", "symlink", "directory", "other"}[k]
}

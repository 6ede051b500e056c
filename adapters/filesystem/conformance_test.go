package filesystem_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/internal/fifotest"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/internal/linktest"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/corpustest"
)

func TestConformance(t *testing.T) {
	filesystem.EachDriver(t, func(t *testing.T) {
		corpustest.RunConformance(t, func(t *testing.T) corpustest.Harness { return &harness{} })
	})
}

// harness materialises fixtures as worktrees in t.TempDir(). A working
// tree can express every feature and can change after it is opened.
type harness struct {
	// dir is the real ADR directory of the last fixture, for Rewrite.
	dir string
}

var _ corpustest.Mutator = (*harness)(nil)

// Features are what a working tree can hold here: FIFOs where the system
// has them, and symlinks, which Windows lets only some users make.
func (h *harness) Features() corpustest.Feature {
	var f corpustest.Feature
	if fifotest.Supported() {
		f |= corpustest.SpecialFiles
	}
	if linktest.Supported() {
		f |= corpustest.Symlinks | corpustest.SymlinkedDir
	}
	return f
}

func (h *harness) MakeReader(t *testing.T, fx corpustest.Fixture) ports.CorpusReader {
	t.Helper()
	root := t.TempDir()
	gittest.MakeRoot(t, root, nil)
	h.dir = filepath.Join(root, filepath.FromSlash(fx.Dir))
	must(t, os.MkdirAll(h.dir, 0o755))
	for _, e := range fx.Entries {
		p := filepath.Join(h.dir, filepath.FromSlash(e.Path))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		switch e.Kind {
		case ports.KindRegular:
			must(t, os.WriteFile(p, e.Content, 0o644))
		case ports.KindSymlink:
			linktest.Make(t, e.Target, p)
		case ports.KindOther:
			fifotest.Make(t, p)
		default:
			t.Fatalf("fixture entry %q: kind %d cannot be made", e.Path, e.Kind)
		}
	}
	configured := fx.Dir
	if fx.DirLink != "" {
		link := filepath.Join(root, filepath.FromSlash(fx.DirLink))
		must(t, os.MkdirAll(filepath.Dir(link), 0o755))
		target, err := filepath.Rel(filepath.Dir(link), h.dir)
		must(t, err)
		linktest.Make(t, target, link)
		configured = fx.DirLink
	}
	return filesystem.New(root, configured)
}

// Rewrite replaces the file's content and moves its mtime on, so the
// change shows even within the file system's timestamp granularity.
func (h *harness) Rewrite(t *testing.T, path string, content []byte) {
	t.Helper()
	p := filepath.Join(h.dir, filepath.FromSlash(path))
	fi, err := os.Stat(p)
	must(t, err)
	must(t, os.WriteFile(p, content, 0o644))
	later := fi.ModTime().Add(time.Second)
	must(t, os.Chtimes(p, later, later))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

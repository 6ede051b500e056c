package filesystem_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/internal/fifotest"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/internal/linktest"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/headtest"
)

func TestHeadsConformance(t *testing.T) {
	filesystem.EachDriver(t, func(t *testing.T) { headtest.Run(t, headsHarness{}) })
}

// headsHarness materialises a fixture as a working tree, with a file just
// outside it for a link to point at.
type headsHarness struct{}

func (headsHarness) SpecialFiles() bool { return fifotest.Supported() }

func (headsHarness) Symlinks() bool { return linktest.Supported() }

func (headsHarness) MakeReader(t *testing.T, entries []headtest.Entry) ports.FileHeadReader {
	t.Helper()
	top := t.TempDir()
	root := filepath.Join(top, "repo")
	gittest.MakeRoot(t, root, nil)
	must(t, os.WriteFile(filepath.Join(top, "outside.ts"), []byte("// @adr 0012\n"), 0o644))
	for _, e := range entries {
		p := filepath.Join(root, filepath.FromSlash(e.Path))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		switch e.Kind {
		case headtest.File:
			must(t, os.WriteFile(p, []byte(e.Content), 0o644))
		case headtest.Symlink:
			linktest.Make(t, e.Target, p)
		case headtest.FIFO:
			fifotest.Make(t, p)
		}
	}
	return filesystem.NewHeads(root)
}

package gitrev

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/headtest"
)

func TestHeadsConformance(t *testing.T) {
	for _, bare := range []bool{false, true} {
		headtest.Run(t, headsHarness{bare: bare})
	}
}

// headsHarness commits a fixture as the only commit of a repository and
// reads it at HEAD. A tree cannot hold a FIFO.
type headsHarness struct{ bare bool }

func (headsHarness) SpecialFiles() bool { return false }

// Symlinks: a tree holds a link as a blob on every system.
func (headsHarness) Symlinks() bool { return true }

func (h headsHarness) MakeReader(t *testing.T, entries []headtest.Entry) ports.FileHeadReader {
	t.Helper()
	repo := initFunc(h.bare)(t, filepath.Join(base(t), "repo"))
	var files []file
	for _, e := range entries {
		switch e.Kind {
		case headtest.File:
			files = append(files, reg(e.Path, e.Content))
		case headtest.Symlink:
			files = append(files, link(e.Path, e.Target))
		default:
			t.Fatalf("entry %q cannot be committed", e.Path)
		}
	}
	repo.CommitOn("main", "fixture\n", files...)
	return NewHeads(repo.Root(), "HEAD")
}

// What only a tree has: a submodule, and a revision that does not
// resolve (every file is then unreadable, never an error).
func TestHeadsTreeOnly(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	repo.CommitOn("main", "fixture\n",
		reg("src/a.go", "// @adr 0001\n"),
		exe("bin/run.sh", "# @adr 0002\n"),
		gitlink("vendor/lib", "0123456789abcdef0123456789abcdef01234567"),
	)
	ctx := context.Background()
	h := NewHeads(repo.Root(), "HEAD")
	for path, want := range map[string]markers.State{
		"src/a.go":          markers.Scanned,
		"bin/run.sh":        markers.Scanned,
		"vendor/lib":        markers.Unreadable,
		"vendor/lib/x.go":   markers.Unreadable,
		"src/a.go/deeper.x": markers.Absent,
	} {
		if got, err := h.ReadHead(ctx, path); err != nil || got.State != want {
			t.Errorf("%s: %s, %v; want %s", path, got.State, err, want)
		}
	}
	bad := NewHeads(repo.Root(), "no-such-branch")
	if got, err := bad.ReadHead(ctx, "src/a.go"); err != nil || got.State != markers.Unreadable {
		t.Errorf("an unresolvable revision: %s, %v", got.State, err)
	}
}

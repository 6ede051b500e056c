package gitrev

import (
	"path"
	"path/filepath"
	"testing"

	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/corpustest"
)

func TestConformance(t *testing.T) {
	for _, bare := range []bool{false, true} {
		name := "worktree"
		if bare {
			name = "bare"
		}
		t.Run(name, func(t *testing.T) {
			corpustest.RunConformance(t, func(t *testing.T) corpustest.Harness { return harness{bare: bare} })
		})
	}
}

// harness commits each fixture as the only commit of a fresh repository
// and reads it at HEAD. A tree can hold symlinks (mode 120000), so both a
// symlink entry and a symlinked ADR directory can be expressed; it cannot
// hold a FIFO, and a commit never changes, so there is no Mutator.
type harness struct{ bare bool }

func (harness) Features() corpustest.Feature {
	return corpustest.Symlinks | corpustest.SymlinkedDir
}

func (h harness) MakeReader(t *testing.T, fx corpustest.Fixture) ports.CorpusReader {
	t.Helper()
	repo := initFunc(h.bare)(t, filepath.Join(base(t), "repo"))
	var files []file
	for _, e := range fx.Entries {
		p := path.Join(fx.Dir, e.Path)
		switch e.Kind {
		case ports.KindRegular:
			files = append(files, reg(p, string(e.Content)))
		case ports.KindSymlink:
			files = append(files, link(p, e.Target))
		default:
			t.Fatalf("fixture entry %q: kind %d cannot be committed", e.Path, e.Kind)
		}
	}
	configured := fx.Dir
	if fx.DirLink != "" {
		target, err := filepath.Rel(path.Dir(fx.DirLink), fx.Dir)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, link(fx.DirLink, filepath.ToSlash(target)))
		configured = fx.DirLink
	}
	repo.CommitOn("main", "fixture\n", files...)
	return New(repo.Root(), configured, "HEAD")
}

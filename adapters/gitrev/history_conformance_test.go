package gitrev

import (
	"path"
	"path/filepath"
	"slices"
	"testing"

	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/historytest"
)

// TestHistoryConformance holds History to the suite every history passes,
// in a repository with a working tree and in a bare one.
func TestHistoryConformance(t *testing.T) {
	for _, bare := range []bool{false, true} {
		t.Run(map[bool]string{false: "worktree", true: "bare"}[bare], func(t *testing.T) {
			historytest.RunConformance(t, func(t *testing.T) historytest.Harness { return historyHarness{bare} })
		})
	}
}

type historyHarness struct{ bare bool }

func (h historyHarness) MakeReader(t *testing.T, fx historytest.Fixture) ports.HistoryReader {
	repo := initFunc(h.bare)(t, filepath.Join(base(t), "repo"))
	for i, c := range fx.Commits {
		files := []file{reg("README.md", "A repository.\n")}
		names := make([]string, 0, len(c.Files))
		for name := range c.Files {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			files = append(files, reg(path.Join(fx.Dir, name), c.Files[name]))
		}
		repo.CommitOn("main", "commit "+string(rune('a'+i))+"\n", files...)
	}
	return NewHistory(repo.Root(), fx.Dir, "HEAD")
}

package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/internal/linktest"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/writertest"
)

// materialise makes entries under dir: files, empty directories and
// links (which the suite asks for where linktest.Supported).
func materialise(t *testing.T, dir string, entries []writertest.Entry) {
	t.Helper()
	for _, e := range entries {
		full := filepath.Join(dir, filepath.FromSlash(e.Path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case e.Dir:
			mkdirs(t, dir, e.Path)
		case e.Link != "":
			linktest.Make(t, filepath.FromSlash(e.Link), full)
		default:
			write(t, full, e.Content)
		}
	}
}

func TestFolderConformance(t *testing.T) {
	writertest.RunFolder(t, linktest.Supported(), func(t *testing.T, entries []writertest.Entry) ports.FolderWriter {
		root := t.TempDir()
		mkdirs(t, root, "docs/adr")
		materialise(t, filepath.Join(root, "docs", "adr"), entries)
		f, err := OpenFolder(root, "docs/adr")
		if err != nil {
			t.Fatal(err)
		}
		return f
	})
}

// TestRepoConformance: the fixture's files are committed before its
// links are made, as git's index holds only regular files for
// TrackedFiles anyway.
func TestRepoConformance(t *testing.T) {
	writertest.RunRepo(t, linktest.Supported(), func(t *testing.T, entries []writertest.Entry) ports.RepoFiles {
		w := gittest.NewWorktree(t, filepath.Join(t.TempDir(), "repo"))
		var files, links []writertest.Entry
		for _, e := range entries {
			if e.Link != "" {
				links = append(links, e)
			} else {
				files = append(files, e)
			}
		}
		materialise(t, w.Root(), files)
		w.Commit("fixture")
		materialise(t, w.Root(), links)
		f, err := OpenRepoFiles(w.Root())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = f.Close() })
		return f
	})
}

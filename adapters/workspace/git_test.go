package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

// TestBranchNamesAndDates: the names on every local and remote-tracking
// branch (not on tags), and each name's first date on HEAD's history,
// from the main worktree and from a linked one alike.
func TestBranchNamesAndDates(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	r := gittest.Init(t, root)
	day := func(d int) time.Time { return time.Date(2026, 3, d, 12, 0, 0, 0, time.UTC) }
	first := r.Commit(plumbing.ZeroHash, "first", day(1), map[string]string{"docs/adr/0001-a.md": "a"})
	second := r.Commit(first, "second", day(5), map[string]string{"docs/adr/0001-a.md": "a", "docs/adr/0002-b.md": "b"})
	side := r.Commit(first, "side", day(3), map[string]string{"docs/adr/0003-side.md": "s"})
	remote := r.Commit(first, "remote", day(4), map[string]string{"docs/adr/0009-remote.md": "r"})
	tagged := r.Commit(first, "tagged", day(6), map[string]string{"docs/adr/0050-tag.md": "t"})
	r.SetRef(plumbing.NewBranchReferenceName("main"), second)
	r.SetRef(plumbing.NewBranchReferenceName("side"), side)
	r.SetRef(plumbing.NewRemoteReferenceName("origin", "other"), remote)
	r.SetRef(plumbing.NewTagReferenceName("v1"), tagged)
	if err := os.MkdirAll(filepath.Join(root, "docs", "adr"), 0o755); err != nil {
		t.Fatal(err)
	}

	check := func(t *testing.T, root string) {
		t.Helper()
		f, err := OpenFolder(root, "docs/adr")
		if err != nil {
			t.Fatal(err)
		}
		names, err := f.BranchNames()
		if want := []string{"0001-a.md", "0002-b.md", "0003-side.md", "0009-remote.md"}; err != nil || !slices.Equal(names, want) {
			t.Errorf("BranchNames: %v %q, want %q", err, names, want)
		}
		dates, err := f.FirstCommitDates()
		if err != nil || len(dates) != 2 || dates["0001-a.md"] != "2026-03-01" || dates["0002-b.md"] != "2026-03-05" {
			t.Errorf("FirstCommitDates: %v %v", err, dates)
		}
	}
	t.Run("main worktree", func(t *testing.T) { check(t, root) })
	t.Run("linked worktree", func(t *testing.T) {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("the git command is not installed; it is needed to build a linked worktree")
		}
		linked := filepath.Join(filepath.Dir(root), "linked")
		cmd := exec.Command("git", "worktree", "add", "-q", "--detach", linked, "main")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "LC_ALL=C")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git worktree add: %v\n%s", err, out)
		}
		check(t, linked)
	})
}

// Without a repository, or with a .git file that leads nowhere, there are
// no branches, no tracked files, and no dates to go by.
func TestNoRepository(t *testing.T) {
	for _, dotGit := range []string{"", "gitdir: /nonexistent/worktree\n"} {
		t.Run(strings.TrimSpace(dotGit), func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "repo")
			gittest.MakeRoot(t, root, map[string]string{"docs/adr/0001-a.md": "a"})
			if err := os.RemoveAll(filepath.Join(root, ".git")); err != nil {
				t.Fatal(err)
			}
			if dotGit != "" {
				if err := os.WriteFile(filepath.Join(root, ".git"), []byte(dotGit), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, err := OpenFolder(root, "docs/adr")
			if err != nil {
				t.Fatal(err)
			}
			if names, err := f.BranchNames(); err != nil || names != nil {
				t.Errorf("BranchNames: %v %q", err, names)
			}
			repo, err := OpenRepoFiles(root)
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			if files, err := repo.TrackedFiles(); err != nil || files != nil {
				t.Errorf("TrackedFiles: %v %q", err, files)
			}
			if _, err := f.FirstCommitDates(); err == nil || !strings.Contains(err.Error(), "repository does not exist") {
				t.Errorf("FirstCommitDates: %v", err)
			}
		})
	}
}

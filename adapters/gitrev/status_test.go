package gitrev

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	git "github.com/go-git/go-git/v5"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

// goGitStatus is what go-git's Worktree.Status, which Changes used before,
// reports as changed in the working tree at root: the reference the
// status cases are checked against.
func goGitStatus(t *testing.T, root string) []string {
	t.Helper()
	repo, err := git.PlainOpenWithOptions(root, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	st, err := wt.Status()
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for name, s := range st {
		if s.Staging != git.Unmodified || s.Worktree != git.Unmodified {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// changedSinceHead is what Changes reports since HEAD: the working tree's
// changes alone.
func changedSinceHead(t *testing.T, root string) []string {
	t.Helper()
	cs, err := Changes(context.Background(), root, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if !cs.Worktree {
		t.Error("the working tree was not read")
	}
	return append([]string{}, cs.Files...)
}

func TestWorkingTreeStatus(t *testing.T) {
	committed := map[string]string{
		"a.txt":          "a\n",
		"b.txt":          "b\n",
		"run.sh":         "#!/bin/sh\n",
		"dir/c.txt":      "c\n",
		".gitignore":     "*.log\nbuild/\n",
		"sub/.gitignore": "*.tmp\n",
	}
	tests := []struct {
		name   string
		change func(t *testing.T, w *gittest.Worktree)
		want   []string
		// goGitDiffers says why go-git's status gives another answer.
		goGitDiffers string
	}{
		{"clean", func(*testing.T, *gittest.Worktree) {}, []string{}, ""},
		{"modified", func(_ *testing.T, w *gittest.Worktree) { w.Write("a.txt", "edited\n") }, []string{"a.txt"}, ""},
		{"same size, other content", func(_ *testing.T, w *gittest.Worktree) { w.Write("a.txt", "z\n") }, []string{"a.txt"}, ""},
		{"staged", func(_ *testing.T, w *gittest.Worktree) {
			w.Write("new.txt", "new\n")
			w.Stage("new.txt")
		}, []string{"new.txt"}, ""},
		{"staged, then restored on disk", func(_ *testing.T, w *gittest.Worktree) {
			w.Write("a.txt", "staged\n")
			w.Stage("a.txt")
			w.Write("a.txt", "a\n")
		}, []string{"a.txt"}, ""},
		{"deleted", func(_ *testing.T, w *gittest.Worktree) { w.Remove("dir/c.txt") }, []string{"dir/c.txt"}, ""},
		{"deleted and staged", func(t *testing.T, w *gittest.Worktree) {
			if _, err := worktreeOf(t, w.Root()).Remove("b.txt"); err != nil {
				t.Fatal(err)
			}
		}, []string{"b.txt"}, ""},
		{"renamed and staged", func(t *testing.T, w *gittest.Worktree) {
			if _, err := worktreeOf(t, w.Root()).Move("b.txt", "dir/renamed.txt"); err != nil {
				t.Fatal(err)
			}
		}, []string{"b.txt", "dir/renamed.txt"}, ""},
		{"renamed on disk", func(t *testing.T, w *gittest.Worktree) {
			rename(t, w.Root(), "a.txt", "moved.txt")
		}, []string{"a.txt", "moved.txt"}, ""},
		{"untracked", func(_ *testing.T, w *gittest.Worktree) {
			w.Write("u.txt", "u\n")
			w.Write("newdir/x.txt", "x\n")
			w.Write("newdir/deeper/y.txt", "y\n")
		}, []string{"newdir/deeper/y.txt", "newdir/x.txt", "u.txt"}, ""},
		{"ignored by .gitignore", func(_ *testing.T, w *gittest.Worktree) {
			w.Write("debug.log", "ignored\n")
			w.Write("build/out.bin", "ignored\n")
			w.Write("sub/scratch.tmp", "ignored by sub/.gitignore\n")
			w.Write("scratch.tmp", "not ignored: the pattern is sub/'s\n")
		}, []string{"scratch.tmp"}, ""},
		{"ignored by info/exclude", func(t *testing.T, w *gittest.Worktree) {
			writeFile(t, filepath.Join(w.Root(), ".git", "info", "exclude"), []byte("secret*\n"))
			w.Write("secret.txt", "ignored\n")
			w.Write("public.txt", "shown\n")
		}, []string{"public.txt"}, "go-git v5.19.3 reads the ignore files through a filesystem that refuses every path under .git"},
		{"a tracked file the rules ignore", func(_ *testing.T, w *gittest.Worktree) { w.Write("keep.log", "edited\n") }, []string{"keep.log"}, ""},
		{"a deleted .gitignore", func(_ *testing.T, w *gittest.Worktree) {
			w.Remove(".gitignore")
			w.Write("now.log", "no longer ignored\n")
		}, []string{".gitignore", "now.log"}, ""},
		{"mode", func(t *testing.T, w *gittest.Worktree) {
			if err := os.Chmod(filepath.Join(w.Root(), "run.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, []string{"run.sh"}, ""},
		{"a symbolic link", func(t *testing.T, w *gittest.Worktree) {
			if err := os.Symlink("a.txt", filepath.Join(w.Root(), "link")); err != nil {
				t.Skip(err)
			}
		}, []string{"link"}, ""},
		{"a file becomes a directory", func(_ *testing.T, w *gittest.Worktree) {
			w.Remove("a.txt")
			w.Write("a.txt/inner.txt", "inner\n")
		}, []string{"a.txt", "a.txt/inner.txt"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := gittest.NewWorktree(t, filepath.Join(base(t), "repo"))
			for p, content := range committed {
				w.Write(p, content)
			}
			w.Write("keep.log", "a tracked file the ignore rules match\n")
			w.Stage("keep.log")
			w.Commit("first")
			tc.change(t, w)
			got := changedSinceHead(t, w.Root())
			if !slices.Equal(got, tc.want) {
				t.Errorf("changes %q, want %q", got, tc.want)
			}
			if ref := goGitStatus(t, w.Root()); tc.goGitDiffers == "" && !slices.Equal(got, ref) {
				t.Errorf("changes %q, go-git's status %q", got, ref)
			}
		})
	}
}

// worktreeOf is go-git's worktree at root, for the index operations
// gittest.Worktree does not offer.
func worktreeOf(t *testing.T, root string) *git.Worktree {
	t.Helper()
	repo, err := git.PlainOpen(root)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	return wt
}

func rename(t *testing.T, root, from, to string) {
	t.Helper()
	if err := os.Rename(filepath.Join(root, from), filepath.Join(root, to)); err != nil {
		t.Fatal(err)
	}
}

// A bare repository has no working tree: only commits are compared.
func TestChangesBare(t *testing.T) {
	h := newHistory(t, true)
	cs, err := Changes(context.Background(), h.Root(), "v1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"docs/adr/0002-r.md", "docs/adr/0003-r.md", "docs/adr/0004-r.md"}
	if cs.Worktree || !slices.Equal(cs.Files, want) {
		t.Errorf("worktree %v, files %q; want false, %q", cs.Worktree, cs.Files, want)
	}
}

// A linked worktree has its own index and files, and shares the
// repository's objects and references through its commondir.
func TestChangesLinkedWorktree(t *testing.T) {
	w := gittest.NewWorktree(t, filepath.Join(base(t), "repo"))
	w.Write("a.txt", "a\n")
	w.Write("docs/adr/0001-x.md", "x\n")
	w.Commit("first")
	w.Write("a.txt", "main's uncommitted edit\n")
	linked := filepath.Join(filepath.Dir(w.Root()), "linked")
	runGit(t, w.Root(), "worktree", "add", "-b", "side", linked, "HEAD")
	writeFile(t, filepath.Join(linked, "docs", "adr", "0002-y.md"), []byte("y\n"))
	runGit(t, linked, "add", "docs/adr/0002-y.md")
	writeFile(t, filepath.Join(linked, "untracked.txt"), []byte("u\n"))

	want := []string{"docs/adr/0002-y.md", "untracked.txt"}
	if got := changedSinceHead(t, linked); !slices.Equal(got, want) {
		t.Errorf("linked worktree: %q, want %q", got, want)
	}
	if got, ref := changedSinceHead(t, linked), goGitStatus(t, linked); !slices.Equal(got, ref) {
		t.Errorf("linked worktree: %q, go-git's status %q", got, ref)
	}
	if got, want := changedSinceHead(t, w.Root()), []string{"a.txt"}; !slices.Equal(got, want) {
		t.Errorf("main worktree: %q, want %q", got, want)
	}
}

// A submodule's directory is one gitlink, not a directory of untracked
// files, whether or not it is initialised.
func TestChangesSubmodule(t *testing.T) {
	root := filepath.Join(base(t), "repo")
	w := gittest.NewWorktree(t, root)
	w.Write("a.txt", "a\n")
	w.Commit("first")
	sub := filepath.Join(root, "lib")
	runGit(t, root, "init", "-q", "-b", "main", "lib")
	writeFile(t, filepath.Join(sub, "lib.go"), []byte("package lib\n"))
	runGit(t, sub, "add", "lib.go")
	runGit(t, sub, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "lib")
	w.Write(".gitmodules", "[submodule \"lib\"]\n\tpath = lib\n\turl = ./lib\n")
	runGit(t, root, "add", ".gitmodules", "lib")
	runGit(t, root, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "submodule")

	if got := changedSinceHead(t, root); len(got) != 0 {
		t.Errorf("a clean submodule: %q", got)
	}
	// Files inside the submodule belong to its repository.
	writeFile(t, filepath.Join(sub, "new.go"), []byte("package lib\n"))
	if got := changedSinceHead(t, root); len(got) != 0 {
		t.Errorf("a file in the submodule: %q", got)
	}
	if got, ref := changedSinceHead(t, root), goGitStatus(t, root); !slices.Equal(got, ref) {
		t.Errorf("%q, go-git's status %q", got, ref)
	}

	// Initialised (its repository under .git/modules) and moved to
	// another commit: the gitlink is changed.
	runGit(t, root, "submodule", "absorbgitdirs")
	runGit(t, root, "config", "submodule.lib.url", "./lib")
	runGit(t, sub, "add", "new.go")
	runGit(t, sub, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "more")
	if got, want := changedSinceHead(t, root), []string{"lib"}; !slices.Equal(got, want) {
		t.Errorf("a submodule at another commit: %q, want %q", got, want)
	}
	if got, ref := changedSinceHead(t, root), goGitStatus(t, root); !slices.Equal(got, ref) {
		t.Errorf("%q, go-git's status %q", got, ref)
	}
}

// A .gitmodules that is a symbolic link is refused, as go-git refuses it.
func TestChangesGitmodulesSymlink(t *testing.T) {
	w := gittest.NewWorktree(t, filepath.Join(base(t), "repo"))
	w.Write("a.txt", "a\n")
	w.Commit("first")
	if err := os.Symlink("a.txt", filepath.Join(w.Root(), ".gitmodules")); err != nil {
		t.Skip(err)
	}
	if _, err := Changes(context.Background(), w.Root(), "HEAD"); err == nil {
		t.Error("a symlinked .gitmodules was read")
	}
}

package gitrepo

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

// Open accepts and refuses what go-git's PlainOpenWithOptions (with
// EnableDotGitCommonDir), which it replaces, accepts and refuses, and
// finds the same HEAD and the same kind (bare or not).
func TestOpenAsGoGit(t *testing.T) {
	tests := []struct {
		name     string
		make     func(t *testing.T, dir string) string
		notExist bool
	}{
		{"worktree", func(t *testing.T, dir string) string {
			return committed(t, gittest.Init(t, filepath.Join(dir, "repo")))
		}, false},
		{"bare", func(t *testing.T, dir string) string {
			return committed(t, gittest.InitBare(t, filepath.Join(dir, "repo.git")))
		}, false},
		{"linked worktree", func(t *testing.T, dir string) string {
			main := committed(t, gittest.Init(t, filepath.Join(dir, "repo")))
			linked := filepath.Join(dir, "linked")
			runGit(t, main, "worktree", "add", "-q", "-b", "side", linked, "main")
			return linked
		}, false},
		{"a relative gitdir", func(t *testing.T, dir string) string {
			committed(t, gittest.Init(t, filepath.Join(dir, "elsewhere")))
			write(t, filepath.Join(dir, "wt", ".git"), "gitdir: ../elsewhere/.git\n")
			return filepath.Join(dir, "wt")
		}, false},
		{"a gitdir that is not there", func(t *testing.T, dir string) string {
			write(t, filepath.Join(dir, "wt", ".git"), "gitdir: /nonexistent/worktree\n")
			return filepath.Join(dir, "wt")
		}, true},
		{"a .git file without gitdir", func(t *testing.T, dir string) string {
			write(t, filepath.Join(dir, "wt", ".git"), "not a pointer\n")
			return filepath.Join(dir, "wt")
		}, false},
		{"an empty directory", func(t *testing.T, dir string) string { return dir }, true},
		{"an empty .git directory", func(t *testing.T, dir string) string {
			mkdir(t, filepath.Join(dir, "wt", ".git"))
			return filepath.Join(dir, "wt")
		}, true},
		{"a path that is not there", func(t *testing.T, dir string) string { return filepath.Join(dir, "missing") }, true},
		{"a file", func(t *testing.T, dir string) string {
			write(t, filepath.Join(dir, "file"), "x\n")
			return filepath.Join(dir, "file")
		}, false},
		{"no HEAD", func(t *testing.T, dir string) string {
			r := committed(t, gittest.Init(t, filepath.Join(dir, "repo")))
			if err := os.Remove(filepath.Join(r, ".git", "HEAD")); err != nil {
				t.Fatal(err)
			}
			return r
		}, true},
		{"format version 2", configured("[core]\n\trepositoryformatversion = 2\n"), false},
		{"format version 1, extension noop-v1", configured("[core]\n\trepositoryformatversion = 1\n[extensions]\n\tnoop-v1 = true\n"), false},
		{"format version 0, extension noop", configured("[core]\n\trepositoryformatversion = 0\n[extensions]\n\tnoop = true\n"), false},
		{"format version 0, extension noop-v1", configured("[core]\n\trepositoryformatversion = 0\n[extensions]\n\tnoop-v1 = true\n"), false},
		{"format version 0, extension partialClone", configured("[core]\n\trepositoryformatversion = 0\n[extensions]\n\tpartialClone = origin\n"), false},
		{"format version 1, extension objectFormat", configured("[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectFormat = sha256\n"), false},
		{"format version 1, extension worktreeConfig", configured("[core]\n\trepositoryformatversion = 1\n[extensions]\n\tworktreeConfig = true\n"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			path := tc.make(t, dir)
			want, wantErr := git.PlainOpenWithOptions(path, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
			got, err := Open(path)
			if (err == nil) != (wantErr == nil) {
				t.Fatalf("Open: %v; go-git: %v", err, wantErr)
			}
			if errors.Is(err, ErrNotExist) != tc.notExist || errors.Is(wantErr, git.ErrRepositoryNotExists) != tc.notExist {
				t.Errorf("Open: %v; go-git: %v; want a missing repository: %v", err, wantErr, tc.notExist)
			}
			if err != nil {
				return
			}
			_, bareErr := want.Worktree()
			if bare := got.Worktree == nil; bare != errors.Is(bareErr, git.ErrIsBareRepository) {
				t.Errorf("bare: %v; go-git: %v", bare, bareErr)
			}
			gotHead, err := got.Head()
			if err != nil {
				t.Fatal(err)
			}
			wantHead, err := want.Head()
			if err != nil {
				t.Fatal(err)
			}
			if gotHead.Name() != wantHead.Name() || gotHead.Hash() != wantHead.Hash() {
				t.Errorf("HEAD %s, go-git %s", gotHead, wantHead)
			}
			c, err := got.CommitObject(gotHead.Hash())
			if err != nil || c.Message != "first\n" {
				t.Errorf("HEAD's commit %v, %v", c, err)
			}
		})
	}
}

// committed gives r a commit on main and returns its root.
func committed(t *testing.T, r *gittest.Repo) string {
	t.Helper()
	r.CommitOn("main", "first\n", gittest.Regular("a.txt", "a\n"))
	return r.Root()
}

// configured makes a repository with a commit, whose config is cfg.
func configured(cfg string) func(t *testing.T, dir string) string {
	return func(t *testing.T, dir string) string {
		r := committed(t, gittest.Init(t, filepath.Join(dir, "repo")))
		write(t, filepath.Join(r, ".git", "config"), cfg)
		return r
	}
}

// The objects and references of a linked worktree are the main
// repository's; its HEAD is its own.
func TestOpenLinkedWorktreeShares(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := gittest.Init(t, filepath.Join(dir, "repo"))
	first := r.CommitOn("main", "first\n", gittest.Regular("a.txt", "a\n"))
	linked := filepath.Join(dir, "linked")
	runGit(t, r.Root(), "worktree", "add", "-q", "-b", "side", linked, "main")
	second := r.CommitOn("main", "second\n", gittest.Regular("a.txt", "b\n"))

	repo, err := Open(linked)
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Head()
	if err != nil || head.Name() != plumbing.NewBranchReferenceName("side") || head.Hash() != first {
		t.Errorf("HEAD %v, %v; want side at %s", head, err, first)
	}
	main, err := repo.Storer.Reference(plumbing.NewBranchReferenceName("main"))
	if err != nil || main.Hash() != second {
		t.Errorf("main %v, %v; want %s", main, err, second)
	}
	if _, err := repo.CommitObject(second); err != nil {
		t.Errorf("a commit made in the main worktree: %v", err)
	}
	if fi, err := repo.Worktree.Stat("a.txt"); err != nil || fi.Size() != 2 {
		t.Errorf("the linked worktree's file: %v, %v", fi, err)
	}
}

// A commondir that names a directory that is not there is refused.
func TestOpenMissingCommondir(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gitdir := filepath.Join(dir, "gitdir")
	write(t, filepath.Join(gitdir, "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(gitdir, "commondir"), "../gone\n")
	write(t, filepath.Join(dir, "wt", ".git"), "gitdir: "+gitdir+"\n")
	if _, err := Open(filepath.Join(dir, "wt")); err == nil || !strings.Contains(err.Error(), "common directory") {
		t.Errorf("Open: %v", err)
	}
}

func write(t *testing.T, p, content string) {
	t.Helper()
	mkdir(t, filepath.Dir(p))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

// runGit runs the git command line, for what go-git cannot build (a
// linked worktree), isolated from the user's and the system's
// configuration; it skips the test when git is not installed.
func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("the git command is not installed; it is needed to build a linked worktree")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "LC_ALL=C")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// The point of this package: no program of ours links go-git's root package
// or what it drags in (every transport, ssh and its configuration), whose
// initialisation each process would pay at start-up.
func TestBinariesLeaveOutGoGitRoot(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	cmd := exec.Command(goTool, "list", "-deps", "./cmd/adrkit", "./cmd/adrkit-mcp")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "github.com/go-git/go-git/v5" || strings.Contains(pkg, "/plumbing/transport") ||
			strings.HasPrefix(pkg, "golang.org/x/crypto/ssh") || strings.Contains(pkg, "ssh_config") || strings.Contains(pkg, "knownhosts") {
			t.Errorf("the programs link %s", pkg)
		}
	}
}

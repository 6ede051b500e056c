package filesystem

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports/corpustest"
)

func TestResolveRoots(t *testing.T) {
	tests := []struct {
		name string
		// setup builds the situation under b (a canonical temporary
		// directory) and returns the configured cwd and dir.
		setup func(t *testing.T, b string) (cwd, dir string)
		// deny lists paths (relative to b) whose access check fails.
		deny []string
		want corpus.UnavailableReason
		// wantWindows, when set, is the reason on Windows, where a path
		// through a file is "not found" (ERROR_PATH_NOT_FOUND), as
		// Node's realpath there says ENOENT.
		wantWindows corpus.UnavailableReason
		wantRoot    string // relative to b, when want is ""
		wantDir     string // relative to b, when want is ""
	}{
		{
			name:     "git directory",
			setup:    func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), "docs/adr" },
			wantRoot: "repo", wantDir: "repo/docs/adr",
		},
		{
			name: "git file pointing at a gitdir that does not exist (linked worktree)",
			setup: func(t *testing.T, b string) (string, string) {
				root := filepath.Join(b, "repo")
				copyRecords(t, filepath.Join(root, "architecture", "decisions"))
				write(t, filepath.Join(root, ".git"), []byte("gitdir: /nonexistent/main/.git/worktrees/gitfile\n"))
				return root, "architecture/decisions"
			},
			wantRoot: "repo", wantDir: "repo/architecture/decisions",
		},
		{
			name: "git file whose content is not a gitdir line",
			setup: func(t *testing.T, b string) (string, string) {
				root := filepath.Join(b, "repo")
				copyRecords(t, filepath.Join(root, "docs", "adr"))
				write(t, filepath.Join(root, ".git"), []byte("not a pointer\n"))
				return root, "docs/adr"
			},
			wantRoot: "repo", wantDir: "repo/docs/adr",
		},
		{
			name: "empty git directory",
			setup: func(t *testing.T, b string) (string, string) {
				root := filepath.Join(b, "repo")
				mkdir(t, filepath.Join(root, ".git"))
				mkdir(t, filepath.Join(root, "docs", "adr"))
				return root, "docs/adr"
			},
			wantRoot: "repo", wantDir: "repo/docs/adr",
		},
		{
			name: "git entry is a FIFO: accepted, never opened",
			setup: func(t *testing.T, b string) (string, string) {
				root := filepath.Join(b, "repo")
				mkfifo(t, filepath.Join(root, ".git"))
				mkdir(t, filepath.Join(root, "docs", "adr"))
				return root, "docs/adr"
			},
			wantRoot: "repo", wantDir: "repo/docs/adr",
		},
		{
			name: "git entry is a symlink to a directory",
			setup: func(t *testing.T, b string) (string, string) {
				root := filepath.Join(b, "repo")
				mkdir(t, filepath.Join(b, "gitdirs", "repo"))
				symlink(t, "../gitdirs/repo", filepath.Join(root, ".git"))
				mkdir(t, filepath.Join(root, "docs", "adr"))
				return root, "docs/adr"
			},
			wantRoot: "repo", wantDir: "repo/docs/adr",
		},
		{
			name: "root reached through a symlink is canonicalised",
			setup: func(t *testing.T, b string) (string, string) {
				newRoot(t, b, "repo")
				symlink(t, "repo", filepath.Join(b, "current"))
				return filepath.Join(b, "current"), "docs/adr"
			},
			wantRoot: "repo", wantDir: "repo/docs/adr",
		},
		{
			name:  "root missing",
			setup: func(t *testing.T, b string) (string, string) { return filepath.Join(b, "nope"), "docs/adr" },
			want:  corpus.RootNotFound,
		},
		{
			name:  "root empty",
			setup: func(t *testing.T, b string) (string, string) { return "", "docs/adr" },
			want:  corpus.RootNotFound,
		},
		{
			name: "root is a dangling symlink",
			setup: func(t *testing.T, b string) (string, string) {
				symlink(t, "nope", filepath.Join(b, "link"))
				return filepath.Join(b, "link"), "docs/adr"
			},
			want: corpus.RootNotFound,
		},
		{
			name: "root is a file",
			setup: func(t *testing.T, b string) (string, string) {
				write(t, filepath.Join(b, "a-file"), []byte("plain file\n"))
				return filepath.Join(b, "a-file"), ""
			},
			want: corpus.RootNotDirectory,
		},
		{
			name: "root below a file (ENOTDIR)",
			setup: func(t *testing.T, b string) (string, string) {
				write(t, filepath.Join(b, "a-file"), []byte("plain file\n"))
				return filepath.Join(b, "a-file", "sub"), "docs/adr"
			},
			want:        corpus.RootNotReadable,
			wantWindows: corpus.RootNotFound,
		},
		{
			name: "root is a symlink loop (ELOOP)",
			setup: func(t *testing.T, b string) (string, string) {
				symlink(t, "loop-b", filepath.Join(b, "loop-a"))
				symlink(t, "loop-a", filepath.Join(b, "loop-b"))
				return filepath.Join(b, "loop-a"), "docs/adr"
			},
			want: corpus.RootNotReadable,
		},
		{
			name:  "root not readable",
			setup: func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), "docs/adr" },
			deny:  []string{"repo"},
			want:  corpus.RootNotReadable,
		},
		{
			name: "no git entry",
			setup: func(t *testing.T, b string) (string, string) {
				mkdir(t, filepath.Join(b, "plain", "docs", "adr"))
				return filepath.Join(b, "plain"), "docs/adr"
			},
			want: corpus.RootNotGit,
		},
		{
			name: "no git entry, inside another repository",
			setup: func(t *testing.T, b string) (string, string) {
				outer := newRoot(t, b, "outer")
				mkdir(t, filepath.Join(outer, "inner", "docs", "adr"))
				return filepath.Join(outer, "inner"), "docs/adr"
			},
			want: corpus.RootNotGit,
		},
		{
			name: "git entry is a dangling symlink",
			setup: func(t *testing.T, b string) (string, string) {
				root := filepath.Join(b, "repo")
				symlink(t, "nowhere", filepath.Join(root, ".git"))
				mkdir(t, filepath.Join(root, "docs", "adr"))
				return root, "docs/adr"
			},
			want: corpus.RootNotGit,
		},
		{
			name:  "git entry not readable",
			setup: func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), "docs/adr" },
			deny:  []string{"repo/.git"},
			want:  corpus.RootNotGit,
		},
		{
			name:  "dir missing",
			setup: func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), "no-such-dir" },
			want:  corpus.DirNotFound,
		},
		{
			name:  "dir is a file",
			setup: func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), "docs/adr/" + rec1 },
			want:  corpus.DirNotDirectory,
		},
		{
			name:        "dir below a file (ENOTDIR)",
			setup:       func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), "docs/adr/" + rec1 + "/x" },
			want:        corpus.DirNotReadable,
			wantWindows: corpus.DirNotFound,
		},
		{
			name: "dir is a symlink loop (ELOOP)",
			setup: func(t *testing.T, b string) (string, string) {
				root := newRoot(t, b, "repo")
				symlink(t, "loop", filepath.Join(root, "loop"))
				return root, "loop"
			},
			want: corpus.DirNotReadable,
		},
		{
			name:  "dir not readable",
			setup: func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), "docs/adr" },
			deny:  []string{"repo/docs/adr"},
			want:  corpus.DirNotReadable,
		},
		{
			name: "dir absolute outside the root",
			setup: func(t *testing.T, b string) (string, string) {
				newRoot(t, b, "other")
				return newRoot(t, b, "repo"), filepath.Join(b, "other", "docs", "adr")
			},
			want: corpus.DirOutsideRoot,
		},
		{
			name: "dir absolute outside the root and missing: not found wins",
			setup: func(t *testing.T, b string) (string, string) {
				return newRoot(t, b, "repo"), filepath.Join(b, "elsewhere", "adr")
			},
			want: corpus.DirNotFound,
		},
		{
			name:  "dir .. escapes the root",
			setup: func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), ".." },
			want:  corpus.DirOutsideRoot,
		},
		{
			name:  "dir ../.. escapes the root",
			setup: func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), "../.." },
			want:  corpus.DirOutsideRoot,
		},
		{
			name: "dir symlink escapes the root",
			setup: func(t *testing.T, b string) (string, string) {
				root := filepath.Join(b, "escape")
				mkdir(t, filepath.Join(root, ".git"))
				mkdir(t, filepath.Join(b, "outside", "adr"))
				symlink(t, "../../outside/adr", filepath.Join(root, "docs", "adr"))
				return root, "docs/adr"
			},
			want: corpus.DirOutsideRoot,
		},
		{
			name: "dir in a string-prefix sibling of the root",
			setup: func(t *testing.T, b string) (string, string) {
				mkdir(t, filepath.Join(b, "repo-sibling", "docs", "adr"))
				return newRoot(t, b, "repo"), filepath.Join(b, "repo-sibling", "docs", "adr")
			},
			want: corpus.DirOutsideRoot,
		},
		{
			name: "dir symlink inside the root is canonicalised",
			setup: func(t *testing.T, b string) (string, string) {
				root := filepath.Join(b, "repo")
				mkdir(t, filepath.Join(root, ".git"))
				copyRecords(t, filepath.Join(root, "real", "adr"))
				symlink(t, "../real/adr", filepath.Join(root, "docs", "adr"))
				return root, "docs/adr"
			},
			wantRoot: "repo", wantDir: "repo/real/adr",
		},
		{
			name:     "dir empty is the root",
			setup:    func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), "" },
			wantRoot: "repo", wantDir: "repo",
		},
		{
			name:     "dir . is the root",
			setup:    func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), "." },
			wantRoot: "repo", wantDir: "repo",
		},
		{
			name:     "dir walking out and back in",
			setup:    func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), "docs/../docs/adr" },
			wantRoot: "repo", wantDir: "repo/docs/adr",
		},
		{
			name:     "dir .. back into the root by name",
			setup:    func(t *testing.T, b string) (string, string) { return newRoot(t, b, "repo"), "../repo/docs/adr" },
			wantRoot: "repo", wantDir: "repo/docs/adr",
		},
		{
			name: "dir absolute inside the root",
			setup: func(t *testing.T, b string) (string, string) {
				root := newRoot(t, b, "repo")
				return root, filepath.Join(root, "docs", "adr")
			},
			wantRoot: "repo", wantDir: "repo/docs/adr",
		},
		{
			name: "dir absolute through the root's symlink",
			setup: func(t *testing.T, b string) (string, string) {
				newRoot(t, b, "repo")
				symlink(t, "repo", filepath.Join(b, "current"))
				return filepath.Join(b, "current"), filepath.Join(b, "current", "docs", "adr")
			},
			wantRoot: "repo", wantDir: "repo/docs/adr",
		},
		{
			name: "dir absolute, .. resolved after its symlink like realpath(3)",
			setup: func(t *testing.T, b string) (string, string) {
				root := newRoot(t, b, "repo")
				mkdir(t, filepath.Join(b, "outside", "sub"))
				symlink(t, "../outside/sub", filepath.Join(root, "jump"))
				// jump/.. is <b>/outside physically, though lexically the root.
				// (Concatenated: filepath.Join would clean it lexically.)
				return root, root + "/jump/.."
			},
			want: corpus.DirOutsideRoot,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := base(t)
			cwd, dir := tc.setup(t, b)
			r := New(cwd, dir)
			var deny []string
			for _, d := range tc.deny {
				deny = append(deny, filepath.Join(b, d))
			}
			if deny != nil {
				denyAccess(r, deny...)
			}
			var c *view
			var err error
			noBlock(t, "Open", func() {
				var got any
				got, err = r.Open(context.Background())
				if err == nil {
					c = got.(*view)
				}
			})
			want := tc.want
			if tc.wantWindows != "" && runtime.GOOS == "windows" {
				want = tc.wantWindows
			}
			if got := corpustest.ReasonOf(t, err); got != want {
				t.Fatalf("Open: reason %q (%v), want %q", got, err, want)
			}
			if want != "" {
				return
			}
			if want := filepath.Join(b, tc.wantRoot); c.root != want {
				t.Errorf("canonical root %s, want %s", c.root, want)
			}
			if want := filepath.Join(b, tc.wantDir); c.dir != want {
				t.Errorf("canonical dir %s, want %s", c.dir, want)
			}
		})
	}
}

// TestResolveRootsPermissions uses real permission bits, which root
// ignores; the deny cases of TestResolveRoots cover the same reasons.
func TestResolveRootsPermissions(t *testing.T) {
	skipIfRoot(t)
	tests := []struct {
		name  string
		setup func(t *testing.T, root string) (cwd string)
		want  corpus.UnavailableReason
	}{
		{"root not searchable", func(t *testing.T, root string) string { chmod(t, root, 0o600); return root }, corpus.RootNotReadable},
		{"root not readable", func(t *testing.T, root string) string { chmod(t, root, 0o300); return root }, corpus.RootNotReadable},
		{"root's parent not searchable", func(t *testing.T, root string) string {
			chmod(t, filepath.Dir(root), 0o600)
			return root
		}, corpus.RootNotReadable},
		{"git entry not readable", func(t *testing.T, root string) string {
			chmod(t, filepath.Join(root, ".git"), 0o000)
			return root
		}, corpus.RootNotGit},
		{"dir not readable", func(t *testing.T, root string) string {
			chmod(t, filepath.Join(root, "docs", "adr"), 0o300)
			return root
		}, corpus.DirNotReadable},
		{"dir's parent not searchable", func(t *testing.T, root string) string {
			chmod(t, filepath.Join(root, "docs"), 0o600)
			return root
		}, corpus.DirNotReadable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := newRoot(t, filepath.Join(base(t), "parent"), "repo")
			cwd := tc.setup(t, root)
			err := New(cwd, "docs/adr").Check(context.Background())
			if got := corpustest.ReasonOf(t, err); got != tc.want {
				t.Errorf("Check: reason %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}

func TestNewMakesCwdAbsoluteLexically(t *testing.T) {
	b := base(t)
	newRoot(t, b, "repo")
	symlink(t, "repo", filepath.Join(b, "current"))
	t.Chdir(b)
	tests := []struct {
		cwd, want string
	}{
		{"current", filepath.Join(b, "current")}, // symlink kept, not resolved
		{"./current/", filepath.Join(b, "current")},
		{"repo/../current", filepath.Join(b, "current")},
		{".", b},
		{"", ""},
	}
	for _, tc := range tests {
		if got := New(tc.cwd, "docs/adr").cwd; got != tc.want {
			t.Errorf("New(%q).cwd = %q, want %q", tc.cwd, got, tc.want)
		}
	}
	// The process directory changing later does not move the root.
	r := New("current", "docs/adr")
	t.Chdir(t.TempDir())
	if err := r.Check(context.Background()); err != nil {
		t.Errorf("Check after chdir: %v", err)
	}
}

func TestNewDoesNoIO(t *testing.T) {
	// A root that does not exist is accepted at construction and only
	// reported when validated.
	r := New("/nonexistent/adrkit/root", "docs/adr")
	if got := corpustest.ReasonOf(t, r.Check(context.Background())); got != corpus.RootNotFound {
		t.Errorf("Check: reason %q, want %q", got, corpus.RootNotFound)
	}
}

func TestRootCapturedAtStartup(t *testing.T) {
	tests := []struct {
		name string
		// check says whether Check runs before the first Open.
		check bool
		// change alters the tree after the first validation; b is the
		// base directory, "current" the configured root symlink.
		change func(t *testing.T, b string)
		want   corpus.UnavailableReason
	}{
		{"unchanged", true, func(t *testing.T, b string) {}, ""},
		{"retargeted to another valid repository after Check", true, func(t *testing.T, b string) {
			replaceSymlink(t, "other", filepath.Join(b, "current"))
		}, corpus.RootNotFound},
		{"retargeted after the first Open (no Check)", false, func(t *testing.T, b string) {
			replaceSymlink(t, "other", filepath.Join(b, "current"))
		}, corpus.RootNotFound},
		{"symlink removed", true, func(t *testing.T, b string) { remove(t, filepath.Join(b, "current")) }, corpus.RootNotFound},
		{"retargeted to a directory that is no repository", true, func(t *testing.T, b string) {
			mkdir(t, filepath.Join(b, "plain", "docs", "adr"))
			replaceSymlink(t, "plain", filepath.Join(b, "current"))
		}, corpus.RootNotGit},
		{"git entry removed", true, func(t *testing.T, b string) { remove(t, filepath.Join(b, "repo", ".git")) }, corpus.RootNotGit},
		{"retargeted and back again", true, func(t *testing.T, b string) {
			replaceSymlink(t, "other", filepath.Join(b, "current"))
			replaceSymlink(t, "repo", filepath.Join(b, "current"))
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := base(t)
			newRoot(t, b, "repo")
			newRoot(t, b, "other")
			symlink(t, "repo", filepath.Join(b, "current"))
			r := New(filepath.Join(b, "current"), "docs/adr")
			if tc.check {
				if err := r.Check(context.Background()); err != nil {
					t.Fatalf("Check: %v", err)
				}
			} else {
				openView(t, r)
			}
			tc.change(t, b)
			_, err := r.Open(context.Background())
			if got := corpustest.ReasonOf(t, err); got != tc.want {
				t.Errorf("Open: reason %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}

func TestFailedCheckCapturesNothing(t *testing.T) {
	// A failed start may be retried: the root is captured by the first
	// validation that succeeds, not by one that failed half-way.
	b := base(t)
	newRoot(t, b, "repo")
	newRoot(t, b, "other")
	remove(t, filepath.Join(b, "repo", "docs"))
	symlink(t, "repo", filepath.Join(b, "current"))
	r := New(filepath.Join(b, "current"), "docs/adr")
	if got := corpustest.ReasonOf(t, r.Check(context.Background())); got != corpus.DirNotFound {
		t.Fatalf("first Check: reason %q, want %q", got, corpus.DirNotFound)
	}
	replaceSymlink(t, "other", filepath.Join(b, "current"))
	if err := r.Check(context.Background()); err != nil {
		t.Fatalf("second Check: %v", err)
	}
	if got := openView(t, r).root; got != filepath.Join(b, "other") {
		t.Errorf("root %s, want the other repository", got)
	}
}

func TestCheckHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := New(newRoot(t, base(t), "repo"), "docs/adr")
	if err := r.Check(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Check with a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := r.Open(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with a cancelled context: %v, want context.Canceled", err)
	}
}

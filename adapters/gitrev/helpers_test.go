package gitrev

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/corpustest"
)

// when is the fixed time of every signature, so that object ids (and the
// goldens that show them) are the same on every run.
var when = gittest.Epoch

// file is one tree entry a test commits; the constructors name the kinds.
type file = gittest.File

var (
	reg     = gittest.Regular
	link    = gittest.Symlink
	exe     = gittest.Executable
	gitlink = gittest.Gitlink
)

func record(p, id string) file { return reg(p, string(recordText(id))) }

// recordText is a small valid record.
func recordText(id string) []byte {
	return []byte("---\nschemaVersion: 0.1.0\nid: \"" + id + "\"\ntitle: Record " + id +
		"\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@adrkit-go\"]\n---\n\n# Record " + id + "\n\nBody.\n")
}

// base returns a fresh canonical temporary directory: tests compare
// canonical paths, and the temporary directory may sit behind a symlink.
func base(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// initFunc makes the repository of a test that runs over both kinds.
func initFunc(bare bool) func(testing.TB, string) *gittest.Repo {
	if bare {
		return gittest.InitBare
	}
	return gittest.Init
}

// writeFile writes b at p, making the directories on the way.
func writeFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeLooseObject replaces the loose object file of h by one holding the
// given header and content, compressed as git stores them, so a test can
// give an object a header that its content does not match.
func writeLooseObject(t *testing.T, p, header string, content []byte) {
	t.Helper()
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	if _, err := zw.Write(append([]byte(header+"\x00"), content...)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	// Loose objects are written read-only.
	if err := os.Chmod(p, 0o644); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	writeFile(t, p, buf.Bytes())
}

// runGit runs the git command line, for the shapes go-git cannot build (a
// linked worktree). It skips the test when git is not installed, and
// isolates git from the user's and the system's configuration.
func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("the git command is not installed; it is needed to build a linked worktree")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "LC_ALL=C")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// mustOpen opens r and returns the concrete view.
func mustOpen(t *testing.T, r *Reader) *view {
	t.Helper()
	c, err := r.Open(context.Background())
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return c.(*view)
}

// names lists c (recursively or not) and returns the entry names.
func names(t *testing.T, c ports.ADRDir, recursive bool) []string {
	t.Helper()
	es, err := c.List(context.Background(), recursive)
	if err != nil {
		t.Fatalf("List(recursive=%v): %v", recursive, err)
	}
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name
	}
	return out
}

// topNames opens r and returns the top-level names of its directory.
func topNames(t *testing.T, r *Reader) []string {
	t.Helper()
	return names(t, mustOpen(t, r), false)
}

// causeOf is the diagnostic cause of an *ports.UnavailableError.
func causeOf(err error) string {
	var ue *ports.UnavailableError
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err.Error()
	}
	return ""
}

// readKindOf returns the kind of a *ports.ReadError, -1 for nil, and fails
// the test for any other error.
func readKindOf(t *testing.T, err error) ports.ReadErrorKind {
	t.Helper()
	if err == nil {
		return -1
	}
	var re *ports.ReadError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T) is not a *ports.ReadError", err, err)
	}
	return re.Kind
}

// checkUnavailable requires err to carry reason want and a cause that
// holds every fragment.
func checkUnavailable(t *testing.T, what string, err error, want corpus.UnavailableReason, fragments ...string) {
	t.Helper()
	if got := corpustest.ReasonOf(t, err); got != want {
		t.Fatalf("%s: reason %q (%v), want %q", what, got, causeOf(err), want)
	}
	for _, f := range fragments {
		if !strings.Contains(causeOf(err), f) {
			t.Errorf("%s: cause %q does not say %q", what, causeOf(err), f)
		}
	}
}

func equalNames(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func short(h plumbing.Hash) string { return h.String()[:7] }

func isCanceled(err error) bool { return errors.Is(err, context.Canceled) }

package filesystem

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/fifotest"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/internal/linktest"
	"github.com/adrkit/adrkit-go/ports"
)

// Names of the records in testdata/records.
const (
	rec1 = "0001-read-records-without-following-symlinks.md"
	rec2 = "0002-validate-the-root-on-every-call.md"
)

// base returns a fresh canonical temporary directory: the tests compare
// canonical paths, and the temporary directory itself may sit behind a
// symlink on some systems.
func base(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// newRoot makes a worktree root under parent (gittest.MakeRoot) with the
// testdata records in docs/adr, and returns the root.
func newRoot(t *testing.T, parent, name string) string {
	t.Helper()
	root := filepath.Join(parent, name)
	gittest.MakeRoot(t, root, nil)
	copyRecords(t, filepath.Join(root, "docs", "adr"))
	return root
}

// copyRecords copies testdata/records into dir.
func copyRecords(t *testing.T, dir string) {
	t.Helper()
	mkdir(t, dir)
	for _, name := range []string{rec1, rec2} {
		b, err := os.ReadFile(filepath.Join("testdata", "records", name))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, name), b)
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, p string, b []byte) {
	t.Helper()
	mkdir(t, filepath.Dir(p))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// symlink makes a symlink, skipping the test where this account cannot
// make one (linktest).
func symlink(t *testing.T, target, link string) {
	t.Helper()
	mkdir(t, filepath.Dir(link))
	linktest.Make(t, target, link)
}

// mkfifo makes a FIFO, skipping the test on a system whose file tree
// has none (Windows).
func mkfifo(t *testing.T, p string) {
	t.Helper()
	fifotest.Require(t)
	mkdir(t, filepath.Dir(p))
	fifotest.Make(t, p)
}

// skipIfHeldOpen skips a case that renames or removes the ADR directory
// while a view has it open: Windows refuses that (a sharing violation),
// so the change the case makes cannot happen there.
func skipIfHeldOpen(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("Windows does not let the ADR directory be renamed or removed while the reader holds it open")
	}
}

// driver is a directory driver under test.
type driver struct {
	name string
	open openHandle
}

// eachDriver runs f once per driver this system has (testDrivers), as a
// subtest named for it; the Readers f makes use that driver.
func eachDriver(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, d := range testDrivers {
		t.Run(d.name, func(t *testing.T) {
			saved := platformHandle
			platformHandle = d.open
			t.Cleanup(func() { platformHandle = saved })
			f(t)
		})
	}
}

func remove(t *testing.T, p string) {
	t.Helper()
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
}

func rename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

// replaceSymlink points link at target atomically, as a deployment that
// flips a "current" symlink would.
func replaceSymlink(t *testing.T, target, link string) {
	t.Helper()
	tmp := link + ".new"
	symlink(t, target, tmp)
	rename(t, tmp, link)
}

// skipIfRoot skips a test that needs permission bits to be enforced; the
// access seam covers the same reasons when running as root, or on
// Windows, whose access control lists are not Unix permission bits.
func skipIfRoot(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("Windows does not enforce Unix permission bits (the access-seam tests cover these reasons)")
	}
	if os.Geteuid() == 0 {
		t.Skip("running as root: permission bits are not enforced (the access-seam tests cover these reasons)")
	}
}

// chmod changes p's mode and restores it at cleanup, so t.TempDir can
// remove the tree.
func chmod(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(p, fi.Mode().Perm()) })
}

// denyAccess makes the reader's access check fail with EACCES for the
// given paths, as it would for a user lacking the permission.
func denyAccess(r *Reader, paths ...string) {
	r.access = func(p string, mode uint32) error {
		for _, d := range paths {
			if p == d {
				return syscall.EACCES
			}
		}
		return nil
	}
}

// noBlock runs f and fails the test if it does not return promptly: no
// operation of the reader may wait on a FIFO.
func noBlock(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s blocked", what)
	}
}

// readKindOf returns the kind of a *ports.ReadError, or -1 for nil, and
// fails the test for any other error.
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

// openView opens r and returns the concrete view, failing the test on
// error.
func openView(t *testing.T, r *Reader) *view {
	t.Helper()
	c, err := r.Open(context.Background())
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return c.(*view)
}

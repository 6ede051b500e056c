// Package linktest makes symbolic links for tests. Unix always lets a
// test make one; Windows only with Developer Mode or for an
// administrator, and some file systems and emulators accept the call
// without making a link. A test that needs a link there is skipped with
// that reason, never failed; anywhere else a link that cannot be made
// fails the test. Only tests import it.
package linktest

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// Reason is the skip message of a test that needs a symbolic link where
// none can be made.
const Reason = "this account cannot make symbolic links here (Windows allows them with Developer Mode or to an administrator)"

// Supported reports whether this process can make symbolic links that
// read back as links. It is always true off Windows; on Windows a link
// is made once in a temporary directory to find out.
func Supported() bool { return supported() }

var supported = sync.OnceValue(func() bool {
	if runtime.GOOS != "windows" {
		return true
	}
	return probe()
})

// probe makes a link to a file and checks that it reads back as one: an
// emulator may report success and leave nothing behind.
func probe() bool {
	dir, err := os.MkdirTemp("", "linktest")
	if err != nil {
		return false
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "target"), nil, 0o644); err != nil {
		return false
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("target", link); err != nil {
		return false
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return false
	}
	got, err := os.Readlink(link)
	return err == nil && got == "target"
}

// Require skips t when symbolic links cannot be made here. Call it
// before anything the test needs a link for, in the test's goroutine.
func Require(t testing.TB) {
	t.Helper()
	if !Supported() {
		t.Skip(Reason)
	}
}

// Make makes the symbolic link link pointing at target (as written,
// relative to link's directory unless absolute), skipping t where links
// cannot be made and failing it if making this one fails. It must run in
// the test's goroutine.
func Make(t testing.TB, target, link string) {
	t.Helper()
	Require(t)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

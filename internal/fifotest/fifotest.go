// Package fifotest makes FIFOs (named pipes) for tests, the special file
// a reader must never block on. Unix systems have them; Windows has none
// in its file tree, so a test that needs one is skipped there with that
// reason, never failed. Only tests import it.
package fifotest

import (
	"runtime"
	"testing"
)

// Reason is the skip message of a test that needs a FIFO where the file
// tree has none.
var Reason = runtime.GOOS + " has no FIFOs in its file tree"

// Supported reports whether this system has FIFOs in its file tree.
func Supported() bool { return supported }

// Require skips t where this system has no FIFOs. Call it before
// anything the test needs a FIFO for, in the test's goroutine.
func Require(t testing.TB) {
	t.Helper()
	if !supported {
		t.Skip(Reason)
	}
}

// Make makes a FIFO at p (its directory must exist), skipping t where
// this system has none and failing it if the FIFO cannot be made.
func Make(t testing.TB, p string) {
	t.Helper()
	Require(t)
	if err := mkfifo(p); err != nil {
		t.Fatalf("make a FIFO: %v", err)
	}
}

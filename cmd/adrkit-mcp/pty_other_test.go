//go:build !linux

package main

import (
	"os"
	"runtime"
	"testing"
)

// openPTY skips: opening a pseudo-terminal is written with Linux's
// /dev/ptmx ioctls, and Windows has no terminal end of file to type.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	t.Skipf("no pseudo-terminal set-up for %s: the end-of-file case needs a terminal's ^D", runtime.GOOS)
	return nil, nil
}

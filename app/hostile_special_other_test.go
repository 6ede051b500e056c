//go:build !unix

package app_test

import (
	"errors"
	"runtime"
	"testing"
)

// hostileMkfifo skips the test: this system has no FIFOs in its file
// tree, nor the sockets and devices the special-file tests make next.
func hostileMkfifo(t *testing.T, _ string) {
	t.Helper()
	t.Skipf("%s has no FIFOs in its file tree", runtime.GOOS)
}

// hostileNeedFIFOs skips the test: this system has no FIFOs.
func hostileNeedFIFOs(t testing.TB) {
	t.Helper()
	t.Skipf("%s has no FIFOs in its file tree", runtime.GOOS)
}

var errNoSpecialFiles = errors.New("no special files on this system")

func hostileMksock(string) error { return errNoSpecialFiles }

func hostileMknull(string) error { return errNoSpecialFiles }

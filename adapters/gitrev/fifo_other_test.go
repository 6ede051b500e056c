//go:build !unix

package gitrev

import (
	"runtime"
	"testing"
)

// mkfifo skips the test: this system has no FIFOs in its file tree.
func mkfifo(t *testing.T, _ string) {
	t.Helper()
	t.Skipf("%s has no FIFOs in its file tree", runtime.GOOS)
}

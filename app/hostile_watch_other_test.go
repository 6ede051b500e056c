//go:build !linux

package app_test

import (
	"runtime"
	"testing"
)

// noOpens cannot watch path here: inotify is Linux only. The function it
// returns reports no opens; the test logs that this part is not
// observed on this system rather than claim it.
func noOpens(t *testing.T, path string) func() bool {
	t.Helper()
	t.Logf("%s has no inotify: whether %s is opened is not observed", runtime.GOOS, path)
	return func() bool { return true }
}

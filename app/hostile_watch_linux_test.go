package app_test

import (
	"errors"
	"testing"

	"golang.org/x/sys/unix"
)

// noOpens watches path with inotify and returns a function reporting
// whether anything opened or read it since.
func noOpens(t *testing.T, path string) func() bool {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skipf("inotify is not available: %v", err)
	}
	t.Cleanup(func() { _ = unix.Close(fd) })
	if _, err := unix.InotifyAddWatch(fd, path, unix.IN_OPEN|unix.IN_ACCESS); err != nil {
		t.Fatalf("watching %s: %v", path, err)
	}
	return func() bool {
		buf := make([]byte, 4096)
		n, err := unix.Read(fd, buf)
		if errors.Is(err, unix.EAGAIN) {
			return true
		}
		if err != nil {
			t.Fatalf("reading inotify events: %v", err)
		}
		return n == 0
	}
}

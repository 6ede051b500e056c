//go:build unix

package mcphttp

import (
	"os"
	"syscall"
)

// haveFIFOs says whether this system has FIFOs in its file tree.
const haveFIFOs = true

func makeFIFO(p string) error { return syscall.Mkfifo(p, 0o600) }

// unblockFIFO opens p for writing, so that a reader stuck opening it gets
// an end of file.
func unblockFIFO(p string) {
	if f, err := os.OpenFile(p, os.O_RDWR, 0); err == nil {
		_ = f.Close()
	}
}

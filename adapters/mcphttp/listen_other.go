//go:build !linux

package mcphttp

import (
	"syscall"
	"time"
)

// deferAccept is nothing where the kernel cannot hold back silent
// connections: the first-byte deadline and the allowance of new
// connections deal with them alone.
func deferAccept(time.Duration) func(network, address string, rc syscall.RawConn) error { return nil }

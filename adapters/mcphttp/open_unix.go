//go:build unix

package mcphttp

import "syscall"

// openNonBlocking makes an open return at once, whatever the file turned
// out to be (a FIFO put in place after it was looked at).
const openNonBlocking = syscall.O_NONBLOCK

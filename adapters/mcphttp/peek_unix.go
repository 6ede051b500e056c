//go:build unix && !aix

package mcphttp

import (
	"net"
	"syscall"
)

// hasSent reports whether bytes the client sent wait on nc, unread: a
// connection whose request arrived but has not been read yet (the server
// is busy) has spoken all the same. It looks without reading and without
// waiting, beside whatever read net/http has under way.
func hasSent(nc net.Conn) bool {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	n := 0
	_ = rc.Control(func(fd uintptr) {
		var b [1]byte
		n, _, _ = syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	})
	return n > 0
}

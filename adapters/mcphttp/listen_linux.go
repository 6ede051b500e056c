package mcphttp

import (
	"math"
	"syscall"
	"time"
)

// deferAccept asks the kernel (TCP_DEFER_ACCEPT) to hand the server a new
// connection only once it has sent a byte, or after about wait: sockets
// that send nothing then cost the server nothing before wait, and the
// first-byte deadline and the allowance of new connections deal with
// them after it.
func deferAccept(wait time.Duration) func(network, address string, rc syscall.RawConn) error {
	secs := max(1, int(math.Ceil(wait.Seconds())))
	return func(_, _ string, rc syscall.RawConn) error {
		var err error
		if cerr := rc.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_DEFER_ACCEPT, secs)
		}); cerr != nil {
			return cerr
		}
		return err
	}
}

//go:build !unix || aix

package mcphttp

import "net"

// hasSent cannot look at unread bytes here (Windows; AIX has no
// MSG_DONTWAIT): only the bytes read count.
func hasSent(net.Conn) bool { return false }

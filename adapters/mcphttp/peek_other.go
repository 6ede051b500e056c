//go:build !unix

package mcphttp

import "net"

// hasSent cannot look at unread bytes here: only the bytes read count.
func hasSent(net.Conn) bool { return false }

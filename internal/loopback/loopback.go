// Package loopback is the one rule by which adrkit's HTTP servers tell a
// request meant for this machine from one sent under another name: a web
// page whose host name an attacker made resolve to 127.0.0.1 (DNS
// rebinding) still sends its own name in the Host header. The MCP HTTP
// front (adapters/mcphttp) applies it to connections that arrive on a
// loopback address; adrkit site --serve, which listens on loopback only,
// to every request.
package loopback

import (
	"net"
	"net/netip"
	"strings"
)

// IsName reports whether host, a host name without port, is "localhost"
// or a loopback address; case, brackets around an IPv6 address and a
// trailing dot do not matter.
func IsName(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")), ".")
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// Host reports whether a request's Host header (a host, with or without
// a port) names this machine's loopback.
func Host(header string) bool {
	if h, _, err := net.SplitHostPort(header); err == nil {
		header = h
	}
	return IsName(header)
}

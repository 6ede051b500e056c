//go:build !unix

package mcphttp

// openNonBlocking is nothing where the system has no such flag (Windows,
// where opening a file does not wait on its kind).
const openNonBlocking = 0

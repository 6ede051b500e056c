//go:build !linux

package filesystem

// platformHandle is the driver this system uses: os.Root (the descriptor
// driver is measured, and kept, on Linux only; see handle.go).
var platformHandle openHandle = openRootHandle

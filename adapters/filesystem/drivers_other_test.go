//go:build !linux

package filesystem

// testDrivers are the directory drivers of this system.
var testDrivers = []driver{{"root", openRootHandle}}

package filesystem

import "testing"

// Exported for the external tests (conformance_test.go).

// EachDriver runs f once per directory driver of this system.
func EachDriver(t *testing.T, f func(t *testing.T)) { eachDriver(t, f) }

// HaveFIFOs says whether this system has FIFOs in its file tree.
const HaveFIFOs = haveFIFOs

// MakeFIFO makes a FIFO at p.
func MakeFIFO(p string) error { return makeFIFO(p) }

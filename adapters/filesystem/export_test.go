package filesystem

import "testing"

// Exported for the external tests (conformance_test.go).

// EachDriver runs f once per directory driver of this system.
func EachDriver(t *testing.T, f func(t *testing.T)) { eachDriver(t, f) }

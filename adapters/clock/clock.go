// Package clock is the one wall clock of both binaries, the adapter of
// ports.Clock: lint's today, the review queue's today when a call names
// none, the HTTP access log's durations. Nothing else reads the time.
package clock

import "time"

// System is the wall clock.
type System struct{}

// Now is the wall-clock time.
func (System) Now() time.Time { return time.Now() }

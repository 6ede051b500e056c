package affects

import "github.com/adrkit/adrkit-go/domain/adr"

// SortFired sorts as one Resolver does, for the tests.
func SortFired(fired []adr.FiredMatcher) { (&Resolver{}).sortFired(fired) }

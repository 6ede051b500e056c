// Package semver validates node-semver ranges (package matcher patterns).
package semver

// ValidRange reports whether r is a range node-semver's validRange accepts
// (loose = false).
func ValidRange(r string) bool {
	panic("semver.ValidRange: not implemented yet")
}

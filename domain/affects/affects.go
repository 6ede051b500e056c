// Package affects resolves a record's affects matchers against a list of
// repository-relative file paths.
package affects

import "github.com/adrkit/adrkit-go/domain/adr"

// Resolution is what one record's matchers did for one file list.
type Resolution struct {
	// Fired lists the matchers that matched, de-duplicated by (type,
	// pattern) and ordered by type then pattern in ICU root collation.
	Fired []adr.FiredMatcher
	// Suppressed is true when a negated matcher matched: the record is
	// then not a match at all.
	Suppressed bool
	// Findings are the derived findings (affects-bad-pattern,
	// affects-unresolvable), one per offending matcher, emitted whether or
	// not anything matched.
	Findings []adr.Finding
}

// Matched reports whether the record is a context match.
func (r Resolution) Matched() bool { return len(r.Fired) > 0 && !r.Suppressed }

// Resolve evaluates rec's matchers against files.
func Resolve(rec *adr.Record, files []string) Resolution {
	panic("affects.Resolve: not implemented yet")
}

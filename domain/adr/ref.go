package adr

import (
	"strings"

	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// RefPattern is the grammar of a record reference: a bare id, or
// "log:id" where log is a lower-case slug.
const RefPattern = `^(([a-z0-9][a-z0-9-]*):)?([0-9]{4,}|[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26})$`

// IDPattern is the grammar of a record id: four or more ASCII digits, or a
// 26-character Crockford base-32 ULID in either case.
const IDPattern = `^([0-9]{4,}|[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26})$`

var (
	refRE = lazyregexp.New(RefPattern)
	idRE  = lazyregexp.New(IDPattern)
)

// ValidRef reports whether s matches RefPattern.
func ValidRef(s string) bool { return refRE.MatchString(s) }

// ValidID reports whether s matches IDPattern.
func ValidID(s string) bool { return idRE.MatchString(s) }

// Ref is a parsed reference. Log is empty for a local ref.
type Ref struct {
	Raw string
	Log string
	ID  string
}

// ParseRef splits s at its first colon. A colon at index 0, or none, makes
// a local ref whose id is all of s; later colons stay in the id
// ("a:b:c" is log "a", id "b:c").
func ParseRef(s string) Ref {
	if i := strings.IndexByte(s, ':'); i > 0 {
		return Ref{Raw: s, Log: s[:i], ID: s[i+1:]}
	}
	return Ref{Raw: s, ID: s}
}

// Federated reports whether the ref names another log. Such a ref is never
// looked up locally: this server sees a single log.
func (r Ref) Federated() bool { return r.Log != "" }

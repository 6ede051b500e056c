package queue

import (
	"strings"

	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// AsOfProblem says why an --as-of value was refused.
type AsOfProblem string

// The ways an --as-of value can be wrong.
const (
	// AsOfZoneless: a datetime without a zone. The UTC date it falls on
	// would depend on the reader's time zone, so it is refused rather
	// than guessed.
	AsOfZoneless AsOfProblem = "zoneless"
	// AsOfInvalid: neither a date that exists nor a datetime that can be
	// read.
	AsOfInvalid AsOfProblem = "invalid"
)

var (
	datePattern = lazyregexp.New(`^\d{4}-\d{2}-\d{2}$`)
	zonePattern = lazyregexp.New(`(Z|[+-]\d{2}:?\d{2})$`)
)

// ResolveAsOf reads an --as-of value: a calendar date (YYYY-MM-DD, a day
// that exists), or a datetime with an explicit zone ("Z", ±HH:MM or
// ±HHMM), which stands for the UTC date it falls on. It returns the date
// the SLA states are computed against, or the problem.
func ResolveAsOf(s string) (string, AsOfProblem) {
	if datePattern.MatchString(s) {
		if _, ok := parseDate(s); ok {
			return s, ""
		}
		return "", AsOfInvalid
	}
	_, timePart, ok := strings.Cut(s, "T")
	if !ok {
		return "", AsOfInvalid
	}
	if !zonePattern.MatchString(timePart) {
		return "", AsOfZoneless
	}
	t, ok := parseInstant(s)
	if !ok {
		return "", AsOfInvalid
	}
	return calendarDate(t), ""
}

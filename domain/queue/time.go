package queue

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The instants and dates of the queue are written the way the reference
// writes them: an instant as JavaScript's Date.prototype.toISOString does
// (UTC, milliseconds, a six-digit signed year outside 0000-9999), a
// calendar date as the first ten characters of that. Keeping that form
// even at the edges (a deadline past the year 9999) keeps the report's
// values, and the string comparisons made on them, the reference's.

// maxEpochDays is the range of a JavaScript Date: ±10^8 days around the
// epoch. A deadline beyond it has no written form.
const maxEpochDays = 100_000_000

const dateForm = "2006-01-02"

// isoString writes t (UTC) as toISOString does.
func isoString(t time.Time) string {
	t = t.UTC()
	var b strings.Builder
	writeYear(&b, t.Year())
	fmt.Fprintf(&b, "-%02d-%02dT%02d:%02d:%02d.%03dZ", int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1_000_000)
	return b.String()
}

func writeYear(b *strings.Builder, y int) {
	switch {
	case y >= 0 && y <= 9999:
		fmt.Fprintf(b, "%04d", y)
	case y < 0:
		fmt.Fprintf(b, "-%06d", -y)
	default:
		fmt.Fprintf(b, "+%06d", y)
	}
}

// calendarDate is the first ten characters of isoString: the UTC date
// for years 0000-9999, a signed year and a month outside them.
func calendarDate(t time.Time) string { return isoString(t)[:10] }

// parseInstant reads an ISO datetime with an explicit zone: the schema's
// form (date, "T", hours and minutes, optional seconds and fraction,
// "Z" or a ±HH:MM offset) and, for --as-of, a ±HHMM offset as well. The
// fraction is kept to the millisecond, cut rather than rounded, as a
// JavaScript Date keeps it. Hour 24 is accepted only as 24:00(:00), the
// end of the day. A date that does not exist is refused.
func parseInstant(s string) (time.Time, bool) {
	date, rest, ok := strings.Cut(s, "T")
	if !ok {
		return time.Time{}, false
	}
	day, ok := parseDate(date)
	if !ok {
		return time.Time{}, false
	}
	// The zone.
	var offset int // seconds east of UTC
	switch {
	case strings.HasSuffix(rest, "Z"):
		rest = rest[:len(rest)-1]
	case len(rest) >= 6 && (rest[len(rest)-6] == '+' || rest[len(rest)-6] == '-') && rest[len(rest)-3] == ':':
		z := rest[len(rest)-6:]
		rest = rest[:len(rest)-6]
		h, m := twoDigits(z[1:3]), twoDigits(z[4:6])
		if h < 0 || m < 0 || h > 23 || m > 59 {
			return time.Time{}, false
		}
		offset = sign(z[0]) * (h*3600 + m*60)
	case len(rest) >= 5 && (rest[len(rest)-5] == '+' || rest[len(rest)-5] == '-'):
		z := rest[len(rest)-5:]
		rest = rest[:len(rest)-5]
		h, m := twoDigits(z[1:3]), twoDigits(z[3:5])
		if h < 0 || m < 0 || h > 23 || m > 59 {
			return time.Time{}, false
		}
		offset = sign(z[0]) * (h*3600 + m*60)
	default:
		return time.Time{}, false
	}
	// The time of day: HH:MM[:SS[.fff...]].
	if len(rest) < 5 || rest[2] != ':' {
		return time.Time{}, false
	}
	hour, minute := twoDigits(rest[0:2]), twoDigits(rest[3:5])
	second, milli := 0, 0
	rest = rest[5:]
	if rest != "" {
		if len(rest) < 3 || rest[0] != ':' {
			return time.Time{}, false
		}
		second = twoDigits(rest[1:3])
		rest = rest[3:]
		if rest != "" {
			frac := rest[1:]
			if rest[0] != '.' || frac == "" || strings.Trim(frac, "0123456789") != "" {
				return time.Time{}, false
			}
			frac = (frac + "00")[:3]
			milli, _ = strconv.Atoi(frac)
		}
	}
	if hour < 0 || minute < 0 || second < 0 || minute > 59 || second > 59 {
		return time.Time{}, false
	}
	if hour > 23 && (hour != 24 || minute != 0 || second != 0 || milli != 0) {
		return time.Time{}, false
	}
	t := day.Add(time.Duration(hour)*time.Hour + time.Duration(minute)*time.Minute +
		time.Duration(second)*time.Second + time.Duration(milli)*time.Millisecond -
		time.Duration(offset)*time.Second)
	return t, true
}

func sign(c byte) int {
	if c == '-' {
		return -1
	}
	return 1
}

// twoDigits is the value of two ASCII digits, -1 for anything else.
func twoDigits(s string) int {
	if len(s) != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return -1
	}
	return int(s[0]-'0')*10 + int(s[1]-'0')
}

// parseDate reads YYYY-MM-DD, a day that exists, as UTC midnight.
func parseDate(s string) (time.Time, bool) {
	if len(s) != len(dateForm) {
		return time.Time{}, false
	}
	t, err := time.Parse(dateForm, s)
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// epochDays is the day number of UTC midnight t.
func epochDays(t time.Time) int64 {
	return t.Unix() / 86400
}

// addDays is the date days after the calendar date date, as the
// reference computes it: date is the first ten characters of a written
// instant, so YYYY-MM-DD, or past the years 0000-9999 a signed year and a
// month (±YYYYYY-MM), which a JavaScript Date reads as the first of that
// month. False when the result is beyond a JavaScript Date's range.
func addDays(date string, days int64) (string, bool) {
	d, ok := parseDate(date)
	if !ok {
		d, ok = parseExpandedMonth(date)
	}
	if !ok {
		return "", false
	}
	n := epochDays(d) + days
	if n > maxEpochDays || n < -maxEpochDays {
		return "", false
	}
	return calendarDate(time.Unix(n*86400, 0)), true
}

// parseExpandedMonth reads ±YYYYYY-MM as UTC midnight on the first of
// the month ("-000000" is not a year).
func parseExpandedMonth(s string) (time.Time, bool) {
	if len(s) != 10 || (s[0] != '+' && s[0] != '-') || s[7] != '-' || s == "-000000" {
		return time.Time{}, false
	}
	y, err := strconv.Atoi(s[1:7])
	if err != nil || strings.Trim(s[1:7], "0123456789") != "" || (s[0] == '-' && y == 0) {
		return time.Time{}, false
	}
	m := twoDigits(s[8:10])
	if m < 1 || m > 12 {
		return time.Time{}, false
	}
	if s[0] == '-' {
		y = -y
	}
	return time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC), true
}

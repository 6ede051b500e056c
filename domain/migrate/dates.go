package migrate

import (
	"strconv"
	"strings"
	"time"

	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// PlaceholderDate is the date of a decision no source dates: not its
// file, not its name, not the history. It is obviously not a real date,
// and the plan says so for every file that gets it.
const PlaceholderDate = "1970-01-01"

var (
	// isoDate is a date, or the date of an ISO 8601 date-time as site
	// generators write it (2020-06-15T20:21:00+01:00): the day as written.
	isoDate   = lazyregexp.New(`^(\d{4})-(\d{1,2})-(\d{1,2})(?:T|\b)`)
	slashDMY  = lazyregexp.New(`^(\d{1,2})/(\d{1,2})/(\d{4})\b`)
	slashYMD  = lazyregexp.New(`^(\d{4})[/.](\d{1,2})[/.](\d{1,2})\b`)
	dotDMY    = lazyregexp.New(`^(\d{1,2})\.(\d{1,2})\.(\d{4})\b`)
	namePrefx = lazyregexp.New(`^(\d{4})(\d{2})(\d{2})-`)
)

// textLayouts are the written-out forms some teams use.
var textLayouts = []string{"2 January 2006", "January 2, 2006", "January 2 2006", "2 Jan 2006", "Jan 2, 2006", "Jan 2 2006", "2. January 2006"}

// parseDate reads a date as ADR sources write it and returns it as
// YYYY-MM-DD. note says how an ambiguous form was read ("" when it was
// not ambiguous); ok is false when s holds no date.
//
// Day-first is adr-tools' historical form (DD/MM/YYYY, which its
// upgrade-repository command rewrites), so a slashed date is read
// day-first unless its second part cannot be a month.
func parseDate(s string) (date, note string, ok bool) {
	s = cleanText(s)
	if s == "" || placeholder(s) {
		return "", "", false
	}
	ymd := func(y, m, d string) (string, bool) {
		yi, _ := strconv.Atoi(y)
		mi, _ := strconv.Atoi(m)
		di, _ := strconv.Atoi(d)
		t := time.Date(yi, time.Month(mi), di, 0, 0, 0, 0, time.UTC)
		if t.Year() != yi || int(t.Month()) != mi || t.Day() != di {
			return "", false
		}
		return t.Format("2006-01-02"), true
	}
	if m := isoDate.FindStringSubmatch(s); m != nil {
		d, ok := ymd(m[1], m[2], m[3])
		return d, "", ok
	}
	if m := slashYMD.FindStringSubmatch(s); m != nil {
		d, ok := ymd(m[1], m[2], m[3])
		return d, "", ok
	}
	for _, re := range []*lazyregexp.Regexp{slashDMY, dotDMY} {
		if m := re.FindStringSubmatch(s); m != nil {
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			if b > 12 && a <= 12 {
				d, ok := ymd(m[3], m[1], m[2])
				return d, "read month first, as the day part is over 12", ok
			}
			d, ok := ymd(m[3], m[2], m[1])
			if ok && a <= 12 && a != b {
				note = "read day first (DD/MM/YYYY, adr-tools' old form)"
			}
			return d, note, ok
		}
	}
	for _, layout := range textLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format("2006-01-02"), "", true
		}
	}
	return "", "", false
}

// nameDate is the date a log4brains file name starts with
// (YYYYMMDD-slug.md), when it is a calendar date.
func nameDate(name string) (string, bool) {
	m := namePrefx.FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	d, _, ok := parseDate(m[1] + "-" + m[2] + "-" + m[3])
	return d, ok && strings.HasPrefix(m[1], "19") || ok && strings.HasPrefix(m[1], "20")
}

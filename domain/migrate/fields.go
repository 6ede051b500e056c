package migrate

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"

	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// titleNumber is the number in front of a title: adr-tools' "1. Title",
// "ADR-0001: Title", "0003 - Title".
var titleNumber = lazyregexp.New(`(?i)^(?:adr|rfc)?[-_ #]*[0-9]+(?:\s*[.:)]\s+|:|\s+[-–—]\s+)`)

// titlePrefix is a label in front of a title that says what the document
// is: "Architecture Decision Record: Use X", "ADR: Use X", "Decision
// record 5 - Use X".
var titlePrefix = lazyregexp.New(`(?i)^(?:(?:architectur(?:e|al)\s+)?decision\s+record(?:\s*\(adr\))?|adr)(?:\s*[-_#]?\s*[0-9]+)?\s*(?::|\s[-–—])\s*`)

// titleStatus is a status tag some folders put in front of a superseded
// decision's heading: "[Superseded by ADR-0019] Push metrics".
var titleStatus = lazyregexp.New(`(?i)^\[\s*(?:superseded|superceded|replaced|deprecated|obsolete|rejected|retired)\b[^\]]*\]\s*`)

// maxTitle is the schema's longest title, in UTF-16 units.
const maxTitle = 120

// title is the decision's title: the front matter's title key, else the
// first heading, without its number, a label such as "Architecture
// Decision Record:" or a status tag in front, else the file name's slug.
func title(it *item) string {
	t := it.sig.titleFromFrontmatter
	if t == "" {
		t = it.sig.title
	}
	if bare := titleNumber.ReplaceAllString(titlePrefix.ReplaceAllString(titleStatus.ReplaceAllString(t, ""), ""), ""); bare != "" {
		t = bare
	}
	t = oneLine(t)
	if utf16Len(t) < 3 {
		if s := slugTitle(it.file.Name); utf16Len(s) >= 3 {
			it.plan.Warnings = append(it.plan.Warnings, "no heading to take the title from; it is made from the file name")
			t = s
		}
	}
	if utf16Len(t) > maxTitle {
		u := utf16.Encode([]rune(t))[:maxTitle-1]
		// Do not cut a surrogate pair in two.
		if n := len(u); n > 0 && utf16.IsSurrogate(rune(u[n-1])) {
			u = u[:n-1]
		}
		t = strings.TrimSpace(string(utf16.Decode(u))) + "…"
		it.plan.Warnings = append(it.plan.Warnings, "the title is longer than 120 characters and is shortened (the heading stays as it is)")
	}
	return t
}

// oneLine folds line breaks and control characters into single spaces.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// slugPart is what follows a record-like name's number: "use-postgres"
// for "0003-use-postgres.md".
func slugPart(name string) string {
	base := strings.TrimSuffix(strings.TrimSuffix(name, path.Ext(name)), ".")
	rest := base
	if len(rest) >= 3 && strings.EqualFold(rest[:3], "adr") {
		rest = strings.TrimLeft(rest[3:], "-_ ")
	}
	rest = strings.TrimLeft(rest, "0123456789")
	return strings.TrimLeft(rest, "-_ .")
}

// slugTitle makes a title of a file name's slug: "use-postgres" → "Use postgres".
func slugTitle(name string) string {
	s := strings.Join(strings.FieldsFunc(slugPart(name), func(r rune) bool { return r == '-' || r == '_' || r == ' ' }), " ")
	if s == "" {
		return ""
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// Slugify makes a file-name slug of a title: lower-case ASCII letters and
// digits joined by single dashes, at most 60 bytes, "decision" when
// nothing is left.
func Slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if len(s) > 60 {
		s = strings.TrimRight(s[:60], "-")
	}
	if s == "" {
		s = "decision"
	}
	return s
}

// status works out the status to write: the last status the source
// names that adrkit knows, superseded when a replacement is known (from
// either side), and DefaultStatus when the source names none adrkit knows.
func status(it *item) adr.Status {
	p := it.plan
	var st adr.Status
	var known []adr.Status
	var unknown []string
	for _, text := range it.sig.statuses {
		if s, ok := lookupStatus(text); ok {
			known = append(known, s)
			st = s
		} else if text != "" {
			unknown = append(unknown, text)
		}
	}
	p.SourceStatus = strings.Join(it.sig.statusText, "; ")
	if len(it.sig.reverted) > 0 {
		// Reverted wins over the other status words, wherever they stand:
		// a decision that was accepted and then reverted no longer holds.
		st = adr.StatusDeprecated
		p.Warnings = append(p.Warnings, "the status says "+quoteAll(it.sig.reverted)+": written as "+string(st)+
			"; the decision that reverted it, when it is one here, is in relatesTo")
	} else if len(known) > 1 && distinctStatuses(known) {
		p.Warnings = append(p.Warnings, "the status lists "+quoteAll(it.sig.statuses)+"; the last one adrkit knows is used")
	}
	if len(it.sig.partly) > 0 && (st == "" || st == adr.StatusSuperseded && it.supBy == nil) {
		// Replaced in part, the rest still holds: the record stays live.
		st = adr.StatusAccepted
	}
	if len(it.sig.partly) > 0 {
		p.Warnings = append(p.Warnings, "the status says "+quoteAll(it.sig.partly)+": only part of it was replaced, so it is written as "+
			string(st)+", with the replacing decision, when it is one here, in relatesTo")
	}
	if st == "" {
		st = DefaultStatus
		if len(unknown) > 0 {
			p.Warnings = append(p.Warnings, "the status "+quoteAll(unknown)+" is not one adrkit knows; written as "+string(DefaultStatus)+" (docs/schema.md has the table)")
		} else {
			p.Warnings = append(p.Warnings, "no status found; written as "+string(DefaultStatus))
		}
	}
	switch {
	case it.supBy != nil && st != adr.StatusSuperseded:
		p.Warnings = append(p.Warnings, "written as superseded, not "+string(st)+": "+it.supBy.it.id()+" supersedes it")
		st = adr.StatusSuperseded
	case it.supBy == nil && st == adr.StatusSuperseded:
		p.Warnings = append(p.Warnings, "it says superseded but names no replacement that is a decision here; written as deprecated")
		st = adr.StatusDeprecated
	}
	return st
}

func distinctStatuses(s []adr.Status) bool {
	for _, x := range s[1:] {
		if x != s[0] {
			return true
		}
	}
	return false
}

func quoteAll(texts []string) string {
	q := make([]string, len(texts))
	for i, t := range texts {
		q[i] = `"` + t + `"`
	}
	return strings.Join(q, ", ")
}

// date works out the decision's date: the one its text names (MADR 3/4
// frontmatter first, then a "Date:" line; a site generator's frontmatter
// date only when the text names none), else the one its file name starts
// with (log4brains), else the day it was first committed, else
// PlaceholderDate. Each fallback is reported.
func date(it *item) string {
	p, sig := it.plan, it.sig
	cands := []string{sig.headerDate, sig.date}
	if sig.madrYAML {
		cands = []string{sig.date, sig.headerDate}
	}
	var unread []string
	for _, c := range cands {
		if c == "" {
			continue
		}
		d, note, ok := parseDate(c)
		if !ok {
			if !placeholder(cleanText(c)) {
				unread = append(unread, cleanText(c))
			}
			continue
		}
		if note != "" {
			p.Warnings = append(p.Warnings, "the date "+`"`+cleanText(c)+`"`+" is "+note)
		}
		for _, u := range unread {
			p.Warnings = append(p.Warnings, `the date "`+u+`" is not understood; `+d+" is used")
		}
		return d
	}
	for _, u := range unread {
		p.Warnings = append(p.Warnings, `the date "`+u+`" is not understood`)
	}
	if d, ok := nameDate(it.file.Name); ok {
		return d
	}
	if it.file.HistoryDate != "" {
		p.Warnings = append(p.Warnings, "no date in the file; the day it was first committed is used")
		return it.file.HistoryDate
	}
	p.Warnings = append(p.Warnings, "no date in the file or its history; written as "+PlaceholderDate+": put the real date in")
	return PlaceholderDate
}

// planName plans the file's rename. Without --rename, a decision whose
// name discovery does not read fails (false): frontmatter in a file that
// is never read would not make it a record.
func planName(it *item, items []*item, opts Options) bool {
	p := it.plan
	name := it.file.Name
	want := p.ID + "-" + slugPart(name)
	if slugPart(name) == "" || strings.ContainsAny(slugPart(name), " \t") {
		want = p.ID + "-" + Slugify(p.Title)
	}
	want += ".md"
	if want == name {
		return true
	}
	candidate := corpus.IsCandidateName(name) && name != "0000-template.md"
	if !opts.Rename {
		if !candidate {
			p.Action = ActionFail
			p.Reason = "its name is not read as a record's (NNNN-slug.md), so it would not become one; run migrate with --rename (it would be " +
				want + "), or rename it yourself"
			return false
		}
		return true
	}
	for _, other := range items {
		if other.file.Name == want || (other.plan.RenameTo != "" && path.Base(other.plan.RenameTo) == want) {
			p.Warnings = append(p.Warnings, "not renamed: "+want+" exists already")
			if !candidate {
				p.Action, p.Reason = ActionFail, "its name is not read as a record's, and "+want+" exists already"
				return false
			}
			return true
		}
	}
	p.RenameTo = path.Join(path.Dir(it.file.Path), want)
	p.Warnings = append(p.Warnings, "renamed to "+want+"; links to "+name+" in other files, and a site's navigation that names it "+
		"(mkdocs.yml's nav, a sidebar), are not changed: adrkit lint reports the links in records with the fix")
	return true
}

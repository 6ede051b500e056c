package migrate

import (
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"

	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// DefaultStatus is the status of a decision whose source names none, or
// names one adrkit does not know ("Pending review", "On hold", ...). It
// is proposed because that is the one status that neither claims the
// decision governs (accepted) nor buries it as history: an agent sees it
// as an open proposal, and the plan reports the file so that a person
// can settle it.
const DefaultStatus = adr.StatusProposed

// StatusWords maps what other ADR formats write as a status, lower-cased,
// to adrkit's status. A status text maps when it equals a key or starts
// with one followed by a space or punctuation ("Accepted on 2020-01-02",
// "Accepted (with conditions)"); the longest key wins. Anything else is
// DefaultStatus. docs/schema.md lists this table.
var StatusWords = map[string]adr.Status{
	"draft": adr.StatusDraft, "wip": adr.StatusDraft, "work in progress": adr.StatusDraft,
	"in progress": adr.StatusDraft, "todo": adr.StatusDraft, "to do": adr.StatusDraft,

	"proposed": adr.StatusProposed, "proposal": adr.StatusProposed, "pending": adr.StatusProposed,
	"open": adr.StatusProposed, "in review": adr.StatusProposed, "under review": adr.StatusProposed,
	"review": adr.StatusProposed, "under discussion": adr.StatusProposed, "suggested": adr.StatusProposed,
	"rfc": adr.StatusProposed,

	"accepted": adr.StatusAccepted, "approved": adr.StatusAccepted, "adopted": adr.StatusAccepted,
	"agreed": adr.StatusAccepted, "decided": adr.StatusAccepted, "done": adr.StatusAccepted,
	"implemented": adr.StatusAccepted, "active": adr.StatusAccepted, "final": adr.StatusAccepted,

	"rejected": adr.StatusRejected, "declined": adr.StatusRejected, "refused": adr.StatusRejected,
	"abandoned": adr.StatusRejected, "withdrawn": adr.StatusRejected, "not accepted": adr.StatusRejected,
	"won't do": adr.StatusRejected,

	"superseded": adr.StatusSuperseded, "superceded": adr.StatusSuperseded, "replaced": adr.StatusSuperseded,

	"deprecated": adr.StatusDeprecated, "obsolete": adr.StatusDeprecated, "retired": adr.StatusDeprecated,
	"reverted": adr.StatusDeprecated,
	"outdated": adr.StatusDeprecated, "retracted": adr.StatusDeprecated, "no longer valid": adr.StatusDeprecated,
}

// lookupStatus maps a cleaned status text (see cleanText) to a status.
func lookupStatus(text string) (adr.Status, bool) {
	st, _ := matchStatus(text)
	return st, st != ""
}

// matchStatus finds the StatusWords key text starts with (the longest)
// and returns its status and how many bytes of the lower-cased, trimmed
// text it covers; "" when text starts with no status word.
func matchStatus(text string) (adr.Status, int) {
	t := strings.ToLower(strings.TrimSpace(text))
	t = strings.TrimRight(t, ".!;,:")
	best, found := "", adr.Status("")
	for word, st := range StatusWords {
		if len(word) <= len(best) {
			continue
		}
		if t == word || (strings.HasPrefix(t, word) && !isWordByte(t[len(word)])) {
			best, found = word, st
		}
	}
	return found, len(best)
}

// statusPrefix splits the words in front of a link on a status line into
// a status word and the verb that follows it: "Accepted, amended by" is
// "Accepted" and "amended by". ok is false when the words do not start
// with a status word.
func statusPrefix(verb string) (word, rest string, ok bool) {
	v := strings.TrimSpace(verb)
	st, n := matchStatus(v)
	if st == "" {
		return "", "", false
	}
	return v[:n], strings.TrimLeft(v[n:], " \t,;:.-–—(·|"), true
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c >= 0x80
}

// verbDate is a date inside the words in front of a link, with an "on"
// before it.
var verbDate = lazyregexp.New(`(?i)\b(?:on\s+)?(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{4})\b`)

// relationOf maps the verb in front of a link ("Superseded by",
// "Supercedes", "Amended by", ...) to the relation it declares. adr-tools
// writes "Superceded by"/"Supercedes", the historical spelling; custom
// links of adr-tools' "adr link" (Amends, Clarified by, ...) are
// relatesTo.
func relationOf(verb string) relation {
	// A date between the words ("Superseded: 2019-12-19 by", "Superseded
	// on 19/12/2019 by", "Superseded (2019-12-19) by") says when, not what.
	v := verbDate.ReplaceAllString(strings.ToLower(verb), " ")
	v = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if strings.ContainsRune(":(),", r) {
			return ' '
		}
		return r
	}, v)), " ")
	v = strings.Trim(v, ":*_ ")
	switch v {
	case "superseded by", "superceded by", "replaced by", "superseeded by":
		return relSupersededBy
	case "supersedes", "supercedes", "replaces", "supersede", "supercede":
		return relSupersedes
	}
	return relRelates
}

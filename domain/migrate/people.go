package migrate

import (
	"strings"

	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// identity is the schema's Identity: an @handle, team:slug or an
// email-like string. \s is the JS whitespace set.
var identity = lazyregexp.New(`^(@[A-Za-z0-9-]+|team:[a-z0-9-]+|[^@\s\x{0b}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]+@[^@\s\x{0b}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]+\.[^@\s\x{0b}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]+)$`)

// IsIdentity reports whether s is an @handle, team:slug or email address
// as the schema accepts them.
func IsIdentity(s string) bool { return identity.MatchString(s) }

// peopleSplit separates the names of a free-form people field.
var peopleSplit = lazyregexp.New(`\s*(?:[,;]|\band\b|&)\s*`)

// placeholder is a template's unfilled value: "[list everyone involved]",
// "{list everyone involved in the decision}", "<names>".
func placeholder(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) < 2 {
		return false
	}
	open, end := s[0], s[len(s)-1]
	return (open == '[' && end == ']') || (open == '{' && end == '}') || (open == '<' && end == '>')
}

// people splits the values of a people field into the identities the
// schema accepts and the names it does not. Template placeholders are
// dropped; each identity is kept once, in order.
func people(values []string) (ids, others []string) {
	seen := map[string]bool{}
	for _, v := range values {
		v = strings.TrimSpace(htmlComment.ReplaceAllString(v, ""))
		if v == "" || placeholder(v) {
			continue
		}
		for _, name := range peopleSplit.Split(v, -1) {
			name = cleanText(name)
			name = strings.TrimSpace(strings.Trim(name, "\"'"))
			if name == "" || placeholder(name) || seen[name] {
				continue
			}
			seen[name] = true
			if IsIdentity(name) {
				ids = append(ids, name)
			} else {
				others = append(others, name)
			}
		}
	}
	return ids, others
}

// slug is the schema's tag form.
var slug = lazyregexp.New(`^[a-z0-9][a-z0-9-]*$`)

// tags splits the values of a tags field (space and/or comma separated)
// into the slugs the schema accepts and the rest.
func tags(values []string) (ok, others []string) {
	seen := map[string]bool{}
	for _, v := range values {
		v = strings.TrimSpace(htmlComment.ReplaceAllString(v, ""))
		if v == "" || placeholder(v) {
			continue
		}
		for _, t := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == ';' }) {
			t = strings.TrimPrefix(cleanText(t), "#")
			if t == "" || seen[t] {
				continue
			}
			seen[t] = true
			if slug.MatchString(t) {
				ok = append(ok, t)
			} else {
				others = append(others, t)
			}
		}
	}
	return ok, others
}

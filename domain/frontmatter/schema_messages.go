package frontmatter

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// Messages are ours: they name the field by its full path, say what it
// must be and what it holds instead. They carry no line numbers (those go
// in adr.Finding.Line) so that reformatting the YAML keeps them stable.

// maxQuoted bounds how much of an offending value a message repeats.
const maxQuoted = 60

func fieldName(path []string) string {
	if len(path) == 0 {
		return "the frontmatter"
	}
	return strings.Join(path, ".")
}

// quote writes s as a JSON string, shortened to maxQuoted code units.
// Characters a reader could not see or tell from a space (no-break
// spaces, a byte-order mark, other format characters) are shown as \u
// escapes, since they are usually the reason the value was rejected.
func quote(s string) string {
	if jsstring.Len(s) > maxQuoted {
		s = jsstring.Truncate(s, maxQuoted-1) + "…"
	}
	q := jsvalue.AppendString(nil, s)
	var b strings.Builder
	for _, r := range string(q) {
		if r > 0x7E && (jsstring.IsSpace(r) || !unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r)) && r != utf8.RuneError {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func formatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return string(jsvalue.AppendNumber(nil, f))
}

// describe names a value the way a reader of the YAML would.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case float64:
		switch {
		case math.IsNaN(x):
			return "NaN (not a number)"
		case math.IsInf(x, 0):
			return "an infinite number"
		}
		return "the number " + formatNumber(x)
	case string:
		return "the string " + quote(x)
	case []any:
		return "a list"
	case *jsvalue.Object:
		return "a mapping"
	case jsvalue.Exotic:
		switch x.Constructor {
		case "array":
			return "an alias back to a list that contains it (a cycle)"
		case "object":
			return "an alias back to a mapping that contains it (a cycle)"
		}
	}
	return "an unsupported value"
}

// expected says what a node accepts, for type messages.
func expected(n *node) string {
	switch n.kind {
	case kindString:
		return "a string"
	case kindNumber:
		if n.integer {
			return "a whole number"
		}
		return "a number"
	case kindBool:
		return "true or false"
	case kindArray:
		return "a list"
	case kindObject:
		return "a mapping"
	case kindRecord:
		return "a mapping of names to numbers"
	case kindEnum:
		return "one of " + strings.Join(n.values, ", ")
	}
	return "something else"
}

func missingMessage(path []string, n *node) string {
	return fieldName(path) + " is required but missing; it must be " + expected(n)
}

func typeMessage(path []string, n *node, got any) string {
	if len(path) == 0 && n.kind == kindObject {
		return "the frontmatter must be a YAML mapping of fields; got " + describe(got)
	}
	msg := fieldName(path) + " must be " + expected(n) + "; got " + describe(got)
	switch got.(type) {
	case float64, bool:
		if n.kind == kindString {
			// YAML reads unquoted 0042, 1.0 or yes-like words as numbers
			// or booleans; quoting is the fix.
			msg += " (quote the value to keep it as text)"
		}
	}
	return msg
}

func enumMessage(path []string, values []string, got any, present bool) string {
	if !present {
		return fieldName(path) + " is required but missing; it must be one of " + strings.Join(values, ", ")
	}
	return fieldName(path) + " must be one of " + strings.Join(values, ", ") + "; got " + describeEnum(got)
}

// describeEnum shows a rejected enum string bare when it is short and
// plain, which is how it was most likely typed.
func describeEnum(v any) string {
	if s, ok := v.(string); ok {
		return quote(s)
	}
	return describe(v)
}

func lengthMessage(path []string, n *node, got int) string {
	name := fieldName(path)
	has := "; this one has " + strconv.Itoa(got)
	switch {
	case n.minLen == 1 && n.maxLen == 0:
		return name + " must not be empty"
	case n.minLen > 0 && n.maxLen > 0:
		return name + " must be " + strconv.Itoa(n.minLen) + " to " + strconv.Itoa(n.maxLen) + " characters long" + has
	case n.minLen > 0:
		return name + " must be at least " + strconv.Itoa(n.minLen) + " characters long" + has
	}
	return name + " must be at most " + strconv.Itoa(n.maxLen) + " characters long" + has
}

func rangeMessage(path []string, n *node, got float64) string {
	name := fieldName(path)
	g := "; got " + formatNumber(got)
	switch {
	case n.hasMin && n.hasMax:
		return name + " must be between " + formatNumber(n.min) + " and " + formatNumber(n.max) + g
	case n.hasMin:
		return name + " must be at least " + formatNumber(n.min) + g
	}
	return name + " must be at most " + formatNumber(n.max) + g
}

func unsafeIntegerMessage(path []string, got float64) string {
	if got < 0 {
		return fieldName(path) + " is below -9007199254740991, the smallest whole number kept exactly; got " + formatNumber(got)
	}
	return fieldName(path) + " is above 9007199254740991, the largest whole number kept exactly; got " + formatNumber(got)
}

func formatMessage(path []string, f format, got string) string {
	name := fieldName(path)
	g := "; got " + quote(got)
	switch f {
	case formatSchemaVersion:
		return name + " must be three dot-separated numbers such as 0.1.0" + g
	case formatID:
		return name + " must be four or more digits (quoted, e.g. \"0042\") or a 26-character ULID" + g
	case formatSlug:
		return name + " must be a lower-case slug: letters a-z, digits and \"-\", not starting with \"-\"" + g
	case formatIdentity:
		return name + " must be an @handle, a team:slug or an email address" + g
	case formatRef:
		return name + " must be a record id, optionally prefixed with a log name as in \"payments:0042\"" + g
	case formatDate:
		return name + " must be a real calendar date written YYYY-MM-DD" + g
	case formatDateTime:
		return name + " must be a date and time with a zone, such as 2026-01-01T09:30:00Z" + g
	case formatURL:
		return name + " must be an absolute URL with a scheme, such as https://example.com/x" + g
	}
	return name + " is malformed" + g
}

func uniqueMessage(path []string, dups []any) string {
	parts := make([]string, len(dups))
	for i, d := range dups {
		if s, ok := d.(string); ok {
			parts[i] = quote(s)
		} else {
			parts[i] = describe(d)
		}
	}
	verb := " appears"
	if len(parts) > 1 {
		verb = " appear"
	}
	return fieldName(path) + " must not repeat an item; " + strings.Join(parts, ", ") + verb + " more than once"
}

func unknownKeyMessage(path []string) string {
	return "unknown frontmatter field " + quote(strings.Join(path, "."))
}

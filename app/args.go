package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// ErrArgumentsNotObject is returned by Call when the arguments are not a
// JSON object at all (null, an array, a scalar, or malformed JSON). The
// contract makes that a request-level error, not a tool answer, so the
// protocol adapter decides how to report it.
var ErrArgumentsNotObject = errors.New("tool arguments are not a JSON object")

// argSet is a decoded arguments object. It keeps the order in which keys
// first appeared (unknown keys are reported in that order) and, for a key
// given twice, the last value, as JSON.parse does.
type argSet struct {
	order []string
	vals  map[string]json.RawMessage
}

// decodeArgs reads one JSON object. Empty input is the empty object: a
// call without arguments is validated as {}.
func decodeArgs(raw []byte) (argSet, error) {
	set := argSet{vals: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(raw)) == 0 {
		return set, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return set, fmt.Errorf("%w: %w", ErrArgumentsNotObject, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return set, fmt.Errorf("%w: got %s", ErrArgumentsNotObject, kindOfToken(tok))
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return set, fmt.Errorf("%w: %w", ErrArgumentsNotObject, err)
		}
		key, ok := tok.(string)
		if !ok {
			return set, fmt.Errorf("%w: object key is not a string", ErrArgumentsNotObject)
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return set, fmt.Errorf("%w: value of %q: %w", ErrArgumentsNotObject, key, err)
		}
		if _, seen := set.vals[key]; !seen {
			set.order = append(set.order, key)
		}
		set.vals[key] = val
	}
	if _, err := dec.Token(); err != nil {
		return set, fmt.Errorf("%w: %w", ErrArgumentsNotObject, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return set, fmt.Errorf("%w: unexpected data after the object", ErrArgumentsNotObject)
	}
	return set, nil
}

func kindOfToken(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "array"
		}
		return "object"
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	}
	return "number"
}

// kindOf names the JSON type of a raw value the way messages do.
func kindOf(raw json.RawMessage) string {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '"':
		return "string"
	case '[':
		return "array"
	case '{':
		return "object"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// argReader validates one argument set field by field, in schema property
// order, collecting every issue.
type argReader struct {
	set argSet
	// from is the Go input the arguments were encoded from (nil for JSON
	// arguments): the readings take from it the fields JSON cannot carry,
	// which only the command line sets (SearchInput.All,
	// ContextInput.Markers).
	from   Input
	known  []string
	issues []issue
}

func newArgReader(set argSet, from Input) *argReader { return &argReader{set: set, from: from} }

func (r *argReader) add(path string, msgs ...string) {
	for _, m := range msgs {
		r.issues = append(r.issues, issue{path: path, msg: m})
	}
}

// lookup marks name as a schema property and returns its raw value.
func (r *argReader) lookup(name string) (json.RawMessage, bool) {
	r.known = append(r.known, name)
	v, ok := r.set.vals[name]
	return v, ok
}

// asString decodes raw when it is a JSON string.
func asString(raw json.RawMessage) (string, bool) {
	if kindOf(raw) != "string" {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// str reads an optional (or required) string property and applies check.
// The result is nil when the property is absent or refused.
func (r *argReader) str(name string, required bool, check func(string) []string) *string {
	raw, ok := r.lookup(name)
	if !ok {
		if required {
			r.add(name, "is required")
		}
		return nil
	}
	s, ok := asString(raw)
	if !ok {
		r.add(name, "must be a string, got "+kindOf(raw))
		return nil
	}
	if msgs := check(s); len(msgs) > 0 {
		r.add(name, msgs...)
		return nil
	}
	return &s
}

// listRule describes one array-of-strings property.
type listRule struct {
	required bool
	min, max int
	elem     func(string) []string
	// enum makes an element failure (or a non-string element) block the
	// uniqueness check, as the reference's schema does for enum arrays.
	enum   bool
	unique bool
	// elemType is what a non-string element is told it must be.
	elemType string
}

// list reads an array-of-strings property: elements first (in order),
// then the item count, then uniqueness.
func (r *argReader) list(name string, rule listRule) []string {
	raw, ok := r.lookup(name)
	if !ok {
		if rule.required {
			r.add(name, "is required")
		}
		return nil
	}
	if kindOf(raw) != "array" {
		r.add(name, "must be an array, got "+kindOf(raw))
		return nil
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		r.add(name, "must be an array, got malformed JSON")
		return nil
	}
	before := len(r.issues)
	typed := true
	vals := make([]string, 0, len(elems))
	for i, e := range elems {
		path := name + "." + strconv.Itoa(i)
		s, ok := asString(e)
		if !ok {
			typed = false
			r.add(path, rule.elemType+", got "+kindOf(e))
			continue
		}
		if msgs := rule.elem(s); len(msgs) > 0 {
			if rule.enum {
				typed = false
			}
			r.add(path, msgs...)
		}
		vals = append(vals, s)
	}
	r.add(name, checkCount(len(elems), rule.min, rule.max)...)
	if rule.unique && typed {
		r.add(name, checkUnique(vals)...)
	}
	if len(r.issues) > before {
		return nil
	}
	return vals
}

// limit reads a page-size property of the four tools; absent is 0 (the
// default).
func (r *argReader) limit(name string) int { return r.pageSize(name, minLimit, maxLimit) }

// pageSize reads a page-size property that must be an integer from lo to
// hi; absent is 0 (the tool's default). A size outside the bounds is
// refused, never clamped. Each tool has its own bounds; the type rules
// and the wording are the same for all.
func (r *argReader) pageSize(name string, lo, hi int) int {
	raw, ok := r.lookup(name)
	if !ok {
		return 0
	}
	if kindOf(raw) != "number" {
		r.add(name, fmt.Sprintf("must be an integer from %d to %d, got %s", lo, hi, kindOf(raw)))
		return 0
	}
	text := string(bytes.TrimSpace(raw))
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		r.add(name, "must be an integer, got malformed number "+show(text))
		return 0
	}
	// Out-of-range literals parse to ±Inf (or 0), which checkPageSize
	// refuses, just as JSON.parse turns them into Infinity.
	if msgs := checkPageSize(f, jsstring.Truncate(text, 32), lo, hi); len(msgs) > 0 {
		r.add(name, msgs...)
		return 0
	}
	return int(f)
}

// checkPageSize takes the number as JSON.parse would hold it, so that 5.0
// and 1e2 pass and 1.5 does not; shown is how the message quotes it.
func checkPageSize(f float64, shown string, lo, hi int) []string {
	if math.IsNaN(f) || f < float64(lo) || f > float64(hi) || f != float64(int64(f)) {
		return []string{fmt.Sprintf("must be an integer from %d to %d, got %s", lo, hi, shown)}
	}
	return nil
}

// page reads the four pagination properties, in schema order.
func (r *argReader) page() Page {
	var p Page
	p.Cursor = r.str("cursor", false, checkCursor)
	p.Limit = r.limit("limit")
	p.FindingsCursor = r.str("findingsCursor", false, checkCursor)
	p.FindingsLimit = r.limit("findingsLimit")
	return p
}

// finish reports the keys that are not schema properties, in input order,
// as one last issue.
func (r *argReader) finish() []issue {
	known := make(map[string]bool, len(r.known))
	for _, k := range r.known {
		known[k] = true
	}
	var unknown []string
	for _, k := range r.set.order {
		if !known[k] {
			unknown = append(unknown, show(k))
		}
	}
	switch len(unknown) {
	case 0:
	case 1:
		r.add("", "unknown argument "+unknown[0])
	default:
		r.add("", "unknown arguments "+strings.Join(unknown, ", "))
	}
	return r.issues
}

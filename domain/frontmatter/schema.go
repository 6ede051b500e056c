package frontmatter

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// Issue is one schema violation.
type Issue struct {
	Rule string // e.g. "invalid-type", "strict-unknown-key"
	// Field is the issue path joined with "."; "" for the root. For an
	// unknown key it is the object's path plus the key.
	Field string
	// Path is Field before joining: keys verbatim, array indices in
	// decimal. A key that itself contains "." stays one element here,
	// which is what mapping an issue back to a source line needs.
	Path    []string
	Message string

	// aborts marks the issues that stop later checks on every enclosing
	// node (wrong type, bad enum value, unknown key); the others
	// (format, size, uniqueness, cross-field rules) let them run.
	aborts bool
}

// validate checks a parsed YAML value against the frontmatter schema. It
// returns the validated value (defaults inserted, keys in schema order)
// when there are no issues, and otherwise nil and every issue, in the
// order the reference's validator reports them: an object's properties in
// schema order, then its unknown keys, array items in order before the
// array's own uniqueness check, and the cross-field rules last.
func validate(v any) (*jsvalue.Object, []Issue) {
	var s validation
	out := s.check(frontmatterSchema(), v, true, make([]string, 0, 16))
	if !s.abortedSince(0) {
		s.crossField(out.(*jsvalue.Object))
	}
	if len(s.issues) > 0 {
		return nil, s.issues
	}
	return out.(*jsvalue.Object), nil
}

// validation collects issues while one value is checked.
type validation struct{ issues []Issue }

func (s *validation) add(path []string, rule string, aborts bool, msg string) {
	p := slices.Clone(path)
	s.issues = append(s.issues, Issue{Rule: rule, Field: strings.Join(p, "."), Path: p, Message: msg, aborts: aborts})
}

// abortedSince reports whether an aborting issue was recorded at or after
// index start, i.e. inside the node being checked since then. A node's own
// checks (uniqueness, cross-field rules) only run when none was.
func (s *validation) abortedSince(start int) bool {
	for _, is := range s.issues[start:] {
		if is.aborts {
			return true
		}
	}
	return false
}

// check validates val against n and returns the output value: defaults
// inserted, absent optional members left out, keys in schema order. When
// present is false the key was missing (JavaScript undefined). The output
// is meaningless once an issue was recorded for the node.
func (s *validation) check(n *node, val any, present bool, path []string) any {
	if !present && n.kind != kindEnum {
		s.add(path, "required-field", true, missingMessage(path, n))
		return nil
	}
	switch n.kind {
	case kindString:
		return s.checkString(n, val, path)
	case kindEnum:
		str, ok := val.(string)
		if !present || !ok || !slices.Contains(n.values, str) {
			s.add(path, "invalid-enum-value", true, enumMessage(path, n.values, val, present))
		}
		return val
	case kindNumber:
		return s.checkNumber(n, val, path)
	case kindBool:
		if _, ok := val.(bool); !ok {
			s.add(path, "invalid-type", true, typeMessage(path, n, val))
		}
		return val
	case kindArray:
		return s.checkArray(n, val, path)
	case kindObject:
		return s.checkObject(n, val, path)
	case kindRecord:
		return s.checkRecord(n, val, path)
	}
	panic("frontmatter: unknown schema node kind")
}

func (s *validation) checkString(n *node, val any, path []string) any {
	str, ok := val.(string)
	if !ok {
		s.add(path, "invalid-type", true, typeMessage(path, n, val))
		return val
	}
	if n.minLen > 0 || n.maxLen > 0 {
		l := jsstring.Len(str)
		if (n.minLen > 0 && l < n.minLen) || (n.maxLen > 0 && l > n.maxLen) {
			s.add(path, "invalid-size", false, lengthMessage(path, n, l))
		}
	}
	switch n.format {
	case formatNone:
	case formatURL:
		trimmed, ok := checkURL(str)
		if !ok {
			s.add(path, "invalid-format", false, formatMessage(path, n.format, str))
			return str
		}
		return trimmed
	default:
		if !formatMatches(n.format, str) {
			s.add(path, "invalid-format", false, formatMessage(path, n.format, str))
		}
	}
	return str
}

func (s *validation) checkNumber(n *node, val any, path []string) any {
	f, ok := val.(float64)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		s.add(path, "invalid-type", true, typeMessage(path, n, val))
		return val
	}
	if n.integer {
		if f != math.Trunc(f) {
			s.add(path, "invalid-type", true, typeMessage(path, n, val))
			return val
		}
		if math.Abs(f) > maxSafeInteger {
			s.add(path, "invalid-size", false, unsafeIntegerMessage(path, f))
		}
	}
	if (n.hasMin && f < n.min) || (n.hasMax && f > n.max) {
		s.add(path, "invalid-size", false, rangeMessage(path, n, f))
	}
	return f
}

func (s *validation) checkArray(n *node, val any, path []string) any {
	items, ok := val.([]any)
	if !ok {
		s.add(path, "invalid-type", true, typeMessage(path, n, val))
		return val
	}
	start := len(s.issues)
	out := make([]any, len(items))
	for i, item := range items {
		out[i] = s.check(n.elem, item, true, appendPath(path, strconv.Itoa(i)))
	}
	if n.unique && !s.abortedSince(start) {
		if dups := duplicates(out); len(dups) > 0 {
			s.add(path, "unique-items", false, uniqueMessage(path, dups))
		}
	}
	return out
}

func (s *validation) checkObject(n *node, val any, path []string) any {
	obj, isObject := val.(*jsvalue.Object)
	if !isObject {
		s.add(path, "invalid-type", true, typeMessage(path, n, val))
		return val
	}
	// Sized to what it will hold: a record keeps its value for long.
	size := 0
	for _, f := range n.fields {
		if f.presence == defaulted || obj.Has(f.name) {
			size++
		}
	}
	out := jsvalue.NewObject(size)
	for _, f := range n.fields {
		fv, has := obj.Get(f.name)
		fp := appendPath(path, f.name)
		switch {
		case has:
			out.Set(f.name, s.check(f.node, fv, true, fp))
		case f.presence == required:
			s.check(f.node, nil, false, fp)
		case f.presence == defaulted:
			out.Set(f.name, f.def())
		}
	}
	for _, k := range ownKeyOrder(obj.Keys()) {
		if !n.hasField(k) {
			kp := appendPath(path, k)
			s.add(kp, "strict-unknown-key", true, unknownKeyMessage(kp))
		}
	}
	return out
}

func (s *validation) checkRecord(n *node, val any, path []string) any {
	obj, ok := val.(*jsvalue.Object)
	if !ok {
		s.add(path, "invalid-type", true, typeMessage(path, n, val))
		return val
	}
	out := jsvalue.NewObject(obj.Len())
	for _, k := range ownKeyOrder(obj.Keys()) {
		if k == "__proto__" {
			// Assigning it in JavaScript would set the prototype, not
			// add a member; the reference skips the key outright.
			continue
		}
		fv, _ := obj.Get(k)
		out.Set(k, s.check(n.value, fv, true, appendPath(path, k)))
	}
	return out
}

// crossField applies the five rules that relate fields to each other, in
// the reference's order, on the defaulted value. Only called when no
// aborting issue exists anywhere in the document.
func (s *validation) crossField(fm *jsvalue.Object) {
	status := getString(fm, "status")
	supersededBy := getString(fm, "supersededBy")
	prov := getObject(fm, "provenance")
	if status == string(adr.StatusSuperseded) && supersededBy == "" {
		s.add([]string{"supersededBy"}, "superseded-requires-supersededBy", false,
			`status is "superseded" but supersededBy does not name the record that replaces it`)
	}
	if supersededBy != "" && status != string(adr.StatusSuperseded) {
		s.add([]string{"status"}, "supersededBy-requires-superseded-status", false,
			"supersededBy names "+quote(supersededBy)+`, so status must be "superseded"; it is `+quote(status))
	}
	if status == string(adr.StatusAccepted) && len(getArray(fm, "deciders")) == 0 && getObject(prov, "importedFrom") == nil {
		s.add([]string{"deciders"}, "accepted-requires-decider-unless-imported", false,
			"an accepted record must list at least one decider in deciders; only a record with provenance.importedFrom may leave it empty")
	}
	if authoredBy := getString(prov, "authoredBy"); status == string(adr.StatusAccepted) &&
		(authoredBy == "agent" || authoredBy == "agent-drafted") && getString(prov, "ratifiedBy") == "" {
		s.add([]string{"provenance", "ratifiedBy"}, "agent-accepted-requires-ratifier", false,
			"provenance.authoredBy is "+quote(authoredBy)+", so an accepted record needs the human who ratified it in provenance.ratifiedBy")
	}
	if getString(fm, "reversibility") == "one-way-door" && getString(getObject(fm, "review"), "tier") == "auto" {
		s.add([]string{"review", "tier"}, "one-way-door-disallows-auto", false,
			`review.tier cannot be "auto" for a one-way-door decision; use "async" or "arb"`)
	}
}

const maxSafeInteger = 1<<53 - 1

// appendPath extends path by key. It may write into path's spare
// capacity, so one buffer serves a whole validation: every caller passes
// the result down and is done with it before it extends path by the next
// sibling, and what is kept (Issue.Path, messages) is copied.
func appendPath(path []string, key string) []string {
	return append(path, key)
}

// ownKeyOrder returns keys in JavaScript own-property order: keys that are
// array indices ("0" … "4294967294", no leading zeros) first in numeric
// order, then the others in insertion order. That is the order in which
// the reference enumerates unknown keys and record entries.
func ownKeyOrder(keys []string) []string {
	if !slices.ContainsFunc(keys, isArrayIndex) {
		return keys
	}
	var idx, rest []string
	for _, k := range keys {
		if isArrayIndex(k) {
			idx = append(idx, k)
		} else {
			rest = append(rest, k)
		}
	}
	if len(idx) == 0 {
		return keys
	}
	slices.SortStableFunc(idx, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return append(idx, rest...)
}

func isArrayIndex(k string) bool {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return false
		}
	}
	n, err := strconv.ParseUint(k, 10, 64)
	return err == nil && n < 1<<32-1
}

// duplicates returns, in order of first repetition, each item that occurs
// more than once, comparing items by their JSON text as the reference does.
func duplicates(items []any) []any {
	seen := make(map[string]int, len(items))
	var dups []any
	for _, it := range items {
		key := string(jsvalue.AppendJSON(nil, it))
		seen[key]++
		if seen[key] == 2 {
			dups = append(dups, it)
		}
	}
	return dups
}

func getString(o *jsvalue.Object, key string) string {
	v, _ := o.Get(key)
	s, _ := v.(string)
	return s
}

func getObject(o *jsvalue.Object, key string) *jsvalue.Object {
	v, _ := o.Get(key)
	m, _ := v.(*jsvalue.Object)
	return m
}

func getArray(o *jsvalue.Object, key string) []any {
	v, _ := o.Get(key)
	a, _ := v.([]any)
	return a
}

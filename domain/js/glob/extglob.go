package glob

import "slices"

// The reference refuses to emit repeated extglobs (`*(...)`, `+(...)`)
// whose regex could backtrack catastrophically: such a group becomes
// literal text, or a flat `[abc]*` when every branch is one character.
// These helpers decide which groups are "risky" exactly as it does, since
// the decision changes what the pattern matches.

// bodyScanner follows the nesting of an extglob body as the reference's
// scans do: escapes, double quotes and classes hide what they hold.
type bodyScanner struct {
	bracket, paren  int
	quoted, escaped bool
}

// next takes the next unit and reports whether it is outside escapes,
// quotes and classes; paren then counts the groups open after it.
func (s *bodyScanner) next(c uint16) bool {
	switch {
	case s.escaped:
		s.escaped = false
	case c == '\\':
		s.escaped = true
	case c == '"':
		s.quoted = !s.quoted
	case s.quoted:
	case c == '[':
		s.bracket++
	case c == ']' && s.bracket > 0:
		s.bracket--
	case s.bracket > 0:
	case c == '(':
		s.paren++
		return true
	case c == ')' && s.paren > 0:
		s.paren--
		return true
	default:
		return true
	}
	return false
}

// splitBranches splits an extglob body at top-level "|".
func splitBranches(in []uint16) [][]uint16 {
	var parts [][]uint16
	var s bodyScanner
	start := 0
	for i, c := range in {
		if s.next(c) && c == '|' && s.paren == 0 {
			parts = append(parts, in[start:i])
			start = i + 1
		}
	}
	return append(parts, in[start:])
}

func trimmedBranches(body []uint16) [][]uint16 {
	parts := splitBranches(body)
	for i := range parts {
		parts[i] = trimUnits(parts[i])
	}
	return parts
}

// isPlainBranch reports whether branch has no unescaped glob syntax.
func isPlainBranch(branch []uint16) bool {
	escaped := false
	for _, c := range branch {
		if escaped {
			escaped = false
			continue
		}
		if c == '\\' {
			escaped = true
			continue
		}
		switch c {
		case '?', '*', '+', '@', '!', '(', ')', '[', ']', '{', '}':
			return false
		}
	}
	return true
}

// simpleBranch reduces a branch to the literal text it matches (peeling
// `@(...)` wrappers and escapes), or reports that it is not literal.
func simpleBranch(branch []uint16) ([]uint16, bool) {
	v := trimUnits(branch)
	for isAtWrapped(v) {
		v = v[2 : len(v)-1]
	}
	if !isPlainBranch(v) {
		return nil, false
	}
	out := make([]uint16, 0, len(v))
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && !isLineTerminator(v[i+1]) {
			i++
		}
		out = append(out, v[i])
	}
	return out, true
}

// isAtWrapped is /^@\([^\\()[\]{}|]+\)$/.
func isAtWrapped(v []uint16) bool {
	if len(v) < 4 || v[0] != '@' || v[1] != '(' || v[len(v)-1] != ')' {
		return false
	}
	for _, c := range v[2 : len(v)-1] {
		switch c {
		case '\\', '(', ')', '[', ']', '{', '}', '|':
			return false
		}
	}
	return true
}

// hasRepeatedCharOverlap reports two literal branches that are runs of the
// same character (`a` and `aa`), the classic exponential case.
func hasRepeatedCharOverlap(branches [][]uint16) bool {
	var values [][]uint16
	for _, b := range branches {
		if v, ok := simpleBranch(b); ok && len(v) > 0 {
			values = append(values, v)
		}
	}
	for i := range values {
		for j := i + 1; j < len(values); j++ {
			a, b := values[i], values[j]
			if isRunOf(a, a[0]) && isRunOf(b, a[0]) {
				return true
			}
		}
	}
	return false
}

func isRunOf(v []uint16, c uint16) bool {
	for _, x := range v {
		if x != c {
			return false
		}
	}
	return true
}

// repeatedGroup parses a leading `*(...)` or `+(...)`. With requireEnd the
// group must span the whole input.
func repeatedGroup(p []uint16, requireEnd bool) (typ uint16, body []uint16, end int, ok bool) {
	if len(p) < 2 || (p[0] != '+' && p[0] != '*') || p[1] != '(' {
		return 0, nil, 0, false
	}
	var s bodyScanner
	for i := 1; i < len(p); i++ {
		// p[1] opens the group, so the first ")" that closes all
		// groups closes it.
		if s.next(p[i]) && p[i] == ')' && s.paren == 0 {
			if requireEnd && i != len(p)-1 {
				return 0, nil, 0, false
			}
			return p[0], p[2:i], i, true
		}
	}
	return 0, nil, 0, false
}

// starSequenceChars recognises a sequence of `*(x)` groups of single
// characters and returns those characters.
func starSequenceChars(p []uint16) ([][]uint16, bool) {
	var chars [][]uint16
	for i := 0; i < len(p); {
		typ, body, end, ok := repeatedGroup(p[i:], false)
		if !ok || typ != '*' {
			return nil, false
		}
		branches := trimmedBranches(body)
		if len(branches) != 1 {
			return nil, false
		}
		b, ok := simpleBranch(branches[0])
		if !ok || len(b) != 1 {
			return nil, false
		}
		chars = append(chars, b)
		i += end + 1
	}
	return chars, len(chars) > 0
}

// repeatedDepth counts directly nested repeated groups (`*(+(a))` is 2).
func repeatedDepth(p []uint16) int {
	depth := 0
	v := trimUnits(p)
	for {
		_, body, _, ok := repeatedGroup(v, true)
		if !ok {
			return depth
		}
		depth++
		v = trimUnits(body)
	}
}

// analyzeRepeated decides whether a repeated extglob with this body is
// risky, and if so whether it can be rewritten as a flat class star.
func analyzeRepeated(body []uint16) (risky bool, safe []uint16) {
	branches := trimmedBranches(body)
	if len(branches) > 1 {
		for _, b := range branches {
			if len(b) == 0 || onlyStarsAndQmarks(b) {
				return true, nil
			}
		}
		if hasRepeatedCharOverlap(branches) {
			return true, nil
		}
	}
	var chars [][]uint16
	sawStars, combinable := false, true
	for _, b := range branches {
		if cs, ok := starSequenceChars(b); ok {
			sawStars = true
			chars = append(chars, cs...)
			continue
		}
		if v, ok := simpleBranch(b); ok && len(v) == 1 {
			chars = append(chars, v)
			continue
		}
		combinable = false
		if repeatedDepth(b) > 0 {
			return true, nil
		}
	}
	if !sawStars {
		return false, nil
	}
	if !combinable {
		return true, nil
	}
	return true, classStar(uniqueUnits(chars))
}

func onlyStarsAndQmarks(b []uint16) bool {
	for _, c := range b {
		if c != '*' && c != '?' {
			return false
		}
	}
	return len(b) > 0
}

func uniqueUnits(in [][]uint16) [][]uint16 {
	var out [][]uint16
	for _, v := range in {
		if !slices.ContainsFunc(out, func(w []uint16) bool { return slices.Equal(v, w) }) {
			out = append(out, v)
		}
	}
	return out
}

func classStar(chars [][]uint16) []uint16 {
	var out []uint16
	if len(chars) == 1 {
		out = escapeRegex(chars[0])
	} else {
		out = lit("[")
		for _, c := range chars {
			out = append(out, escapeRegex(c)...)
		}
		out = append(out, ']')
	}
	return append(out, '*')
}

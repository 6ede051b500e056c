package glob

import (
	"strings"
	"unicode/utf16"
)

// Required endings: a pre-filter on the end of a candidate, the twin of
// program.prefix on its start.
//
// Every glob translates to a regex anchored at both ends, and most end in
// literal text: "**/*.proto" must end in ".proto" or ".proto/", and
// "libs/x/**/*_test.go" in "_test.go". A candidate that ends in none of a
// pattern's required endings cannot match, and saying so costs a string
// comparison instead of a run of the matcher, which is what
// get_decision_context pays for every distinct pattern and file on every
// call. The analysis below is conservative: whenever it cannot be sure it
// finds no ending (an ending of "" requires nothing), so the filter only
// ever rejects candidates the full matcher would reject too. FuzzMatch
// holds the filtered matcher to the unfiltered one.

// maxTails bounds the alternatives one analysis step carries; beyond it,
// they are narrowed to their longest common ending.
const maxTails = 16

// tailSet is what tails learns about the strings a node matches: each
// ends with one of alts. When exact is set, the node matches exactly the
// strings in alts (zero-width nodes match exactly "").
type tailSet struct {
	alts  [][]uint16
	exact bool
}

var (
	tailsEmpty = tailSet{alts: [][]uint16{nil}, exact: true}
	tailsAny   = tailSet{alts: [][]uint16{nil}}
)

// requiredEndings returns the endings one of which every candidate the
// regex matches ends with, as UTF-8, or nil when there are none to
// require. Only a regex whose top level ends with "$" (no flags: the end
// of the input) qualifies; the glob translation always has that shape.
func requiredEndings(re *regex) []string {
	root := re.root
	if root == nil || root.kind != nConcat || len(root.subs) == 0 {
		return nil
	}
	last := root.subs[len(root.subs)-1]
	if last.kind != nAssert || last.assert != aEnd {
		return nil
	}
	ts := tailsOfConcat(root.subs[:len(root.subs)-1])
	out := make([]string, 0, len(ts.alts))
	for _, a := range ts.alts {
		// Surrogates and U+FFFD have no faithful UTF-8 comparison (see
		// program.prefix); "" requires nothing.
		if len(a) == 0 || hasUnfaithfulUnit(a) {
			return nil
		}
		out = append(out, unitsString(a))
	}
	return out
}

func hasUnfaithfulUnit(u []uint16) bool {
	for _, c := range u {
		if utf16.IsSurrogate(rune(c)) || c == 0xFFFD {
			return true
		}
	}
	return false
}

// tails analyses one node.
func tails(n *rnode) tailSet {
	switch n.kind {
	case nChar:
		return tailSet{alts: [][]uint16{{n.c}}, exact: true}
	case nSet:
		return tailsOfSet(n.set)
	case nEmpty, nAssert, nLook:
		// Zero-width: whatever they assert, they add no characters.
		return tailsEmpty
	case nGroup:
		return tails(n.subs[0])
	case nConcat:
		return tailsOfConcat(n.subs)
	case nAlt:
		out := tailSet{exact: true}
		for _, s := range n.subs {
			t := tails(s)
			out.alts = append(out.alts, t.alts...)
			out.exact = out.exact && t.exact
		}
		return narrow(out)
	case nRepeat:
		// A non-empty run ends with one whole match of the body; an
		// optional body ("?") matches exactly what the body does, or "".
		t := tails(n.subs[0])
		t.exact = t.exact && n.min == 0 && n.max == 1
		if n.min == 0 {
			t.alts = append([][]uint16{nil}, t.alts...)
		}
		return narrow(t)
	}
	// Backreferences, and anything not listed: no knowledge.
	return tailsAny
}

// tailsOfSet: a small non-negated class is a choice of characters.
func tailsOfSet(s *charSet) tailSet {
	if s.negated {
		return tailsAny
	}
	var out tailSet
	for i := 0; i < len(s.ranges); i += 2 {
		for c := int(s.ranges[i]); c <= int(s.ranges[i+1]); c++ {
			if len(out.alts) == maxTails {
				return tailsAny
			}
			out.alts = append(out.alts, []uint16{uint16(c)})
		}
	}
	if len(out.alts) == 0 {
		// An empty class never matches; requiring nothing is still sound.
		return tailsAny
	}
	out.exact = true
	return out
}

// tailsOfConcat works from the last term back: while the terms so far
// match exactly known strings, each earlier term's endings are prefixed
// to them; the first term that is not exact contributes its endings and
// ends the walk.
func tailsOfConcat(subs []*rnode) tailSet {
	acc := tailsEmpty
	for i := len(subs) - 1; i >= 0 && acc.exact; i-- {
		t := tails(subs[i])
		if len(t.alts)*len(acc.alts) > maxTails*maxTails {
			// Too many combinations to carry: every one ends with one of
			// the endings so far, so what those share is required.
			return tailSet{alts: [][]uint16{commonEnding(acc.alts)}}
		}
		alts := make([][]uint16, 0, len(t.alts)*len(acc.alts))
		for _, head := range t.alts {
			for _, rest := range acc.alts {
				alts = append(alts, append(append([]uint16(nil), head...), rest...))
			}
		}
		acc = narrow(tailSet{alts: alts, exact: t.exact})
		if clipped := clip(acc.alts); clipped {
			// Long enough to reject whatever can be rejected: stop
			// (a literal of 64 Ki characters would make this quadratic).
			acc.exact = false
		}
	}
	return acc
}

// maxEnding bounds the length of an ending, in UTF-16 units.
const maxEnding = 64

// clip shortens every alternative to its last maxEnding units (still an
// ending of whatever the longer one ended), reporting whether any was cut.
func clip(alts [][]uint16) bool {
	cut := false
	for i, a := range alts {
		if len(a) > maxEnding {
			alts[i] = a[len(a)-maxEnding:]
			cut = true
		}
	}
	return cut
}

// narrow keeps a tail set within maxTails alternatives, dropping
// duplicates; past the bound it keeps only the longest ending all share
// (which loses exactness).
func narrow(t tailSet) tailSet {
	var uniq [][]uint16
	seen := map[string]bool{}
	for _, a := range t.alts {
		k := unitsKey(a)
		if !seen[k] {
			seen[k] = true
			uniq = append(uniq, a)
		}
	}
	t.alts = uniq
	if len(t.alts) > maxTails {
		return tailSet{alts: [][]uint16{commonEnding(t.alts)}}
	}
	return t
}

// commonEnding is the longest string every alternative ends with.
func commonEnding(alts [][]uint16) []uint16 {
	if len(alts) == 0 {
		return nil
	}
	end := alts[0]
	for _, a := range alts[1:] {
		n := 0
		for n < len(end) && n < len(a) && end[len(end)-1-n] == a[len(a)-1-n] {
			n++
		}
		end = end[len(end)-n:]
	}
	return append([]uint16(nil), end...)
}

func unitsKey(u []uint16) string {
	var b strings.Builder
	for _, c := range u {
		b.WriteByte(byte(c >> 8))
		b.WriteByte(byte(c))
	}
	return b.String()
}

// endsWithAny reports whether s ends with one of the endings.
func endsWithAny(s string, endings []string) bool {
	for _, e := range endings {
		if strings.HasSuffix(s, e) {
			return true
		}
	}
	return false
}

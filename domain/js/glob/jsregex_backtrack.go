package glob

import "slices"

// The backtracking matcher follows the ECMAScript specification's matcher
// semantics literally (continuations, capture reset on each repetition,
// atomic look-arounds, lookbehind matched right to left). It is used only
// for regexes with backreferences, where the memoised matcher does not
// apply, and it gives up after a fixed amount of work: a pattern that
// needs more is reported as not matching (the reference would backtrack
// for as long as it takes).

// backtrackBudget is the number of matcher steps one Match may spend, and
// backtrackDepth the deepest nesting of matcher calls (continuations nest,
// so depth grows with the input; the limit keeps the stack bounded).
const (
	backtrackBudget = 1 << 20
	backtrackDepth  = 1 << 15
)

type cont func(pos int, caps []int) bool

type backtracker struct {
	s       []uint16
	steps   int
	depth   int
	aborted bool
}

func (r *regex) backtrackMatch(s []uint16) bool {
	b := &backtracker{s: s}
	caps := make([]int, 2*(r.captures+1))
	for i := range caps {
		caps[i] = -1
	}
	done := func(int, []int) bool { return true }
	for start := 0; start <= len(s); start++ {
		if b.m(r.root, false, start, caps, done) {
			return true
		}
		if b.aborted {
			return false
		}
	}
	return false
}

func (b *backtracker) m(n *rnode, back bool, pos int, caps []int, k cont) bool {
	if b.aborted {
		return false
	}
	b.steps++
	if b.steps > backtrackBudget || b.depth >= backtrackDepth {
		b.aborted = true
		return false
	}
	b.depth++
	ok := b.step(n, back, pos, caps, k)
	b.depth--
	return ok
}

func (b *backtracker) step(n *rnode, back bool, pos int, caps []int, k cont) bool {
	switch n.kind {
	case nEmpty:
		return k(pos, caps)
	case nChar, nSet:
		var c uint16
		next := pos + 1
		if back {
			if pos == 0 {
				return false
			}
			c, next = b.s[pos-1], pos-1
		} else {
			if pos >= len(b.s) {
				return false
			}
			c = b.s[pos]
		}
		if n.kind == nChar && c != n.c || n.kind == nSet && !n.set.has(c) {
			return false
		}
		return k(next, caps)
	case nConcat:
		return b.seq(n.subs, back, pos, caps, k)
	case nAlt:
		for _, a := range n.subs {
			if b.m(a, back, pos, caps, k) {
				return true
			}
			if b.aborted {
				return false
			}
		}
		return false
	case nGroup:
		if n.capIndex == 0 {
			return b.m(n.subs[0], back, pos, caps, k)
		}
		return b.m(n.subs[0], back, pos, caps, func(y int, c []int) bool {
			c2 := append([]int(nil), c...)
			lo, hi := pos, y
			if back {
				lo, hi = y, pos
			}
			c2[2*n.capIndex], c2[2*n.capIndex+1] = lo, hi
			return k(y, c2)
		})
	case nAssert:
		if !assertHolds(n.assert, b.s, pos) {
			return false
		}
		return k(pos, caps)
	case nLook:
		var got []int
		ok := b.m(n.subs[0], !n.ahead, pos, caps, func(_ int, c []int) bool {
			got = c
			return true
		})
		if b.aborted {
			return false
		}
		if n.negated {
			if ok {
				return false
			}
			return k(pos, caps)
		}
		if !ok {
			return false
		}
		return k(pos, got)
	case nBackref:
		lo, hi := caps[2*n.ref], caps[2*n.ref+1]
		if lo < 0 || hi < 0 {
			return k(pos, caps)
		}
		l := hi - lo
		if back {
			if pos-l < 0 || !slices.Equal(b.s[pos-l:pos], b.s[lo:hi]) {
				return false
			}
			return k(pos-l, caps)
		}
		if pos+l > len(b.s) || !slices.Equal(b.s[pos:pos+l], b.s[lo:hi]) {
			return false
		}
		return k(pos+l, caps)
	case nRepeat:
		return b.rep(n, back, n.min, n.max, pos, caps, k)
	}
	return false
}

func (b *backtracker) seq(subs []*rnode, back bool, pos int, caps []int, k cont) bool {
	if len(subs) == 0 {
		return k(pos, caps)
	}
	first, rest := subs[0], subs[1:]
	if back {
		first, rest = subs[len(subs)-1], subs[:len(subs)-1]
	}
	return b.m(first, back, pos, caps, func(y int, c []int) bool {
		return b.seq(rest, back, y, c, k)
	})
}

// rep is the specification's RepeatMatcher.
func (b *backtracker) rep(n *rnode, back bool, minN, maxN, pos int, caps []int, k cont) bool {
	if maxN == 0 {
		return k(pos, caps)
	}
	d := func(y int, c []int) bool {
		if minN == 0 && y == pos {
			return false
		}
		nmin, nmax := minN, maxN
		if nmin > 0 {
			nmin--
		}
		if nmax > 0 {
			nmax--
		}
		return b.rep(n, back, nmin, nmax, y, c, k)
	}
	fresh := caps
	if n.capLo <= n.capHi {
		fresh = append([]int(nil), caps...)
		for i := n.capLo; i <= n.capHi; i++ {
			fresh[2*i], fresh[2*i+1] = -1, -1
		}
	}
	body := n.subs[0]
	if minN != 0 {
		return b.m(body, back, pos, fresh, d)
	}
	if !n.greedy {
		if k(pos, caps) {
			return true
		}
		return b.m(body, back, pos, fresh, d)
	}
	if b.m(body, back, pos, fresh, d) {
		return true
	}
	if b.aborted {
		return false
	}
	return k(pos, caps)
}

package glob

import (
	"errors"
	"unicode/utf16"
)

// The memoised matcher answers "does the regex match?" for regexes without
// backreferences in time proportional to program size × input length, so
// hostile patterns cannot make it backtrack exponentially.
//
// Without backreferences, whether a match can be completed from a program
// counter at an input position does not depend on how that state was
// reached: captures are unobservable, greedy and lazy quantifiers only
// order the search, and a look-around's outcome depends only on its
// position. The matcher therefore explores states (pc, pos) depth-first
// and memoises their outcome. Consuming instructions move strictly
// forward (backward inside a lookbehind), so the only cycles are
// zero-width ones at one position; they are handled by exploring a
// position's zero-width closure as a unit (JavaScript likewise rejects a
// loop iteration that matched nothing).

type opcode uint8

const (
	opChar opcode = iota
	opSet
	opSplit
	opJmp
	opAssert
	opLook
	opMatch
)

type inst struct {
	op  opcode
	c   uint16
	set *charSet
	x   int // jump target, split's first branch, assertion kind or look id
	y   int // split's second branch
}

type lookProg struct {
	node    *rnode
	start   int
	ahead   bool
	negated bool
}

type program struct {
	insts []inst
	looks []lookProg // their code follows the main program's, which starts at 0
	// anchored is true when the program begins with "^": only a match
	// starting at position 0 is possible.
	anchored bool
	// prefix is the literal text every match of an anchored program
	// starts with (the straight run of characters after "^"), as UTF-8;
	// checking it first rejects most candidates without any matching.
	prefix string
	// endings, when not empty, are the texts one of which every matching
	// candidate ends with (requiredEndings), as UTF-8.
	endings []string
}

// maxProgram bounds the compiled size of a regex (counted repetition is
// expanded). Sources beyond it are treated as never matching.
const maxProgram = 1 << 20

var errProgramTooLarge = errors.New("glob: regex too large to execute")

func compileProgram(re *regex) (*program, error) {
	c := &progCompiler{prog: &program{}}
	c.node(re.root, false)
	c.emit(inst{op: opMatch})
	for i := 0; i < len(c.prog.looks); i++ {
		lk := &c.prog.looks[i]
		lk.start = len(c.prog.insts)
		c.node(lk.node, !lk.ahead)
		c.emit(inst{op: opMatch})
	}
	if c.tooLarge {
		return nil, errProgramTooLarge
	}
	first := c.prog.insts[0]
	c.prog.anchored = first.op == opAssert && first.x == aBegin
	if c.prog.anchored {
		// No jump can land inside this run: jump targets are splits or
		// follow one, and the run holds none.
		var pre []uint16
		for _, in := range c.prog.insts[1:] {
			// Surrogates and U+FFFD have no faithful UTF-8 comparison.
			if in.op != opChar || utf16.IsSurrogate(rune(in.c)) || in.c == 0xFFFD {
				break
			}
			pre = append(pre, in.c)
		}
		c.prog.prefix = unitsString(pre)
	}
	c.prog.endings = requiredEndings(re)
	return c.prog, nil
}

type progCompiler struct {
	prog *program
	// tooLarge is set once the program outgrows maxProgram; from then on
	// node emits nothing.
	tooLarge bool
}

func (c *progCompiler) emit(i inst) int {
	c.prog.insts = append(c.prog.insts, i)
	return len(c.prog.insts) - 1
}

func (c *progCompiler) pc() int { return len(c.prog.insts) }

func (c *progCompiler) node(n *rnode, backward bool) {
	if c.tooLarge || len(c.prog.insts) > maxProgram {
		c.tooLarge = true
		return
	}
	switch n.kind {
	case nEmpty, nBackref:
		// Backreferences never reach this matcher.
	case nChar:
		c.emit(inst{op: opChar, c: n.c})
	case nSet:
		c.emit(inst{op: opSet, set: n.set})
	case nConcat:
		for i := range n.subs {
			s := n.subs[i]
			if backward {
				s = n.subs[len(n.subs)-1-i]
			}
			c.node(s, backward)
		}
	case nAlt:
		var exits []int
		for i, a := range n.subs {
			if i == len(n.subs)-1 {
				c.node(a, backward)
				break
			}
			split := c.emit(inst{op: opSplit, x: c.pc() + 1})
			c.node(a, backward)
			exits = append(exits, c.emit(inst{op: opJmp}))
			c.prog.insts[split].y = c.pc()
		}
		for _, e := range exits {
			c.prog.insts[e].x = c.pc()
		}
	case nGroup:
		c.node(n.subs[0], backward)
	case nRepeat:
		c.repeat(n, backward)
	case nAssert:
		c.emit(inst{op: opAssert, x: n.assert})
	case nLook:
		id := len(c.prog.looks)
		c.prog.looks = append(c.prog.looks, lookProg{node: n.subs[0], ahead: n.ahead, negated: n.negated})
		c.emit(inst{op: opLook, x: id})
	}
}

func (c *progCompiler) repeat(n *rnode, backward bool) {
	body := n.subs[0]
	if n.min > maxProgram || n.max > maxProgram {
		c.tooLarge = true
		return
	}
	for i := 0; i < n.min && !c.tooLarge; i++ {
		c.node(body, backward)
	}
	if n.max < 0 {
		loop := c.emit(inst{op: opSplit, x: c.pc() + 1})
		c.node(body, backward)
		c.emit(inst{op: opJmp, x: loop})
		c.prog.insts[loop].y = c.pc()
		return
	}
	var exits []int
	for i := n.min; i < n.max && !c.tooLarge; i++ {
		exits = append(exits, c.emit(inst{op: opSplit, x: c.pc() + 1}))
		c.node(body, backward)
	}
	for _, e := range exits {
		c.prog.insts[e].y = c.pc()
	}
}

// State marks; any value from markFirstGen upwards is the generation of the
// closure exploration that is visiting the state right now.
const (
	markUnknown  = 0
	markFail     = 1
	markSuccess  = 2
	markFirstGen = 3
)

// flatStateLimit is the largest state table allocated as a slice; bigger
// programs over long inputs fall back to a map of the states touched.
const flatStateLimit = 1 << 22

type memoMatcher struct {
	prog    *program
	s       []uint16
	n       int
	width   int
	flat    []uint32
	sparse  map[int]uint32
	looks   []uint8
	gen     uint32
	stack   []int
	visited []int
}

func (p *program) match(s []uint16) bool {
	m := &memoMatcher{prog: p, s: s, n: len(s), width: len(s) + 1, gen: markFirstGen - 1}
	if size := len(p.insts) * m.width; size <= flatStateLimit {
		m.flat = make([]uint32, size)
	} else {
		m.sparse = map[int]uint32{}
	}
	m.looks = make([]uint8, len(p.looks)*m.width)
	last := m.n
	if p.anchored {
		last = 0
	}
	for start := 0; start <= last; start++ {
		if m.reach(0, start, 1) {
			return true
		}
	}
	return false
}

func (m *memoMatcher) get(key int) uint32 {
	if m.flat != nil {
		return m.flat[key]
	}
	return m.sparse[key]
}

func (m *memoMatcher) set(key int, v uint32) {
	if m.flat != nil {
		m.flat[key] = v
		return
	}
	m.sparse[key] = v
}

// reach reports whether the program's Match instruction is reachable from
// pc at pos, reading forward (dir 1) or backward (dir -1).
func (m *memoMatcher) reach(pc, pos, dir int) bool {
	key := pc*m.width + pos
	switch m.get(key) {
	case markFail:
		return false
	case markSuccess:
		return true
	}
	m.gen++
	g := m.gen
	base, vbase := len(m.stack), len(m.visited)
	found := false
	visit := func(pc int) {
		k := pc*m.width + pos
		switch v := m.get(k); {
		case v == markSuccess:
			found = true
		case v == markFail || v == g:
		default:
			m.set(k, g)
			m.stack = append(m.stack, pc)
			m.visited = append(m.visited, k)
		}
	}
	visit(pc)
	for !found && len(m.stack) > base {
		cur := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		in := &m.prog.insts[cur]
		switch in.op {
		case opMatch:
			found = true
		case opChar, opSet:
			var c uint16
			if dir > 0 {
				if pos >= m.n {
					continue
				}
				c = m.s[pos]
			} else {
				if pos == 0 {
					continue
				}
				c = m.s[pos-1]
			}
			if in.op == opChar && c != in.c || in.op == opSet && !in.set.has(c) {
				continue
			}
			if m.reach(cur+1, pos+dir, dir) {
				found = true
			}
		case opJmp:
			visit(in.x)
		case opSplit:
			visit(in.y)
			visit(in.x)
		case opAssert:
			if assertHolds(in.x, m.s, pos) {
				visit(cur + 1)
			}
		case opLook:
			if m.look(in.x, pos) {
				visit(cur + 1)
			}
		}
	}
	m.stack = m.stack[:base]
	if found {
		m.set(key, markSuccess)
	} else {
		// Every state of a failed closure is a dead end from anywhere.
		for _, k := range m.visited[vbase:] {
			m.set(k, markFail)
		}
	}
	m.visited = m.visited[:vbase]
	return found
}

// look evaluates look-around id at pos (memoised per position).
func (m *memoMatcher) look(id, pos int) bool {
	k := id*m.width + pos
	lk := &m.prog.looks[id]
	if v := m.looks[k]; v != 0 {
		return v == 2
	}
	dir := 1
	if !lk.ahead {
		dir = -1
	}
	ok := m.reach(lk.start, pos, dir) != lk.negated
	m.looks[k] = 1
	if ok {
		m.looks[k] = 2
	}
	return ok
}

func assertHolds(kind int, s []uint16, pos int) bool {
	switch kind {
	case aBegin:
		return pos == 0
	case aEnd:
		return pos == len(s)
	}
	before := pos > 0 && isWordUnit(s[pos-1])
	after := pos < len(s) && isWordUnit(s[pos])
	return (before != after) == (kind == aWordBoundary)
}

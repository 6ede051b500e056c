package glob

import (
	"errors"
	"sort"
	"unicode"
	"unicode/utf16"
)

// A parser for JavaScript regular expressions without flags (no u, i, m, s
// or v), including the web-compatibility grammar of Annex B. It exists
// because the glob dialect's regexes use look-around and other features
// RE2 lacks, and because a source the JavaScript engine would reject must
// make the pattern never match: so validity has to follow the JavaScript
// grammar, not ours.

var errRegex = errors.New("invalid regular expression")

type nodeKind uint8

const (
	nEmpty nodeKind = iota
	nChar
	nSet
	nConcat
	nAlt
	nRepeat
	nGroup
	nAssert
	nLook
	nBackref
)

// Assertion kinds.
const (
	aBegin = iota
	aEnd
	aWordBoundary
	aNotWordBoundary
)

type rnode struct {
	kind nodeKind
	c    uint16
	set  *charSet
	subs []*rnode
	// Repeat.
	min, max int // max < 0: unbounded
	greedy   bool
	// Capture groups inside a repeat (reset on each iteration).
	capLo, capHi int
	// Group: capture index, 0 for a non-capturing group.
	capIndex int
	assert   int
	// Look-around.
	ahead, negated bool
	// Backreference: capture index, or refName for \k<name> until resolved.
	ref     int
	refName string
}

// charSet is a set of code units: sorted, non-overlapping inclusive ranges,
// possibly negated.
type charSet struct {
	ranges  []uint16 // pairs lo, hi
	negated bool
}

func (s *charSet) has(c uint16) bool {
	r := s.ranges
	i := sort.Search(len(r)/2, func(i int) bool { return r[2*i+1] >= c })
	in := i < len(r)/2 && r[2*i] <= c
	return in != s.negated
}

type setBuilder struct{ pairs [][2]uint16 }

func (b *setBuilder) add(lo, hi uint16) { b.pairs = append(b.pairs, [2]uint16{lo, hi}) }

func (b *setBuilder) addSet(s *charSet) {
	if !s.negated {
		for i := 0; i < len(s.ranges); i += 2 {
			b.add(s.ranges[i], s.ranges[i+1])
		}
		return
	}
	next := 0
	for i := 0; i < len(s.ranges); i += 2 {
		if int(s.ranges[i]) > next {
			b.add(uint16(next), s.ranges[i]-1)
		}
		next = int(s.ranges[i+1]) + 1
	}
	if next <= 0xFFFF {
		b.add(uint16(next), 0xFFFF)
	}
}

func (b *setBuilder) build(negated bool) *charSet {
	p := b.pairs
	sort.Slice(p, func(i, j int) bool { return p[i][0] < p[j][0] })
	var r []uint16
	for _, x := range p {
		n := len(r)
		if n > 0 && int(x[0]) <= int(r[n-1])+1 {
			if x[1] > r[n-1] {
				r[n-1] = x[1]
			}
			continue
		}
		r = append(r, x[0], x[1])
	}
	return &charSet{ranges: r, negated: negated}
}

func classOf(negated bool, pairs ...uint16) *charSet {
	var b setBuilder
	for i := 0; i < len(pairs); i += 2 {
		b.add(pairs[i], pairs[i+1])
	}
	return b.build(negated)
}

var (
	setDigit = classOf(false, '0', '9')
	setWord  = classOf(false, '0', '9', 'A', 'Z', '_', '_', 'a', 'z')
	setSpace = classOf(false, 0x09, 0x0D, 0x20, 0x20, 0xA0, 0xA0, 0x1680, 0x1680, 0x2000, 0x200A,
		0x2028, 0x2029, 0x202F, 0x202F, 0x205F, 0x205F, 0x3000, 0x3000, 0xFEFF, 0xFEFF)
	setDot = classOf(true, '\n', '\n', '\r', '\r', 0x2028, 0x2029)
)

func negatedCopy(s *charSet) *charSet { return &charSet{ranges: s.ranges, negated: !s.negated} }

// regex is a parsed pattern.
type regex struct {
	root        *rnode
	captures    int
	hasBackrefs bool
}

// reParser parses with a sticky error: fail records that JavaScript
// rejects the source and moves to its end, so every loop stops and the
// callers unwind without checking; parseRegex reports it once.
type reParser struct {
	src       []uint16
	pos       int
	err       error
	captures  int // total capturing groups in the pattern
	names     map[string]int
	hasNamed  bool
	nextCap   int
	backrefs  bool
	namedRefs []*rnode
}

// maxRegexDepth bounds the nesting the parser follows; deeper sources are
// treated as invalid rather than risking the stack.
const maxRegexDepth = 1 << 17

// parseRegex parses src or reports that JavaScript would reject it.
func parseRegex(src []uint16) (*regex, error) {
	p := &reParser{src: src}
	p.prescan()
	root := p.disjunction(0)
	if p.more() {
		// Only an unmatched ")" stops the top-level disjunction early.
		p.fail()
	}
	for _, n := range p.namedRefs {
		idx, ok := p.names[n.refName]
		if !ok {
			p.fail()
		}
		n.ref = idx
	}
	if p.err != nil {
		return nil, p.err
	}
	return &regex{root: root, captures: p.captures, hasBackrefs: p.backrefs}, nil
}

// fail returns nil so that a parsing method can return p.fail().
func (p *reParser) fail() *rnode {
	p.err = errRegex
	p.pos = len(p.src)
	return nil
}

// prescan counts capturing groups and collects group names: whether "\1"
// is a backreference, and whether "\k" must name a group, depend on the
// whole pattern.
func (p *reParser) prescan() {
	p.names = map[string]int{}
	s := p.src
	inClass := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '(':
			if i+1 < len(s) && s[i+1] == '?' {
				if i+2 < len(s) && s[i+2] == '<' && i+3 < len(s) && s[i+3] != '=' && s[i+3] != '!' {
					p.captures++
					p.hasNamed = true
				}
				continue
			}
			p.captures++
		}
	}
}

func (p *reParser) more() bool  { return p.pos < len(p.src) }
func (p *reParser) cur() uint16 { return p.src[p.pos] }
func (p *reParser) at(i int) int { // unit at pos+i or -1
	if j := p.pos + i; j < len(p.src) {
		return int(p.src[j])
	}
	return -1
}

func (p *reParser) disjunction(depth int) *rnode {
	if depth > maxRegexDepth {
		return p.fail()
	}
	var alts []*rnode
	for {
		alts = append(alts, p.alternative(depth))
		if p.more() && p.cur() == '|' {
			p.pos++
			continue
		}
		break
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return &rnode{kind: nAlt, subs: alts}
}

func (p *reParser) alternative(depth int) *rnode {
	var terms []*rnode
	for p.more() && p.cur() != '|' && p.cur() != ')' {
		terms = append(terms, p.term(depth))
	}
	switch len(terms) {
	case 0:
		return &rnode{kind: nEmpty}
	case 1:
		return terms[0]
	}
	return &rnode{kind: nConcat, subs: terms}
}

func (p *reParser) term(depth int) *rnode {
	c := p.cur()
	capBefore := p.nextCap
	var atom *rnode
	quantifiable := true
	switch c {
	case '^':
		p.pos++
		atom, quantifiable = &rnode{kind: nAssert, assert: aBegin}, false
	case '$':
		p.pos++
		atom, quantifiable = &rnode{kind: nAssert, assert: aEnd}, false
	case '\\':
		if b := p.at(1); b == 'b' || b == 'B' {
			p.pos += 2
			kind := aWordBoundary
			if b == 'B' {
				kind = aNotWordBoundary
			}
			atom, quantifiable = &rnode{kind: nAssert, assert: kind}, false
			break
		}
		atom = p.atomEscape()
	case '(':
		atom, quantifiable = p.group(depth)
	case '.':
		p.pos++
		atom = &rnode{kind: nSet, set: setDot}
	case '[':
		atom = p.class()
	case '*', '+', '?':
		return p.fail()
	case '{':
		if _, _, n := p.bracedQuantifier(); n > 0 {
			return p.fail()
		}
		fallthrough
	default:
		p.pos++
		atom = &rnode{kind: nChar, c: c}
	}
	if !p.more() {
		return atom
	}
	minN, maxN, ok := p.quantifier()
	if !ok {
		return atom
	}
	if !quantifiable {
		return p.fail()
	}
	greedy := true
	if p.more() && p.cur() == '?' {
		p.pos++
		greedy = false
	}
	return &rnode{kind: nRepeat, subs: []*rnode{atom}, min: minN, max: maxN, greedy: greedy,
		capLo: capBefore + 1, capHi: p.nextCap}
}

// quantifier parses an optional quantifier after an atom.
func (p *reParser) quantifier() (minN, maxN int, ok bool) {
	switch p.cur() {
	case '*':
		p.pos++
		return 0, -1, true
	case '+':
		p.pos++
		return 1, -1, true
	case '?':
		p.pos++
		return 0, 1, true
	case '{':
		lo, hi, n := p.bracedQuantifier()
		if n == 0 {
			return 0, 0, false
		}
		if hi >= 0 && hi < lo {
			p.fail()
			return 0, 0, false
		}
		p.pos += n
		return lo, hi, true
	}
	return 0, 0, false
}

// bracedQuantifier recognises {n}, {n,} or {n,m} at pos, returning the
// bounds (hi -1 when open) and the length, or length 0. Values saturate,
// as the JavaScript engine's do.
func (p *reParser) bracedQuantifier() (lo, hi, n int) {
	i := p.pos
	s := p.src
	if i >= len(s) || s[i] != '{' {
		return 0, 0, 0
	}
	i++
	lo, j := readDecimal(s, i)
	if j == i {
		return 0, 0, 0
	}
	i = j
	hi = lo
	if i < len(s) && s[i] == ',' {
		i++
		v, j := readDecimal(s, i)
		if j == i {
			hi = -1
		} else {
			hi = v
		}
		i = j
	}
	if i >= len(s) || s[i] != '}' {
		return 0, 0, 0
	}
	return lo, hi, i + 1 - p.pos
}

const saturate = 1 << 30

func readDecimal(s []uint16, i int) (int, int) {
	v := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if v < saturate {
			v = v*10 + int(s[i]-'0')
		}
		i++
	}
	if v > saturate {
		v = saturate
	}
	return v, i
}

// group parses a group or a look-around (pos at "("), reporting whether
// a quantifier may follow it.
func (p *reParser) group(depth int) (*rnode, bool) {
	s := p.src
	i := p.pos + 1
	if i < len(s) && s[i] == '?' {
		if i+1 >= len(s) {
			return p.fail(), false
		}
		switch s[i+1] {
		case ':':
			p.pos = i + 2
			return &rnode{kind: nGroup, subs: []*rnode{p.groupBody(depth)}}, true
		case '=', '!':
			p.pos = i + 2
			// Annex B lets a lookahead be quantified.
			return &rnode{kind: nLook, subs: []*rnode{p.groupBody(depth)}, ahead: true, negated: s[i+1] == '!'}, true
		case '<':
			if i+2 < len(s) && (s[i+2] == '=' || s[i+2] == '!') {
				p.pos = i + 3
				return &rnode{kind: nLook, subs: []*rnode{p.groupBody(depth)}, negated: s[i+2] == '!'}, false
			}
			p.pos = i + 2
			name := p.groupName()
			if _, dup := p.names[name]; dup {
				return p.fail(), false
			}
			p.nextCap++
			idx := p.nextCap
			p.names[name] = idx
			return &rnode{kind: nGroup, subs: []*rnode{p.groupBody(depth)}, capIndex: idx}, true
		}
		return p.fail(), false
	}
	p.pos = i
	p.nextCap++
	idx := p.nextCap
	return &rnode{kind: nGroup, subs: []*rnode{p.groupBody(depth)}, capIndex: idx}, true
}

func (p *reParser) groupBody(depth int) *rnode {
	body := p.disjunction(depth + 1)
	if !p.more() || p.cur() != ')' {
		return p.fail()
	}
	p.pos++
	return body
}

// groupName parses an identifier up to ">" (after "(?<" or "\k<"); it
// returns "" after failing.
func (p *reParser) groupName() string {
	var name []rune
	for p.more() && p.cur() != '>' {
		c := p.cur()
		r, ok := rune(c), true
		switch {
		case c == '\\':
			ok = p.at(1) == 'u'
			p.pos += 2
			if ok {
				r, ok = p.unicodeEscapeInName()
			}
		case utf16.IsSurrogate(rune(c)) && c < 0xDC00 && p.at(1) >= 0xDC00 && p.at(1) <= 0xDFFF:
			r = utf16.DecodeRune(rune(c), rune(p.at(1)))
			p.pos += 2
		default:
			p.pos++
		}
		if !ok || (len(name) == 0 && !isIDStart(r)) || (len(name) > 0 && !isIDContinue(r)) {
			p.fail()
			return ""
		}
		name = append(name, r)
	}
	if !p.more() || len(name) == 0 {
		p.fail()
		return ""
	}
	p.pos++ // ">"
	return string(name)
}

func (p *reParser) unicodeEscapeInName() (rune, bool) {
	if p.more() && p.cur() == '{' {
		j := p.pos + 1
		v := 0
		for j < len(p.src) && isHex(p.src[j]) {
			v = v*16 + hexVal(p.src[j])
			if v > 0x10FFFF {
				return 0, false
			}
			j++
		}
		if j == p.pos+1 || j >= len(p.src) || p.src[j] != '}' {
			return 0, false
		}
		p.pos = j + 1
		return rune(v), true
	}
	v, ok := p.hex4()
	if !ok {
		return 0, false
	}
	if v >= 0xD800 && v <= 0xDBFF && p.at(0) == '\\' && p.at(1) == 'u' {
		save := p.pos
		p.pos += 2
		if lo, ok := p.hex4(); ok && lo >= 0xDC00 && lo <= 0xDFFF {
			return utf16.DecodeRune(rune(v), rune(lo)), true
		}
		p.pos = save
	}
	return rune(v), true
}

func (p *reParser) hex4() (int, bool) {
	if p.pos+4 > len(p.src) {
		return 0, false
	}
	v := 0
	for k := 0; k < 4; k++ {
		c := p.src[p.pos+k]
		if !isHex(c) {
			return 0, false
		}
		v = v*16 + hexVal(c)
	}
	p.pos += 4
	return v, true
}

func isHex(c uint16) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func hexVal(c uint16) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

func isIDStart(r rune) bool {
	if r == '$' || r == '_' {
		return true
	}
	if unicode.Is(unicode.Pattern_Syntax, r) || unicode.Is(unicode.Pattern_White_Space, r) {
		return false
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

func isIDContinue(r rune) bool {
	if r == '$' || r == 0x200C || r == 0x200D || isIDStart(r) {
		return true
	}
	if unicode.Is(unicode.Pattern_Syntax, r) || unicode.Is(unicode.Pattern_White_Space, r) {
		return false
	}
	return unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}

// atomEscape parses an escape outside a class (pos at the backslash).
func (p *reParser) atomEscape() *rnode {
	s := p.src
	if p.pos+1 >= len(s) {
		return p.fail() // "\ at end of pattern"
	}
	c := s[p.pos+1]
	switch {
	case c >= '1' && c <= '9':
		v, j := readDecimal(s, p.pos+1)
		if v <= p.captures {
			p.pos = j
			p.backrefs = true
			return &rnode{kind: nBackref, ref: v}
		}
		// Not a backreference: a legacy octal escape, or "8"/"9" as
		// themselves.
		if c >= '8' {
			p.pos += 2
			return &rnode{kind: nChar, c: c}
		}
		p.pos++
		return &rnode{kind: nChar, c: p.octal()}
	case c == 'k' && p.hasNamed:
		if p.at(2) != '<' {
			return p.fail()
		}
		p.pos += 3
		n := &rnode{kind: nBackref, refName: p.groupName()}
		p.namedRefs = append(p.namedRefs, n)
		p.backrefs = true
		return n
	}
	set, ch := p.characterEscape(false)
	if set != nil {
		return &rnode{kind: nSet, set: set}
	}
	return &rnode{kind: nChar, c: ch}
}

// octal parses a legacy octal escape at pos (after the backslash): up to
// three digits, at most \377.
func (p *reParser) octal() uint16 {
	s := p.src
	v := int(s[p.pos] - '0')
	p.pos++
	if p.pos < len(s) && s[p.pos] >= '0' && s[p.pos] <= '7' {
		v = v*8 + int(s[p.pos]-'0')
		p.pos++
		if v < 32 && p.pos < len(s) && s[p.pos] >= '0' && s[p.pos] <= '7' {
			v = v*8 + int(s[p.pos]-'0')
			p.pos++
		}
	}
	return uint16(v)
}

// classEscapes and controlEscapes are the one-letter escapes that stand
// for a set of units or for one unit.
var (
	classEscapes = map[uint16]*charSet{'d': setDigit, 'D': negatedCopy(setDigit),
		's': setSpace, 'S': negatedCopy(setSpace), 'w': setWord, 'W': negatedCopy(setWord)}
	controlEscapes = map[uint16]uint16{'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}
)

// characterEscape parses the escapes shared by atoms and classes (pos at
// the backslash). It returns a set for \d \s \w and their negations, or a
// unit; a "\c" that is not a control escape is a literal backslash, and
// only the backslash is consumed.
func (p *reParser) characterEscape(inClass bool) (set *charSet, ch uint16) {
	s := p.src
	c := s[p.pos+1]
	if set, ok := classEscapes[c]; ok {
		p.pos += 2
		return set, 0
	}
	if u, ok := controlEscapes[c]; ok {
		p.pos += 2
		return nil, u
	}
	switch c {
	case 'c':
		if n := p.at(2); n >= 0 {
			l := uint16(n)
			if (l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z') || (inClass && ((l >= '0' && l <= '9') || l == '_')) {
				p.pos += 3
				return nil, l % 32
			}
		}
		p.pos++
		return nil, '\\'
	case '0':
		if n := p.at(2); n < '0' || n > '9' {
			p.pos += 2
			return nil, 0
		}
		p.pos++
		return nil, p.octal()
	case 'x':
		if p.pos+3 < len(s) && isHex(s[p.pos+2]) && isHex(s[p.pos+3]) {
			v := hexVal(s[p.pos+2])*16 + hexVal(s[p.pos+3])
			p.pos += 4
			return nil, uint16(v)
		}
		p.pos += 2
		return nil, 'x'
	case 'u':
		p.pos += 2
		if v, ok := p.hex4(); ok {
			return nil, uint16(v)
		}
		return nil, 'u'
	case 'k':
		if p.hasNamed {
			p.fail()
			return nil, 0
		}
	}
	if inClass && c >= '1' && c <= '9' {
		if c >= '8' {
			p.pos += 2
			return nil, c
		}
		p.pos++
		return nil, p.octal()
	}
	if inClass && c == 'b' {
		p.pos += 2
		return nil, '\b'
	}
	// Identity escape.
	p.pos += 2
	return nil, c
}

// class parses [...] (pos at "[").
func (p *reParser) class() *rnode {
	p.pos++
	negated := false
	if p.more() && p.cur() == '^' {
		negated = true
		p.pos++
	}
	var b setBuilder
	for {
		if !p.more() {
			return p.fail() // unterminated class
		}
		if p.cur() == ']' {
			p.pos++
			break
		}
		loSet, lo := p.classAtom()
		if p.more() && p.cur() == '-' && p.at(1) >= 0 && p.at(1) != ']' {
			p.pos++
			hiSet, hi := p.classAtom()
			if loSet != nil || hiSet != nil {
				// Annex B: a range with a class escape at either end
				// is just its parts and a literal "-".
				addAtom(&b, loSet, lo)
				b.add('-', '-')
				addAtom(&b, hiSet, hi)
				continue
			}
			if lo > hi {
				return p.fail() // range out of order
			}
			b.add(lo, hi)
			continue
		}
		addAtom(&b, loSet, lo)
	}
	return &rnode{kind: nSet, set: b.build(negated)}
}

func addAtom(b *setBuilder, s *charSet, c uint16) {
	if s != nil {
		b.addSet(s)
		return
	}
	b.add(c, c)
}

func (p *reParser) classAtom() (*charSet, uint16) {
	c := p.cur()
	if c != '\\' {
		p.pos++
		return nil, c
	}
	if p.pos+1 >= len(p.src) {
		p.fail()
		return nil, 0
	}
	return p.characterEscape(true)
}

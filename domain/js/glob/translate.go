package glob

import (
	"errors"
	"slices"
)

// The translator turns a glob into the source of a JavaScript regular
// expression, exactly as the reference's glob library (picomatch 4.0.5
// with dot:false, nonegate, case-sensitive, posix separators) would. The
// source is what fixes the dialect's many corner cases (classes passed
// through verbatim, `{1..10}` becoming `[1-10]`, `\b` being a word
// boundary, unbalanced groups making the whole pattern unusable), so it is
// reproduced token for token and then executed by our own engine
// (jsregex*.go).

// MaxPatternLength is the longest pattern, in UTF-16 code units, that
// compiles; the reference refuses longer ones.
const MaxPatternLength = 64 * 1024

// errThrows marks a pattern whose translation makes the reference's
// parser throw (a TypeError on a token that was popped by a brace range):
// the reference then reports the glob as invalid.
var errThrows = errors.New("glob: pattern makes the reference parser fail")

// Fixed regex fragments of the posix, dot:false dialect.
var (
	srcDotLiteral  = lit(`\.`)
	srcPlusLiteral = lit(`\+`)
	srcSlash       = lit(`\/`)
	srcOneChar     = lit(`(?=.)`)
	srcQmark       = lit(`[^/]`)
	srcQmarkNoDot  = lit(`[^.\/]`)
	srcNoDot       = lit(`(?!\.)`)
	srcNoDotSlash  = lit(`(?!\.{0,1}(?:\/|$))`)
	srcStar        = lit(`[^/]*?`)
	srcGlobstar    = lit(`(?:(?:(?!(?:^|\/)\.).)*?)`)
	srcMaybeSlash  = lit(`\/?`)
)

// posixClasses maps [[:name:]] to the class body that replaces it.
var posixClasses = map[string]string{
	"alnum":  `a-zA-Z0-9`,
	"alpha":  `a-zA-Z`,
	"ascii":  `\x00-\x7F`,
	"blank":  ` \t`,
	"cntrl":  `\x00-\x1F\x7F`,
	"digit":  `0-9`,
	"graph":  `\x21-\x7E`,
	"lower":  `a-z`,
	"print":  `\x20-\x7E `,
	"punct":  `\-!"#$%&'()\*+,./:;<=>?@[\]^_` + "`" + `{|}~`,
	"space":  ` \t\r\n\v\f`,
	"upper":  `A-Z`,
	"word":   `A-Za-z0-9_`,
	"xdigit": `A-Fa-f0-9`,
}

// translate returns the complete regex source for pattern (anchored and
// wrapped as the reference compiles it).
func translate(pattern []uint16) ([]uint16, error) {
	if len(pattern) > MaxPatternLength {
		return nil, ErrTooLong
	}
	if len(pattern) > 0 && (pattern[0] == '.' || pattern[0] == '*') {
		if src := fastShape(pattern); src != nil {
			return cat(lit("^(?:"), src, lit(")$")), nil
		}
	}
	body, err := parseGlob(pattern, true)
	if err != nil {
		return nil, err
	}
	return cat(lit("^(?:"), body, lit(")$")), nil
}

// shortcuts are whole patterns the reference rewrites before parsing.
func shortcut(in []uint16) []uint16 {
	switch {
	case eq(in, "***"):
		return lit("*")
	case eq(in, "**/**"), eq(in, "**/**/**"):
		return lit("**")
	}
	return in
}

func stripDotSlash(in []uint16) []uint16 {
	if hasPrefix(in, "./") {
		return in[2:]
	}
	return in
}

// fastShape handles the handful of whole-pattern shapes the reference
// compiles without tokenising (`*`, `**/*.md`, ...). It returns nil when
// pattern is not one of them.
func fastShape(pattern []uint16) []uint16 {
	src := shapeSource(stripDotSlash(shortcut(pattern)))
	if src == nil {
		return nil
	}
	return cat(src, srcMaybeSlash)
}

func shapeSource(s []uint16) []uint16 {
	// A shape may be followed by any number of ".<word characters>"
	// extensions (`*.d.ts`); they are peeled from the end. The text before
	// an extension may not hold a line terminator (the reference splits
	// with a regex whose "." stops there).
	firstLT := len(s)
	for i, c := range s {
		if isLineTerminator(c) {
			firstLT = i
			break
		}
	}
	var exts [][]uint16
	for {
		if base := exactShape(s); base != nil {
			for i := len(exts) - 1; i >= 0; i-- {
				base = cat(base, srcDotLiteral, exts[i])
			}
			return base
		}
		j := len(s)
		for j > 0 && isWordUnit(s[j-1]) {
			j--
		}
		if j == len(s) || j == 0 || s[j-1] != '.' || firstLT < j-1 {
			return nil
		}
		exts = append(exts, s[j:])
		s = s[:j-1]
	}
}

func exactShape(s []uint16) []uint16 {
	anyDirs := func() []uint16 { return cat(lit("(?:"), srcNoDot, srcGlobstar, srcSlash, lit(")?")) }
	switch {
	case eq(s, "*"):
		return cat(srcNoDot, srcOneChar, srcStar)
	case eq(s, ".*"):
		return cat(srcDotLiteral, srcOneChar, srcStar)
	case eq(s, "*.*"):
		return cat(srcNoDot, srcStar, srcDotLiteral, srcOneChar, srcStar)
	case eq(s, "*/*"):
		return cat(srcNoDot, srcStar, srcSlash, srcOneChar, srcNoDot, srcStar)
	case eq(s, "**"):
		return cat(srcNoDot, srcGlobstar)
	case eq(s, "**/*"):
		return cat(anyDirs(), srcNoDot, srcOneChar, srcStar)
	case eq(s, "**/*.*"):
		return cat(anyDirs(), srcNoDot, srcStar, srcDotLiteral, srcOneChar, srcStar)
	case eq(s, "**/.*"):
		return cat(anyDirs(), srcDotLiteral, srcOneChar, srcStar)
	}
	return nil
}

// simpleText is the reference's shortcut for patterns without slashes,
// groups, classes, braces or quotes: special characters are rewritten in
// place instead of tokenised. A run of one repeated special character is
// rewritten as a unit, and backslashes are then collapsed pairwise.
func simpleText(in []uint16) []uint16 {
	out := make([]uint16, 0, len(in)*2)
	backslashes := false
	for i := 0; i < len(in); {
		esc := false
		var first uint16
		j := i
		switch {
		case in[i] == '\\' && i+1 < len(in) && !isWordUnit(in[i+1]):
			esc, first, j = true, in[i+1], i+2
		case !isWordUnit(in[i]):
			first, j = in[i], i+1
		default:
			out = append(out, in[i])
			i++
			continue
		}
		for j < len(in) && in[j] == first {
			j++
		}
		match := in[i:j]
		chars := match
		if esc {
			chars = match[1:]
		}
		rest := len(chars) - 1
		switch first {
		case '\\':
			backslashes = true
			out = append(out, match...)
		case '?':
			qmarks := len(chars)
			switch {
			case esc:
				out = append(out, '\\', '?')
				qmarks--
			case i == 0:
				out = append(out, srcQmarkNoDot...)
				qmarks--
			}
			out = append(out, slices.Repeat(srcQmark, qmarks)...)
		case '.':
			out = append(out, slices.Repeat(srcDotLiteral, len(chars))...)
		case '*':
			if esc {
				out = append(out, '\\', '*')
				if rest > 0 {
					out = append(out, srcStar...)
				}
			} else {
				out = append(out, srcStar...)
			}
		default:
			if !esc {
				out = append(out, '\\')
			}
			out = append(out, match...)
		}
		i = j
	}
	if backslashes {
		collapsed := make([]uint16, 0, len(out))
		for i := 0; i < len(out); {
			if out[i] != '\\' {
				collapsed = append(collapsed, out[i])
				i++
				continue
			}
			j := i
			for j < len(out) && out[j] == '\\' {
				j++
			}
			if (j-i)%2 == 0 {
				collapsed = append(collapsed, '\\', '\\')
			} else {
				collapsed = append(collapsed, '\\')
			}
			i = j
		}
		out = collapsed
	}
	return out
}

// simpleEligible reports whether the simpleText shortcut applies.
func simpleEligible(in []uint16) bool {
	if len(in) > 0 && (in[0] == '*' || in[0] == '!') {
		return false
	}
	for _, c := range in {
		switch c {
		case '/', '(', ')', '[', ']', '{', '}', '"':
			return false
		}
	}
	return true
}

// Token kinds, named as the reference names them because later decisions
// look back at the kind of earlier tokens.
type kind uint8

const (
	kBos kind = iota
	kText
	kStar
	kGlobstar
	kSlash
	kDot
	kDots
	kQmark
	kParen
	kBracket
	kBrace
	kComma
	kPlus
	kAt
	kNegate
	kMaybeSlash
)

type token struct {
	kind  kind
	value []uint16
	// out is the regex text of the token; when hasOut is false the value
	// itself is emitted.
	out    []uint16
	hasOut bool
	prev   *token
	// star marks a run of three or more stars, which is a plain star.
	star    bool
	posix   bool
	extglob bool
	// Brace bookkeeping.
	comma, dots bool
	outputIndex int
	tokensIndex int
}

func (t *token) emitted() []uint16 {
	if t.hasOut {
		return t.out
	}
	return t.value
}

// setOut stores a private copy: outputs may later grow in place.
func (t *token) setOut(u []uint16) { t.out, t.hasOut = clone(u), true }

// extglob is an open @( ?( *( +( !( group.
type extglob struct {
	kind        kind // kQmark, kStar, kPlus or kNegate
	open, close []uint16
	inner       []uint16
	parens      int
	// The output as it was when the group opened: its length, and its
	// text once a rewrite of the output forced a copy (see rewrite).
	outLen      int
	output      []uint16
	saved       bool
	startIndex  int
	tokensIndex int
}

type glParser struct {
	in        []uint16
	idx       int
	start     int
	out       []uint16
	backtrack bool
	brackets  int
	braces    int
	parens    int
	quotes    int
	tokens    []*token
	bos       *token
	prev      *token
	extglobs  []*extglob
	braceToks []*token
	stack     []kind // kParen, kBracket or kBrace, as the reference tracks them
	lastClose int    // index of the last ']' in in, or -1
	err       error
}

// parseGlob tokenises in and returns the body of the regex (before the
// outer ^(?:...)$ that translate adds). simple enables the no-slash
// shortcut, as the reference does except for its nested `.ext` parse.
func parseGlob(in []uint16, simple bool) ([]uint16, error) {
	in = stripDotSlash(shortcut(in))
	if simple && simpleEligible(in) {
		return cat(lit("^(?:"), simpleText(in), lit(")$")), nil
	}
	p := &glParser{in: in, idx: -1, lastClose: lastIndexUnit(in, ']')}
	p.bos = &token{kind: kBos, value: nil, hasOut: true}
	p.tokens = []*token{p.bos}
	p.prev = p.bos
	p.run()
	if p.err != nil {
		return nil, p.err
	}
	return p.out, nil
}

func (p *glParser) eos() bool { return p.idx == len(p.in)-1 }

// peek returns the unit n ahead, or -1 past the end.
func (p *glParser) peek(n int) int {
	if i := p.idx + n; i >= 0 && i < len(p.in) {
		return int(p.in[i])
	}
	return -1
}

func (p *glParser) advance() []uint16 {
	p.idx++
	if p.idx < len(p.in) {
		return p.in[p.idx : p.idx+1]
	}
	return nil
}

func (p *glParser) remaining() []uint16 {
	if p.idx+1 >= len(p.in) {
		return nil
	}
	return p.in[p.idx+1:]
}

func (p *glParser) emit(u []uint16) { p.out = append(p.out, u...) }

// rewrite must precede any change to the output other than appending:
// open extglobs remember the output only by length until then, which keeps
// deeply nested groups from copying it once per level.
func (p *glParser) rewrite() {
	for _, e := range p.extglobs {
		if !e.saved {
			e.output, e.saved = clone(p.out[:e.outLen]), true
		}
	}
}

// openOutput returns the output as it was when e opened.
func (p *glParser) openOutput(e *extglob) []uint16 {
	if e.saved {
		return e.output
	}
	return p.out[:e.outLen]
}

func (p *glParser) setOutput(u []uint16) {
	p.rewrite()
	p.out = clone(u)
}

func (p *glParser) truncate(n int) {
	p.rewrite()
	p.out = p.out[:n]
}

func (p *glParser) dropOutputTail(k int) {
	p.rewrite()
	p.out = dropTail(p.out, k)
}

func (p *glParser) pushStack(k kind) {
	switch k {
	case kParen:
		p.parens++
	case kBracket:
		p.brackets++
	case kBrace:
		p.braces++
	}
	p.stack = append(p.stack, k)
}

func (p *glParser) popStack(k kind) {
	switch k {
	case kParen:
		p.parens--
	case kBracket:
		p.brackets--
	case kBrace:
		p.braces--
	}
	if len(p.stack) > 0 {
		p.stack = p.stack[:len(p.stack)-1]
	}
}

// push appends a token, first demoting a preceding globstar that turns out
// not to stand alone, and merging consecutive text tokens.
func (p *glParser) push(t *token) {
	if p.prev.kind == kGlobstar {
		isBrace := p.braces > 0 && (t.kind == kComma || t.kind == kBrace)
		isExt := t.extglob || (len(p.extglobs) > 0 && t.kind == kParen)
		if t.kind != kSlash && t.kind != kParen && !isBrace && !isExt {
			p.dropOutputTail(len(p.prev.out))
			p.prev.kind = kStar
			p.prev.value = lit("*")
			p.prev.setOut(srcStar)
			p.emit(p.prev.out)
		}
	}
	if n := len(p.extglobs); n > 0 && t.kind != kParen {
		p.extglobs[n-1].inner = append(p.extglobs[n-1].inner, t.value...)
	}
	p.emit(t.emitted())
	if p.prev.kind == kText && t.kind == kText {
		// Every token owns its value and output slices, so they can grow
		// in place (merging long runs of text stays linear).
		if p.prev.hasOut && len(p.prev.out) > 0 {
			p.prev.out = append(p.prev.out, t.value...)
		} else {
			p.prev.setOut(cat(p.prev.value, t.value))
		}
		p.prev.value = append(p.prev.value, t.value...)
		return
	}
	t.prev = p.prev
	p.tokens = append(p.tokens, t)
	p.prev = t
}

func (p *glParser) pushText(value []uint16) { p.push(&token{kind: kText, value: clone(value)}) }

func (p *glParser) pushOut(k kind, value, out []uint16) {
	p.push(&token{kind: k, value: clone(value), out: clone(out), hasOut: true})
}

func (p *glParser) run() {
	n := len(p.in)
	// The reference loops until its index lands exactly on the last unit;
	// a few malformed patterns make it jump past the end and never stop.
	// We stop there instead (see the package documentation).
	for p.idx < n-1 {
		value := p.advance()
		c := value[0]
		if c == 0 {
			continue
		}
		if c == '\\' {
			next := p.peek(1)
			if next == '/' || next == '.' || next == ';' {
				continue
			}
			if next < 0 {
				p.pushText(lit(`\\`))
				continue
			}
			run := 0
			for i := p.idx + 1; i < n && p.in[i] == '\\'; i++ {
				run++
			}
			value = lit(`\`)
			if run > 2 {
				p.idx += run
				if run%2 != 0 {
					value = append(value, '\\')
				}
			}
			value = cat(value, p.advance())
			if p.brackets == 0 {
				p.pushText(value)
				continue
			}
		}
		if p.brackets > 0 && (!eq(value, "]") || eq(p.prev.value, "[") || eq(p.prev.value, "[^")) {
			p.classUnit(value)
			continue
		}
		if p.quotes == 1 && !eq(value, `"`) {
			v := escapeRegex(value)
			p.prev.value = append(p.prev.value, v...)
			p.emit(v)
			continue
		}
		// From here on value is a single unit: escapes were consumed above.
		switch c = value[0]; {
		case c == '"':
			p.quotes ^= 1
			continue
		case c == '(':
			p.pushStack(kParen)
			p.push(&token{kind: kParen, value: lit("(")})
			continue
		case c == ')':
			if k := len(p.extglobs); k > 0 && p.parens == p.extglobs[k-1].parens+1 {
				e := p.extglobs[k-1]
				p.extglobs = p.extglobs[:k-1]
				p.closeExtglob(e)
				if p.err != nil {
					return
				}
				continue
			}
			out := lit(`\)`)
			if p.parens != 0 {
				out = lit(")")
			}
			p.pushOut(kParen, lit(")"), out)
			p.popStack(kParen)
			continue
		case c == '[':
			v := lit("[")
			if p.lastClose <= p.idx {
				v = lit(`\[`)
			} else {
				p.pushStack(kBracket)
			}
			p.push(&token{kind: kBracket, value: v})
			continue
		case c == ']':
			p.closeBracket()
			continue
		case c == '{':
			p.pushStack(kBrace)
			open := &token{kind: kBrace, value: lit("{"), out: lit("("), hasOut: true,
				outputIndex: len(p.out), tokensIndex: len(p.tokens)}
			p.braceToks = append(p.braceToks, open)
			p.push(open)
			continue
		case c == '}':
			p.closeBrace()
			continue
		case c == '|':
			p.pushText(lit("|"))
			continue
		case c == ',':
			out := lit(",")
			if k := len(p.braceToks); k > 0 && len(p.stack) > 0 && p.stack[len(p.stack)-1] == kBrace {
				p.braceToks[k-1].comma = true
				out = lit("|")
			}
			p.pushOut(kComma, lit(","), out)
			continue
		case c == '/':
			if p.prev.kind == kDot && p.idx == p.start+1 {
				// A leading "./" (after the one already stripped) is
				// dropped entirely.
				p.start = p.idx + 1
				p.truncate(0)
				p.tokens = p.tokens[:len(p.tokens)-1]
				p.prev = p.bos
				continue
			}
			p.pushOut(kSlash, lit("/"), srcSlash)
			continue
		case c == '.':
			if p.braces > 0 && p.prev.kind == kDot {
				if eq(p.prev.value, ".") {
					p.prev.setOut(srcDotLiteral)
				}
				brace := p.braceToks[len(p.braceToks)-1]
				p.prev.kind = kDots
				p.prev.setOut(cat(p.prev.out, lit(".")))
				p.prev.value = cat(p.prev.value, lit("."))
				brace.dots = true
				continue
			}
			if p.braces+p.parens == 0 && p.prev.kind != kBos && p.prev.kind != kSlash {
				p.pushOut(kText, lit("."), srcDotLiteral)
				continue
			}
			p.pushOut(kDot, lit("."), srcDotLiteral)
			continue
		case c == '?':
			isGroup := eq(p.prev.value, "(")
			if !isGroup && p.peek(1) == '(' && p.peek(2) != '?' {
				p.openExtglob(kQmark, value)
				continue
			}
			if p.prev.kind == kParen {
				next := p.peek(1)
				out := lit("?")
				if (eq(p.prev.value, "(") && !isLookChar(next)) || (next == '<' && !hasLookbehindOrName(p.remaining())) {
					out = lit(`\?`)
				}
				p.pushOut(kText, lit("?"), out)
				continue
			}
			if p.prev.kind == kSlash || p.prev.kind == kBos {
				p.pushOut(kQmark, lit("?"), srcQmarkNoDot)
				continue
			}
			p.pushOut(kQmark, lit("?"), srcQmark)
			continue
		case c == '!':
			if p.peek(1) == '(' && (p.peek(2) != '?' || !isLookChar(p.peek(3))) {
				p.openExtglob(kNegate, value)
				continue
			}
			// nonegate: a "!" is ordinary text.
		case c == '+':
			if p.peek(1) == '(' && p.peek(2) != '?' {
				p.openExtglob(kPlus, value)
				continue
			}
			if eq(p.prev.value, "(") {
				p.pushOut(kPlus, lit("+"), srcPlusLiteral)
				continue
			}
			if k := p.prev.kind; k == kBracket || k == kParen || k == kBrace || p.parens > 0 {
				p.push(&token{kind: kPlus, value: lit("+")})
				continue
			}
			p.push(&token{kind: kPlus, value: clone(srcPlusLiteral)})
			continue
		case c == '@':
			if p.peek(1) == '(' && p.peek(2) != '?' {
				p.push(&token{kind: kAt, value: lit("@"), hasOut: true, extglob: true})
				continue
			}
			p.pushText(lit("@"))
			continue
		}
		if !eq(value, "*") {
			p.plainText(value)
			continue
		}
		p.starToken()
	}
	p.finish()
}

// isLookChar is /[!=<:]/ applied to one unit (absent units never match).
func isLookChar(c int) bool { return c == '!' || c == '=' || c == '<' || c == ':' }

// hasLookbehindOrName is /<([!=]|\w+>)/ searched anywhere in rest.
func hasLookbehindOrName(rest []uint16) bool {
	for i, c := range rest {
		if c != '<' || i+1 >= len(rest) {
			continue
		}
		if rest[i+1] == '!' || rest[i+1] == '=' {
			return true
		}
		j := i + 1
		for j < len(rest) && isWordUnit(rest[j]) {
			j++
		}
		if j > i+1 && j < len(rest) && rest[j] == '>' {
			return true
		}
	}
	return false
}

// isNonSpecial is the class of characters the reference slurps into one
// text token: everything but @ ! [ ] . , $ * + ? ^ { } ( ) | \ /.
func isNonSpecial(c uint16) bool {
	switch c {
	case '@', '!', '[', ']', '.', ',', '$', '*', '+', '?', '^', '{', '}', '(', ')', '|', '\\', '/':
		return false
	}
	return true
}

func (p *glParser) plainText(value []uint16) {
	if eq(value, "$") || eq(value, "^") {
		value = cat(lit(`\`), value)
	} else {
		value = clone(value)
	}
	j := p.idx + 1
	for j < len(p.in) && isNonSpecial(p.in[j]) {
		j++
	}
	value = append(value, p.in[p.idx+1:j]...)
	p.idx = j - 1
	p.pushText(value)
}

// classUnit handles one unit (or escape) inside an open [...] class,
// including the [:name:] POSIX classes.
func (p *glParser) classUnit(value []uint16) {
	prev := p.prev
	if eq(value, ":") && len(prev.value) > 0 {
		inner := prev.value[1:]
		if slices.Contains(inner, '[') {
			prev.posix = true
			if slices.Contains(inner, ':') {
				i := lastIndexUnit(prev.value, '[')
				pre := prev.value[:i]
				var rest []uint16
				if i+2 <= len(prev.value) {
					rest = prev.value[i+2:]
				}
				// Only ASCII units decode to an ASCII name.
				if body, ok := posixClasses[unitsString(rest)]; ok {
					prev.value = cat(pre, lit(body))
					p.backtrack = true
					p.advance()
					if len(p.bos.out) == 0 && len(p.tokens) > 1 && p.tokens[1] == prev {
						p.bos.setOut(srcOneChar)
					}
					return
				}
			}
		}
	}
	if (eq(value, "[") && p.peek(1) != ':') || (eq(value, "-") && p.peek(1) == ']') {
		value = cat(lit(`\`), value)
	}
	if eq(value, "]") && (eq(prev.value, "[") || eq(prev.value, "[^")) {
		value = cat(lit(`\`), value)
	}
	prev.value = append(prev.value, value...)
	p.emit(value)
}

func (p *glParser) closeBracket() {
	if p.brackets == 0 || (p.prev.kind == kBracket && len(p.prev.value) == 1) {
		p.pushOut(kText, lit("]"), lit(`\]`))
		return
	}
	p.popStack(kBracket)
	prev := p.prev
	var inner []uint16
	if len(prev.value) > 0 {
		inner = prev.value[1:]
	}
	value := lit("]")
	if !prev.posix && len(inner) > 0 && inner[0] == '^' && !slices.Contains(inner, '/') {
		value = lit("/]")
	}
	prev.value = append(prev.value, value...)
	p.emit(value)
	if slices.ContainsFunc(inner, regexSpecial) {
		return
	}
	// A class without regex-special characters also matches its own
	// literal text: `[abc]` matches "a", "b", "c" or "[abc]".
	escaped := escapeRegex(prev.value)
	p.dropOutputTail(len(prev.value))
	prev.value = cat(lit("(?:"), escaped, lit("|"), prev.value, lit(")"))
	p.emit(prev.value)
}

func (p *glParser) closeBrace() {
	if len(p.braceToks) == 0 {
		p.pushOut(kText, lit("}"), lit("}"))
		return
	}
	brace := p.braceToks[len(p.braceToks)-1]
	value := lit("}")
	out := lit(")")
	if brace.dots {
		var rng [][]uint16
		for i := len(p.tokens) - 1; i >= 0; i-- {
			t := p.tokens[i]
			p.tokens = p.tokens[:i]
			if t.kind == kBrace {
				break
			}
			if t.kind != kDots {
				rng = append([][]uint16{t.value}, rng...)
			}
		}
		out = expandRange(rng)
		p.backtrack = true
	}
	if !brace.comma && !brace.dots {
		// A brace without alternatives is literal text.
		if brace.outputIndex <= len(p.out) {
			p.truncate(brace.outputIndex)
		}
		toks := p.tokens[min(brace.tokensIndex, len(p.tokens)):]
		brace.value = lit(`\{`)
		brace.setOut(lit(`\{`))
		value = lit(`\}`)
		out = lit(`\}`)
		for _, t := range toks {
			if t.hasOut && len(t.out) > 0 {
				p.emit(t.out)
			} else {
				p.emit(t.value)
			}
		}
	}
	p.pushOut(kBrace, value, out)
	p.popStack(kBrace)
	p.braceToks = p.braceToks[:len(p.braceToks)-1]
}

// expandRange turns the bounds of {a..c} into a class, sorted by code
// unit; when the class would not be a valid regex the bounds stay
// literal, joined by "..".
func expandRange(args [][]uint16) []uint16 {
	// JavaScript's default sort: by code unit.
	sorted := slices.SortedFunc(slices.Values(args), slices.Compare)
	cls := lit("[")
	for i, a := range sorted {
		if i > 0 {
			cls = append(cls, '-')
		}
		cls = append(cls, a...)
	}
	cls = append(cls, ']')
	if _, err := parseRegex(cls); err == nil {
		return cls
	}
	var out []uint16
	for i, a := range sorted {
		if i > 0 {
			out = append(out, '.', '.')
		}
		out = append(out, escapeRegex(a)...)
	}
	return out
}

func (p *glParser) openExtglob(k kind, value []uint16) {
	e := &extglob{kind: k, parens: p.parens, outLen: len(p.out),
		startIndex: p.idx, tokensIndex: len(p.tokens)}
	e.open = lit("(?:")
	switch k {
	case kNegate:
		e.open, e.close = lit("(?:(?!(?:"), cat(lit("))"), srcStar, lit(")"))
	case kQmark:
		e.close = lit(")?")
	case kPlus:
		e.close = lit(")+")
	case kStar:
		e.close = lit(")*")
	}
	p.pushStack(kParen)
	lead := srcOneChar
	if len(p.out) > 0 {
		lead = nil
	}
	p.push(&token{kind: k, value: clone(value), out: clone(lead), hasOut: true})
	paren := p.advance()
	p.push(&token{kind: kParen, extglob: true, value: clone(paren), out: clone(e.open), hasOut: true})
	p.extglobs = append(p.extglobs, e)
}

func (p *glParser) closeExtglob(e *extglob) {
	literal := p.in[e.startIndex : p.idx+1]
	body := p.in[e.startIndex+2 : p.idx]
	value := lit(")")
	if e.kind == kPlus || e.kind == kStar {
		if risky, safe := analyzeRepeated(body); risky {
			// A repeated group that could backtrack catastrophically is
			// neutralised: it becomes literal text, or a flat class when
			// every branch is a single character.
			if e.tokensIndex >= len(p.tokens) {
				p.err = errThrows
				return
			}
			open := p.tokens[e.tokensIndex]
			open.kind = kText
			open.value = clone(literal)
			if safe != nil {
				lead := srcOneChar
				if e.outLen > 0 {
					lead = nil
				}
				open.setOut(cat(lead, safe))
			} else {
				open.setOut(escapeRegex(literal))
			}
			for _, t := range p.tokens[e.tokensIndex+1:] {
				t.value = nil
				t.setOut(nil)
			}
			p.rewrite()
			p.out = cat(p.openOutput(e), open.out)
			p.backtrack = true
			p.pushOut(kParen, value, nil)
			p.popStack(kParen)
			return
		}
	}
	out := e.close
	if e.kind == kNegate {
		extStar := srcStar
		if len(e.inner) > 1 && slices.Contains(e.inner, '/') {
			extStar = srcGlobstar
		}
		rest := p.remaining()
		if !slices.Equal(extStar, srcStar) || p.eos() || (len(rest) > 0 && isRunOf(rest, ')')) {
			out = cat(lit(")$))"), extStar)
		}
		if slices.Contains(e.inner, '*') && dotExtension(rest) {
			expr, err := parseGlob(rest, false)
			if err != nil {
				p.err = err
				return
			}
			out = cat(lit(")"), expr, lit(")"), extStar, lit(")"))
		}
	}
	p.push(&token{kind: kParen, extglob: true, value: value, out: clone(out), hasOut: true})
	p.popStack(kParen)
}

// dotExtension is /^\.[^\\/.]+$/.
func dotExtension(u []uint16) bool {
	if len(u) < 2 || u[0] != '.' {
		return false
	}
	for _, c := range u[1:] {
		if c == '\\' || c == '/' || c == '.' {
			return false
		}
	}
	return true
}

func (p *glParser) starToken() {
	prev := p.prev
	if prev.kind == kGlobstar || prev.star {
		prev.kind = kStar
		prev.star = true
		prev.value = append(prev.value, '*')
		prev.setOut(srcStar)
		p.backtrack = true
		return
	}
	rest := p.remaining()
	if len(rest) >= 2 && rest[0] == '(' && rest[1] != '?' {
		p.openExtglob(kStar, lit("*"))
		return
	}
	if prev.kind == kStar {
		p.secondStar(rest)
		return
	}
	tok := &token{kind: kStar, value: lit("*"), out: clone(srcStar), hasOut: true}
	if p.idx == p.start || prev.kind == kSlash || prev.kind == kDot {
		guard := srcNoDot
		if prev.kind == kDot {
			guard = srcNoDotSlash
		}
		p.emit(guard)
		prev.setOut(cat(prev.out, guard))
		if p.peek(1) != '*' {
			p.emit(srcOneChar)
			prev.setOut(cat(prev.out, srcOneChar))
		}
	}
	p.push(tok)
}

// secondStar handles the second star of "**", which is a globstar only
// when it stands for whole segments.
func (p *glParser) secondStar(rest []uint16) {
	prev := p.prev
	prior := prev.prev
	before := prior.prev
	isStart := prior.kind == kSlash || prior.kind == kBos
	afterStar := before != nil && (before.kind == kStar || before.kind == kGlobstar)
	isBrace := p.braces > 0 && (prior.kind == kComma || prior.kind == kBrace)
	isExt := len(p.extglobs) > 0 && prior.kind == kParen
	if !isStart && prior.kind != kParen && !isBrace && !isExt {
		p.push(&token{kind: kStar, value: lit("*"), hasOut: true})
		return
	}
	for hasPrefix(rest, "/**") {
		if after := p.peek(4); after >= 0 && after != '/' {
			break
		}
		rest = rest[3:]
		p.idx += 3
	}
	prev.kind = kGlobstar
	prev.value = append(prev.value, '*')
	switch {
	case prior.kind == kBos && p.eos():
		prev.setOut(srcGlobstar)
		p.setOutput(srcGlobstar)
	case prior.kind == kSlash && prior.prev.kind != kBos && !afterStar && p.eos():
		p.dropOutputTail(len(prior.out) + len(prev.out))
		prior.setOut(cat(lit("(?:"), prior.out))
		prev.setOut(cat(srcGlobstar, lit("|$)")))
		p.emit(prior.out)
		p.emit(prev.out)
	case prior.kind == kSlash && prior.prev.kind != kBos && len(rest) > 0 && rest[0] == '/':
		end := lit("")
		if len(rest) > 1 {
			end = lit("|$")
		}
		p.dropOutputTail(len(prior.out) + len(prev.out))
		prior.setOut(cat(lit("(?:"), prior.out))
		prev.setOut(cat(srcGlobstar, srcSlash, lit("|"), srcSlash, end, lit(")")))
		p.emit(prior.out)
		p.emit(prev.out)
		p.advance()
		p.pushOut(kSlash, lit("/"), nil)
	case prior.kind == kBos && len(rest) > 0 && rest[0] == '/':
		prev.setOut(cat(lit("(?:^|"), srcSlash, lit("|"), srcGlobstar, srcSlash, lit(")")))
		p.setOutput(prev.out)
		p.advance()
		p.pushOut(kSlash, lit("/"), nil)
	default:
		p.dropOutputTail(len(prev.out))
		prev.setOut(srcGlobstar)
		p.emit(prev.out)
	}
}

// finish escapes unclosed openers, adds the optional trailing slash and,
// when earlier tokens were rewritten, rebuilds the output from the tokens
// (which discards the escaping again, as the reference does).
func (p *glParser) finish() {
	// Nothing after this reads the counts or the stack, so they are not
	// unwound.
	p.out = escapeLastN(p.out, '[', p.brackets)
	p.out = escapeLastN(p.out, '(', p.parens)
	p.out = escapeLastN(p.out, '{', p.braces)
	if p.prev.kind == kStar || p.prev.kind == kBracket {
		p.pushOut(kMaybeSlash, nil, srcMaybeSlash)
	}
	if p.backtrack {
		var out []uint16
		for _, t := range p.tokens {
			out = append(out, t.emitted()...)
		}
		p.out = out
	}
}

// escapeLastN escapes the n last occurrences of c that are not already
// preceded by a backslash (n successive applications of the reference's
// escape-the-last-one helper, done in one pass).
func escapeLastN(s []uint16, c uint16, n int) []uint16 {
	var at []int
	for i := len(s) - 1; i >= 0 && len(at) < n; i-- {
		if s[i] == c && !(i > 0 && s[i-1] == '\\') {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return s
	}
	out := make([]uint16, 0, len(s)+len(at))
	k := len(at) - 1
	for i, u := range s {
		if k >= 0 && at[k] == i {
			out = append(out, '\\')
			k--
		}
		out = append(out, u)
	}
	return out
}

package glob

// referenceLoops reports whether the reference would never finish
// compiling pattern (tests use it to keep such patterns away from it).
func referenceLoops(pattern []uint16) bool {
	in := shortcut(pattern)
	if len(in) > 0 && (in[0] == '.' || in[0] == '*') && fastShape(pattern) != nil {
		return false
	}
	in = stripDotSlash(in)
	if simpleEligible(in) {
		return false
	}
	p := &glParser{in: in, idx: -1, lastClose: lastIndexUnit(in, ']')}
	p.bos = &token{kind: kBos, hasOut: true}
	p.tokens = []*token{p.bos}
	p.prev = p.bos
	p.run()
	return p.overran
}

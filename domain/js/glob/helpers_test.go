package glob

// MustCompile is Compile for patterns known to be valid.
func MustCompile(pattern string) *Glob {
	g, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return g
}

// sourceUnits is the JavaScript regex source g's pattern translates to.
func sourceUnits(g *Glob) []uint16 {
	src, err := translate(toUnits(g.pattern))
	if err != nil {
		panic(err) // g compiled, so its pattern translates
	}
	return src
}

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
	// The reference loops until its index lands exactly on the last
	// unit; run stops once the index has jumped past it.
	return p.idx > len(p.in)-1
}

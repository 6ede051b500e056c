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

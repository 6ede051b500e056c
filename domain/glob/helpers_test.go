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

// sourceOf is the regex source as the reference would build it, for test
// failures: "$^" when the reference would fall back to its never-matching
// regex.
func sourceOf(g *Glob) string {
	src := sourceUnits(g)
	if _, err := parseRegex(src); err != nil {
		return "$^"
	}
	return unitsString(src)
}

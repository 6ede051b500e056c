// Package glob implements the path-matcher glob dialect of the reference
// (picomatch 4 with dot:false, nonegate, case-sensitive, "/"-separated).
package glob

// Glob is a compiled pattern.
type Glob struct{}

// Compile compiles pattern. It fails only for patterns the reference
// cannot compile either (invalid-glob: in practice, over-long patterns).
func Compile(pattern string) (*Glob, error) {
	panic("glob.Compile: not implemented yet")
}

// Match reports whether candidate (already normalised by the caller)
// matches.
func (g *Glob) Match(candidate string) bool {
	panic("glob.Match: not implemented yet")
}

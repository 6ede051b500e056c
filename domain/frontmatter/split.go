package frontmatter

// Parts is a file split at its frontmatter fences.
type Parts struct {
	// YAML is the text between the fences, including the newline that
	// ends its last line.
	YAML string
	// Body is everything after the newline ending the closing fence line.
	Body string
}

// FenceError says the file has no usable frontmatter fences.
type FenceError struct {
	// Unterminated is true when the opening fence is there but no closing
	// one; false when the file does not start with a fence at all.
	Unterminated bool
}

func (e *FenceError) Error() string {
	if e.Unterminated {
		return "frontmatter has no closing --- line"
	}
	return "file does not start with a --- line"
}

// Split separates the frontmatter block from the body. The error, if any,
// is a *FenceError.
func Split(text string) (Parts, error) {
	panic("frontmatter.Split: not implemented yet")
}

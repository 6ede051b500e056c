package frontmatter

import "strings"

// Parts is a file split at its frontmatter fences.
type Parts struct {
	// YAML is the text between the fences, including the newline that
	// ends its last line.
	YAML string
	// YAMLLine is the 1-based line of the file where YAML starts: always
	// 2, since the opening fence is the first line. Add it, less one, to
	// a line within YAML (as yaml12 reports them) to get the file's line.
	YAMLLine int
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

// fence is the frontmatter delimiter line.
const fence = "---"

// isFence reports whether line (without its "\n") is a fence: exactly
// "---", one trailing "\r" allowed so that CRLF files work.
func isFence(line string) bool {
	return strings.TrimSuffix(line, "\r") == fence
}

// Split separates the frontmatter block from the body. The error, if any,
// is a *FenceError.
//
// Lines end at "\n" only. The first line must be a fence; the first later
// fence line closes the block; the body is kept byte for byte (a "---" in
// it is just text). A byte-order mark is not stripped, so a file that
// starts with one has no opening fence, as in the reference.
func Split(text string) (Parts, error) {
	first, _, found := strings.Cut(text, "\n")
	if !isFence(first) {
		return Parts{}, &FenceError{}
	}
	if !found {
		return Parts{}, &FenceError{Unterminated: true}
	}
	yamlStart := len(first) + 1
	for p := yamlStart; ; {
		line, _, more := strings.Cut(text[p:], "\n")
		if isFence(line) {
			bodyStart := p + len(line)
			if more {
				bodyStart++
			}
			return Parts{YAML: text[yamlStart:p], YAMLLine: 2, Body: text[bodyStart:]}, nil
		}
		if !more {
			break
		}
		p += len(line) + 1
	}
	return Parts{}, &FenceError{Unterminated: true}
}

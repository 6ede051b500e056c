// Package frontmatter turns one ADR file's text into a record or into
// findings: fence extraction, YAML, and the strict frontmatter schema.
package frontmatter

import "github.com/adrkit/adrkit-go/domain/adr"

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

// Issue is one schema violation.
type Issue struct {
	Rule    string // e.g. "invalid-type", "strict-unknown-key"
	Field   string // issue path joined with "."; "" for the root
	Message string
}

// Validate checks a parsed YAML value against the frontmatter schema.
// It returns the typed frontmatter when there are no issues.
func Validate(v any) (*adr.Frontmatter, []Issue) {
	panic("frontmatter.Validate: not implemented yet")
}

// ParseRecord runs the whole per-file pipeline on a decoded file: split,
// YAML, schema. It returns a record, or nil and at least one finding
// (frontmatter-fence, frontmatter-parse, file-read, or schema findings),
// each carrying path.
func ParseRecord(path, text string) (*adr.Record, []adr.Finding) {
	panic("frontmatter.ParseRecord: not implemented yet")
}

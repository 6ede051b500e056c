package frontmatter

import "github.com/adrkit/adrkit-go/domain/adr"

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

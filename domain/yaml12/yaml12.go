// Package yaml12 parses a frontmatter block as one YAML 1.2 document with
// the Core schema, into jsvalue values (see the package doc of jsvalue).
package yaml12

// Document is a parsed YAML document.
type Document struct {
	// Value is the document's value: nil, bool, float64, string, []any,
	// *jsvalue.Object or jsvalue.Exotic.
	Value any
	// Lines maps a value's path (keys and decimal indices joined by ".",
	// e.g. "affects.0.pattern"; "" for the root) to the 1-based line,
	// within the YAML text, where that value's key (or item) starts.
	Lines map[string]int
}

// Problem is one reason the YAML text is not a valid document.
type Problem struct {
	Message string
	Line    int // 1-based within the YAML text; 0 if unknown
}

// SyntaxError: the text is not one valid YAML 1.2 document
// (frontmatter-parse).
type SyntaxError struct{ Problems []Problem }

func (e *SyntaxError) Error() string {
	if len(e.Problems) == 0 {
		return "invalid YAML"
	}
	return e.Problems[0].Message
}

// ResolveError: the syntax is valid but the value cannot be built, e.g.
// an alias to an undefined anchor or too many alias expansions
// (file-read).
type ResolveError struct {
	Message string
	Line    int
}

func (e *ResolveError) Error() string { return e.Message }

// Parse parses text. The error, if any, is a *SyntaxError or a
// *ResolveError.
func Parse(text string) (*Document, error) {
	panic("yaml12.Parse: not implemented yet")
}

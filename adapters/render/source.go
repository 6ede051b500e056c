package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Source says where a corpus is read from, in words fit to print: the
// ADR directory relative to the repository root, and the git revision
// when it is not the working tree.
type Source struct {
	// Dir is the ADR directory as shown: repository-relative, "/"
	// separated, "." for the root itself; "" when it cannot be shown
	// without an absolute path.
	Dir string
	// Rev is the git revision read from; "" for the working tree.
	Rev string
}

// NewSource describes the configured root, directory and revision. An
// absolute dir is shown relative to the root when it lies inside it
// (compared lexically) and not at all otherwise, so that no absolute path
// is ever printed.
func NewSource(root, dir, rev string) Source {
	s := Source{Rev: rev}
	switch {
	case dir == "" || dir == ".":
		s.Dir = "."
	case filepath.IsAbs(dir):
		absRoot, err := filepath.Abs(root)
		if err != nil {
			break
		}
		rel, err := filepath.Rel(absRoot, dir)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			s.Dir = filepath.ToSlash(rel)
		}
	default:
		s.Dir = path.Clean(filepath.ToSlash(dir))
	}
	return s
}

// String is the source for a heading: `docs/adr (working tree)` or
// `docs/adr at revision "v1.2.0"`.
func (s Source) String() string {
	d := s.Dir
	switch d {
	case "":
		d = "the ADR directory"
	case ".":
		d = "the repository root"
	}
	if s.Rev != "" {
		return d + " at revision " + strconv.Quote(s.Rev)
	}
	return d + " (working tree)"
}

// json is the source member of the JSON reports: the revision is null
// for the working tree.
func (s Source) json() jsonSource { return jsonSource{Dir: s.Dir, Rev: optional(s.Rev)} }

// optional is s for a JSON member that is null when s is empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// WriteJSON writes v as indented JSON followed by a newline. HTML
// characters stay as they are (the MCP server writes them that way too).
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encoding JSON output: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("writing JSON output: %w", err)
	}
	return nil
}

package app

import (
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/markers"
)

// DefaultLimit is the page size of a channel whose limit was not given.
const DefaultLimit = 20

// Page holds the arguments of a tool's two pagination channels. A nil
// cursor is absent, which is not the same as an empty one: "" is a cursor
// that fails to decode. A zero limit means DefaultLimit, so callers that
// build inputs by hand can leave it out.
type Page struct {
	Cursor         *string `json:"cursor,omitzero"`
	Limit          int     `json:"limit,omitzero"`
	FindingsCursor *string `json:"findingsCursor,omitzero"`
	FindingsLimit  int     `json:"findingsLimit,omitzero"`
	// whole makes both channels return every item, without cursors
	// (Service.Whole).
	whole bool
}

// limit returns the effective primary page size.
func (p Page) limit() int { return effectiveLimit(p.Limit) }

// findingsLimit returns the effective findings page size.
func (p Page) findingsLimit() int { return effectiveLimit(p.FindingsLimit) }

func effectiveLimit(n int) int {
	if n == 0 {
		return DefaultLimit
	}
	return n
}

// SearchInput is the validated argument set of search_decisions. Nil
// filters are absent (no constraint).
type SearchInput struct {
	// All lists every record that passes the filters, without a query:
	// the command line's "adrkit search --status proposed". The MCP tool
	// always has a query, and JSON arguments cannot reach this field.
	All    bool         `json:"-"`
	Query  string       `json:"query"`
	Status []adr.Status `json:"status,omitzero"`
	Tags   []string     `json:"tags,omitzero"`
	Scope  []adr.Scope  `json:"scope,omitzero"`
	Page
}

// GetInput is the validated argument set of get_decision.
type GetInput struct {
	Ref string `json:"ref"`
	Page
}

// ContextInput is the validated argument set of get_decision_context.
type ContextInput struct {
	Files []string `json:"files,omitzero"`
	// Markers are "@adr" declarations the caller read from the files'
	// heads (ReadMarkers). Only the command line sets them: the MCP tool
	// never opens a file, and JSON arguments cannot reach this field.
	Markers []markers.Declaration `json:"-"`
	// CommandLine asks for the answer the reference's command line gives
	// (its "explain"), which differs from the MCP tool's in two ways.
	// A file is any non-empty argument, matched against affects as
	// written: an absolute path, a ".." or a backslash is not refused
	// (only the tool's contract refuses them), and matches what the
	// reference's patterns match. And a corpus with an error finding
	// gets no decisions at all (Matches.Withheld): the reference answers
	// only for a valid corpus. JSON arguments cannot reach this field.
	CommandLine bool `json:"-"`
	Page
}

// SupersededInput is the validated argument set of list_superseded.
type SupersededInput struct {
	Page
}

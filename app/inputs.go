package app

import "github.com/adrkit/adrkit-go/domain/adr"

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
	Page
}

// SupersededInput is the validated argument set of list_superseded.
type SupersededInput struct {
	Page
}

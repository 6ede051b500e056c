// Package adr holds the vocabulary of a decision record: statuses and
// their buckets, refs, the typed frontmatter, records and findings.
package adr

// Status is a record's lifecycle state.
type Status string

// The six statuses, in the order the schema lists them.
const (
	StatusDraft      Status = "draft"
	StatusProposed   Status = "proposed"
	StatusAccepted   Status = "accepted"
	StatusRejected   Status = "rejected"
	StatusSuperseded Status = "superseded"
	StatusDeprecated Status = "deprecated"
)

// Statuses lists every status in schema order (the order enum messages use).
var Statuses = []Status{StatusDraft, StatusProposed, StatusAccepted, StatusRejected, StatusSuperseded, StatusDeprecated}

// Bucket is where get_decision_context files a matching record.
type Bucket int

// Only accepted records govern; drafts and proposals are active proposals;
// everything else (including an unknown status) is history.
const (
	BucketGoverning Bucket = iota
	BucketActiveProposals
	BucketHistory
)

// Bucket returns the context bucket of a record with status s.
func (s Status) Bucket() Bucket {
	switch s {
	case StatusAccepted:
		return BucketGoverning
	case StatusDraft, StatusProposed:
		return BucketActiveProposals
	}
	return BucketHistory
}

// Scope is the organisational reach a record declares.
type Scope string

// The three scopes, in schema order.
const (
	ScopeComponent Scope = "component"
	ScopeDomain    Scope = "domain"
	ScopeOrg       Scope = "org"
)

// Scopes lists every scope in schema order.
var Scopes = []Scope{ScopeComponent, ScopeDomain, ScopeOrg}

// Package cursor encodes, decodes and verifies pagination cursors.
package cursor

// Scope names a pagination channel; a cursor is only valid in the channel
// that minted it.
type Scope string

// The eight channels.
const (
	SearchResults      Scope = "search.results"
	SearchFindings     Scope = "search.findings"
	DecisionCandidates Scope = "get_decision.candidates"
	DecisionFindings   Scope = "get_decision.findings"
	ContextResults     Scope = "context.results"
	ContextFindings    Scope = "context.findings"
	SupersededResults  Scope = "superseded.results"
	SupersededFindings Scope = "superseded.findings"
)

// Reason says why a supplied cursor was refused.
type Reason string

// Refusal reasons, in the order they are checked.
const (
	DecodeFailed        Reason = "decode-failed"
	VersionUnsupported  Reason = "version-unsupported"
	WrongChannel        Reason = "wrong-channel"
	CorpusChanged       Reason = "corpus-changed"
	QueryMismatch       Reason = "query-mismatch"
	CursorNotApplicable Reason = "cursor-not-applicable"
	OffsetOutOfRange    Reason = "offset-out-of-range"
)

// Message is the fixed sentence for the reason (the summary line of an
// invalid-cursor result).
func (r Reason) Message() string {
	switch r {
	case DecodeFailed:
		return "Cursor could not be decoded."
	case VersionUnsupported:
		return "Cursor version is not supported."
	case WrongChannel:
		return "Cursor does not belong to this tool channel."
	case CorpusChanged:
		return "Corpus changed after this cursor was issued."
	case QueryMismatch:
		return "Cursor was issued for different request parameters."
	case CursorNotApplicable:
		return "Cursor does not apply to this outcome."
	case OffsetOutOfRange:
		return "Cursor offset is outside the current result set."
	}
	return "Cursor is not valid."
}

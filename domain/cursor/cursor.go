// Package cursor encodes, decodes and verifies pagination cursors.
//
// The encoding is ours (docs/cursors.md): clients treat cursors as opaque,
// and the contract only asks that they be versioned, bound to the corpus
// fingerprint and the query shape, and strictly decoded.
package cursor

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// Scope names a pagination channel; a cursor is only valid in the channel
// that minted it.
type Scope string

// The channels. The first eight are the four tools'; ChainFindings and
// ChangesFindings are the findings channels of the extended tools
// get_supersession_chain and list_decision_changes.
const (
	SearchResults      Scope = "search.results"
	SearchFindings     Scope = "search.findings"
	DecisionCandidates Scope = "get_decision.candidates"
	DecisionFindings   Scope = "get_decision.findings"
	ContextResults     Scope = "context.results"
	ContextFindings    Scope = "context.findings"
	SupersededResults  Scope = "superseded.results"
	SupersededFindings Scope = "superseded.findings"
	ChainFindings      Scope = "get_supersession_chain.findings"
	ChangesFindings    Scope = "list_decision_changes.findings"
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

// OK is the zero Reason: the cursor was accepted.
const OK Reason = ""

// Version is the cursor format this build mints and accepts.
const Version = 1

// MaxOffset is the largest offset a cursor can carry: the largest integer
// a JavaScript client can hold exactly, so that no client ever sees an
// offset it cannot represent.
const MaxOffset = 1<<53 - 1

// maxLen bounds the text Decode looks at; it is the input schema's limit
// on a cursor argument, so anything longer never reaches Decode from the
// wire anyway.
const maxLen = 4096

// scopes fixes the one-byte code of each channel in a version-1 cursor.
// The order is part of the format: append, never reorder. Appending a
// code leaves every existing cursor's bytes as they were, so it keeps the
// version; a build without the code refuses the new cursors as
// decode-failed, as it refuses any code it does not know.
var scopes = [...]Scope{
	SearchResults, SearchFindings,
	DecisionCandidates, DecisionFindings,
	ContextResults, ContextFindings,
	SupersededResults, SupersededFindings,
	ChainFindings, ChangesFindings,
}

// Layout of a version-1 cursor before base64url encoding (see
// docs/cursors.md): version, scope code, fingerprint, query hash, offset
// as a minimal unsigned LEB128, then the check.
const (
	hashLen    = sha256.Size
	checkLen   = 8
	offScope   = 1
	offFP      = offScope + 1
	offQH      = offFP + hashLen
	offOffset  = offQH + hashLen
	minV1Bytes = offOffset + 1 + checkLen
)

// checkDomain separates the cursor check from every other SHA-256 this
// program computes.
const checkDomain = "adrkit-go cursor check\x00"

var enc = base64.RawURLEncoding.Strict()

// Cursor is a decoded version-1 cursor.
type Cursor struct {
	Scope Scope
	// Fingerprint is the corpus fingerprint the cursor was minted against
	// (64 lower-case hex digits).
	Fingerprint string
	// QueryHash binds the cursor to the request's paging parameters (64
	// lower-case hex digits; see QueryHash).
	QueryHash string
	// Offset is the index of the first item of the page the cursor asks
	// for; always at least 1, because the first page needs no cursor.
	Offset int
}

// QueryHash returns the query-shape hash of shape: the lower-case hex
// SHA-256 of the array's compact JSON as JSON.stringify writes it. Callers
// pass the channel's binding parameters in the contract's order (for
// example normalised query, sorted statuses, sorted tags, sorted scopes,
// limit for search results), so that requests that page identically share
// cursors and any other change is a query-mismatch.
func QueryHash(shape ...any) string {
	if shape == nil {
		shape = []any{}
	}
	sum := sha256.Sum256(jsvalue.AppendJSON(nil, shape))
	return hex.EncodeToString(sum[:])
}

// Mint returns the cursor for the page starting at offset. It panics if
// the arguments cannot come from this program (unknown scope, a hash that
// is not 64 lower-case hex digits, offset outside 1..MaxOffset): cursors
// are only minted from values this program computed.
func Mint(scope Scope, fp, qh string, offset int) string {
	return Cursor{Scope: scope, Fingerprint: fp, QueryHash: qh, Offset: offset}.Encode()
}

// Encode returns the cursor's text. Decode(c.Encode()) gives c back, and
// Decode accepts no other spelling of c. It panics on values Mint rejects.
func (c Cursor) Encode() string {
	code := slices.Index(scopes[:], c.Scope)
	if code < 0 {
		panic(fmt.Sprintf("cursor: unknown scope %q", c.Scope))
	}
	if c.Offset < 1 || c.Offset > MaxOffset {
		panic(fmt.Sprintf("cursor: offset %d outside 1..%d", c.Offset, MaxOffset))
	}
	b := make([]byte, offOffset, offOffset+binary.MaxVarintLen64+checkLen)
	b[0] = Version
	b[offScope] = byte(code)
	putHash(b[offFP:offQH], c.Fingerprint)
	putHash(b[offQH:offOffset], c.QueryHash)
	b = binary.AppendUvarint(b, uint64(c.Offset))
	return seal(b)
}

// putHash writes a lower-case hex SHA-256 digest as its 32 bytes.
func putHash(dst []byte, h string) {
	if !isLowerHex(h) {
		panic(fmt.Sprintf("cursor: %q is not a lower-case hex SHA-256", h))
	}
	hex.Decode(dst, []byte(h))
}

func isLowerHex(h string) bool {
	if len(h) != 2*hashLen {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// The envelope every cursor of this program travels in, pagination
// cursors and feed cursors alike: the payload (its first byte the format
// version), then a check of CheckLen bytes (SHA-256 of a domain string
// and the payload), all in canonical unpadded base64url. The domain
// separates the kinds of cursor: one never passes another's check.

// CheckLen is the length of an envelope's check.
const CheckLen = checkLen

// Seal returns the envelope of payload for domain.
func Seal(domain string, payload []byte) string {
	return enc.EncodeToString(append(payload, check(domain, payload)...))
}

// Open returns the payload of an envelope sealed for domain, or false for
// anything Seal could not have written for it: text over the input
// schema's 4096 characters, text that is not canonical unpadded
// base64url (padding, whitespace, other characters, non-zero trailing
// bits), no payload, or a check that fails (any edited or truncated
// cursor, or one sealed for another domain).
func Open(domain, s string) ([]byte, bool) {
	if len(s) > maxLen {
		return nil, false
	}
	b, err := enc.DecodeString(s)
	// The decoder skips CR and LF; requiring the canonical spelling back
	// rejects those along with every other alternative spelling.
	if err != nil || enc.EncodeToString(b) != s || len(b) < 1+checkLen {
		return nil, false
	}
	payload, sum := b[:len(b)-checkLen], b[len(b)-checkLen:]
	if !bytes.Equal(check(domain, payload), sum) {
		return nil, false
	}
	return payload, true
}

func seal(payload []byte) string { return Seal(checkDomain, payload) }

func check(domain string, payload []byte) []byte {
	h := sha256.New()
	h.Write([]byte(domain))
	h.Write(payload)
	return h.Sum(nil)[:checkLen]
}

// Decode parses a cursor strictly. It returns DecodeFailed for anything
// this program could not have minted: text that is not canonical unpadded
// base64url (padding, whitespace, other characters, non-zero trailing
// bits), a failed check (any edited or truncated cursor), or a version-1
// body that is not exactly scope, fingerprint, query hash and a minimal
// offset in 1..MaxOffset. A cursor whose envelope is sound but whose
// version is not 1 is VersionUnsupported: it was minted by another build.
func Decode(s string) (Cursor, Reason) {
	payload, ok := Open(checkDomain, s)
	if !ok {
		return Cursor{}, DecodeFailed
	}
	if payload[0] != Version {
		return Cursor{}, VersionUnsupported
	}
	if len(payload) < minV1Bytes-checkLen || int(payload[offScope]) >= len(scopes) {
		return Cursor{}, DecodeFailed
	}
	off, ok := Uvarint(payload[offOffset:])
	if !ok || off < 1 || off > MaxOffset {
		return Cursor{}, DecodeFailed
	}
	return Cursor{
		Scope:       scopes[payload[offScope]],
		Fingerprint: hex.EncodeToString(payload[offFP:offQH]),
		QueryHash:   hex.EncodeToString(payload[offQH:offOffset]),
		Offset:      int(off),
	}, OK
}

// Uvarint reads b as exactly one unsigned LEB128 number (what
// binary.AppendUvarint writes) in its shortest form. It reports false for
// an empty or unterminated b, a number above 2^64-1, bytes after the
// number, and a longer spelling of a number (trailing 0x80 0x00 groups):
// a strict decoder accepts only what its encoder writes. The feed cursor
// (domain/lineage/feed) reads its count with it too.
func Uvarint(b []byte) (uint64, bool) {
	x, n := binary.Uvarint(b)
	if n <= 0 || n != len(b) || n != uvarintLen(x) {
		return 0, false
	}
	return x, true
}

// uvarintLen is the length of the minimal encoding of x.
func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// Verify runs the checks of a supplied cursor that need no items, in the
// contract's order: decode, version, channel (scope), corpus (fp), then
// request parameters (qh). It returns the cursor's offset, or the first
// failing Reason. Callers call it only when a cursor was supplied (an
// empty string is a supplied cursor that fails to decode), then apply
// their own applicability check, then Paginate.
func Verify(cursor string, scope Scope, fp, qh string) (int, Reason) {
	c, r := Decode(cursor)
	switch {
	case r != OK:
		return 0, r
	case c.Scope != scope:
		return 0, WrongChannel
	case c.Fingerprint != fp:
		return 0, CorpusChanged
	case c.QueryHash != qh:
		return 0, QueryMismatch
	}
	return c.Offset, OK
}

// Page is the window of a channel one call returns.
type Page struct {
	// Start and End bound the page: items[Start:End].
	Start, End int
	// Next is the cursor for the following page, or "" when this page
	// reaches the end of the channel (null on the wire).
	Next string
}

// Paginate cuts the page at offset from a channel of total items. offset
// is 0 when no cursor was supplied and otherwise what Verify returned; a
// supplied offset at or past the end is OffsetOutOfRange (an empty channel
// with no cursor is simply an empty page). The next cursor, minted against
// the same scope, fingerprint and query hash, starts where this page ends
// and exists only while items remain. limit must be at least 1.
func Paginate(scope Scope, fp, qh string, total, offset, limit int) (Page, Reason) {
	if limit < 1 {
		panic(fmt.Sprintf("cursor: page limit %d is below 1", limit))
	}
	if offset < 0 || (offset > 0 && offset >= total) {
		return Page{}, OffsetOutOfRange
	}
	end := total
	if limit < total-offset {
		end = offset + limit
	}
	p := Page{Start: offset, End: end}
	if end < total {
		p.Next = Mint(scope, fp, qh, end)
	}
	return p, OK
}

package app

import (
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
)

// channel is one pagination channel of one call: the cursor the caller
// supplied (nil when none), the page size, and the query shape a cursor
// of this channel is bound to.
type channel struct {
	scope cursor.Scope
	token *string
	limit int
	// shape is hashed into the cursor's qh (mcp-server.md §5.3); it must
	// hold effective values (normalised needle, sorted filters, limit
	// with its default).
	shape []any
	// inapplicable marks a get_decision outcome without a candidates
	// channel: a cursor that otherwise verifies is refused.
	inapplicable bool
	// whole returns every item, without a cursor (Service.Whole).
	whole bool
}

func findingsChannel(scope cursor.Scope, p Page, shape []any) channel {
	return channel{scope: scope, token: p.FindingsCursor, limit: p.findingsLimit(), shape: shape, whole: p.whole}
}

// window is one resolved page: items[lo:hi] and the cursor to the next
// page, nil at the end.
type window struct {
	lo, hi int
	next   *string
}

// resolve verifies the supplied cursor, if any, in the contract's order
// (decode, version, channel, fingerprint, query shape, applicability,
// range) and cuts the page over n items.
func (c channel) resolve(fp string, n int) (window, cursor.Reason) {
	if c.whole {
		return window{lo: 0, hi: n}, cursor.OK
	}
	qh := cursor.QueryHash(c.shape...)
	offset := 0
	if c.token != nil {
		off, reason := cursor.Verify(*c.token, c.scope, fp, qh)
		if reason != cursor.OK {
			return window{}, reason
		}
		if c.inapplicable {
			return window{}, cursor.CursorNotApplicable
		}
		offset = off
	}
	pg, reason := cursor.Paginate(c.scope, fp, qh, n, offset, c.limit)
	if reason != cursor.OK {
		return window{}, reason
	}
	w := window{lo: pg.Start, hi: pg.End}
	if pg.Next != "" {
		w.next = &pg.Next
	}
	return w, cursor.OK
}

// pages are the two windows of one answer.
type pages struct {
	primary, findings window
}

// paginate resolves the primary channel, then the findings channel. The
// first refusal wins: a bad primary cursor is reported even when the
// findings cursor is bad too.
func paginate(p *corpus.Projection, primary channel, n int, findings channel, fn int) (pages, Result, bool) {
	pw, reason := primary.resolve(p.Fingerprint, n)
	if reason != cursor.OK {
		return pages{}, invalidCursor(p, reason), false
	}
	fw, reason := findings.resolve(p.Fingerprint, fn)
	if reason != cursor.OK {
		return pages{}, invalidCursor(p, reason), false
	}
	return pages{primary: pw, findings: fw}, Result{}, true
}

// findingsPage is the findings member of a substantive outcome.
func findingsPage(all []adr.Finding, w window) FindingsPage {
	return FindingsPage{Items: nonNil(all[w.lo:w.hi]), Cursor: w.next}
}

// invalidCursor is the invalid-cursor answer; it carries corpusHealth.
func invalidCursor(p *corpus.Projection, reason cursor.Reason) Result {
	msg := reason.Message()
	return answer(p, InvalidCursor{Outcome: OutcomeInvalidCursor, Reason: reason, Message: msg})
}

// answer wraps a substantive outcome with the projection's health.
func answer(p *corpus.Projection, o Outcome) Result {
	return Result{Text: o.summary(), Structured: &Answer{CorpusHealth: healthOf(p), Result: o}}
}

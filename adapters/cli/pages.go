package cli

import (
	"context"
	"errors"
	"slices"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
)

// PageCall asks one decision tool for one page of its answer.
type PageCall func(ctx context.Context, page app.Page) (app.Result, error)

// walkLimit is the page size used when walking every page: the largest
// the tools accept, so that a corpus of a few hundred records takes a
// handful of calls.
const walkLimit = 100

// WalkPages calls a tool page by page until both of its channels (the
// primary one and the findings) are exhausted, and merges the pages into
// one answer whose cursors are null, as if both limits were unbounded.
// That is what a person wants on a terminal; the JSON mode pages instead.
//
// A refusal (IsError) or a first answer without pages is returned as it
// came. If a later page is refused as an invalid cursor (the corpus
// changed between two pages) or the corpus became unavailable, that
// answer is returned instead of a half-merged one.
func WalkPages(ctx context.Context, call PageCall) (app.Result, error) {
	page := app.Page{Limit: walkLimit, FindingsLimit: walkLimit}
	first, err := call(ctx, page)
	if err != nil || first.IsError {
		return first, err
	}
	ans, ok := first.Structured.(app.Answer)
	if !ok {
		return first, nil
	}
	merged := ans.Result
	next, fnext := cursors(merged)
	for next != nil || fnext != nil {
		p := page
		p.Cursor, p.FindingsCursor = next, fnext
		res, err := call(ctx, p)
		if err != nil || res.IsError {
			return res, err
		}
		a, ok := res.Structured.(app.Answer)
		if !ok {
			return res, nil
		}
		switch a.Result.(type) {
		case app.InvalidCursor, app.CorpusUnavailable:
			return res, nil
		}
		merged, err = mergePage(merged, a.Result, next != nil, fnext != nil)
		if err != nil {
			return app.Result{}, err
		}
		next, fnext = cursors(merged)
	}
	ans.Result = merged
	return app.Result{Text: first.Text, Structured: ans}, nil
}

// cursors returns the primary and findings cursors of an answer's result;
// nil for a channel the outcome does not have or that is exhausted.
func cursors(result any) (next, fnext *string) {
	switch r := result.(type) {
	case app.SearchResults:
		return r.Cursor, r.Findings.Cursor
	case app.Matches:
		return r.Cursor, r.Findings.Cursor
	case app.Entries:
		return r.Cursor, r.Findings.Cursor
	case app.Ambiguous:
		return r.Cursor, r.Findings.Cursor
	case app.Found:
		return nil, r.Findings.Cursor
	case app.NotFound:
		return nil, r.Findings.Cursor
	case app.Federated:
		return nil, r.Findings.Cursor
	case app.ChainAnswer:
		return nil, r.Findings.Cursor
	case app.AmbiguousChain:
		return nil, r.Findings.Cursor
	}
	return nil, nil
}

// mergeFindings appends a findings page when that channel was being
// walked; otherwise the page is a restart of an exhausted channel and is
// ignored. The result never shares memory with either page.
func mergeFindings(acc, page app.FindingsPage, walking bool) app.FindingsPage {
	if !walking {
		acc.Cursor = nil
		return acc
	}
	return app.FindingsPage{Items: slices.Concat(acc.Items, page.Items), Cursor: page.Cursor}
}

// mergeItems is mergeFindings for a primary channel.
func mergeItems[T any](acc, page []T, pageNext *string, walking bool) ([]T, *string) {
	if !walking {
		return acc, nil
	}
	return slices.Concat(acc, page), pageNext
}

// mergePage adds one page to the merged answer; items and findings say
// which channels were being walked by the call that produced it.
func mergePage(acc, page any, items, findings bool) (any, error) {
	switch m := acc.(type) {
	case app.SearchResults:
		p, ok := page.(app.SearchResults)
		if !ok {
			break
		}
		m.Items, m.Cursor = mergeItems(m.Items, p.Items, p.Cursor, items)
		m.Findings = mergeFindings(m.Findings, p.Findings, findings)
		return m, nil
	case app.Matches:
		p, ok := page.(app.Matches)
		if !ok {
			break
		}
		if items {
			m.Governing = slices.Concat(m.Governing, p.Governing)
			m.ActiveProposals = slices.Concat(m.ActiveProposals, p.ActiveProposals)
			m.History = slices.Concat(m.History, p.History)
			m.Cursor = p.Cursor
		} else {
			m.Cursor = nil
		}
		m.Findings = mergeFindings(m.Findings, p.Findings, findings)
		return m, nil
	case app.Entries:
		p, ok := page.(app.Entries)
		if !ok {
			break
		}
		m.Items, m.Cursor = mergeItems(m.Items, p.Items, p.Cursor, items)
		m.Findings = mergeFindings(m.Findings, p.Findings, findings)
		return m, nil
	case app.Ambiguous:
		p, ok := page.(app.Ambiguous)
		if !ok {
			break
		}
		m.Candidates, m.Cursor = mergeItems(m.Candidates, p.Candidates, p.Cursor, items)
		m.Findings = mergeFindings(m.Findings, p.Findings, findings)
		return m, nil
	case app.Found:
		return mergeFindingsOnly(m, page, findings, func(r *app.Found) *app.FindingsPage { return &r.Findings })
	case app.NotFound:
		return mergeFindingsOnly(m, page, findings, func(r *app.NotFound) *app.FindingsPage { return &r.Findings })
	case app.Federated:
		return mergeFindingsOnly(m, page, findings, func(r *app.Federated) *app.FindingsPage { return &r.Findings })
	case app.ChainAnswer:
		return mergeFindingsOnly(m, page, findings, func(r *app.ChainAnswer) *app.FindingsPage { return &r.Findings })
	case app.AmbiguousChain:
		return mergeFindingsOnly(m, page, findings, func(r *app.AmbiguousChain) *app.FindingsPage { return &r.Findings })
	}
	return nil, errAnswerChanged
}

// errAnswerChanged is a later page whose outcome differs from the first
// one's: the corpus changed under us in a way the cursor could not catch.
var errAnswerChanged = errors.New("the answer changed between two pages (the corpus was edited meanwhile); run the command again")

// mergeFindingsOnly is mergePage for an outcome whose only paged channel
// is its findings (findings picks that member out of T).
func mergeFindingsOnly[T any](acc T, page any, walking bool, findings func(*T) *app.FindingsPage) (any, error) {
	p, ok := page.(T)
	if !ok {
		return nil, errAnswerChanged
	}
	*findings(&acc) = mergeFindings(*findings(&acc), *findings(&p), walking)
	return acc, nil
}

// findingsOf returns the findings an answer carried.
func findingsOf(result any) []adr.Finding {
	switch r := result.(type) {
	case app.SearchResults:
		return r.Findings.Items
	case app.Matches:
		return r.Findings.Items
	case app.Entries:
		return r.Findings.Items
	case app.Ambiguous:
		return r.Findings.Items
	case app.Found:
		return r.Findings.Items
	case app.NotFound:
		return r.Findings.Items
	case app.Federated:
		return r.Findings.Items
	case app.ChainAnswer:
		return r.Findings.Items
	case app.AmbiguousChain:
		return r.Findings.Items
	}
	return nil
}

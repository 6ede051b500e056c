package app

import (
	"slices"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// Matched field names, in the order matchedFields lists them.
const (
	fieldBody  = "body"
	fieldID    = "id"
	fieldTag   = "tag"
	fieldTitle = "title"
)

// answerSearch is search_decisions over one projection.
func answerSearch(p *corpus.Projection, in SearchInput) Result {
	needle := jsstring.Normalize(in.Query)
	if in.All {
		needle = ""
	}
	hits := searchHits(p, in, needle)
	findings := p.Findings

	primary := channel{
		scope: cursor.SearchResults,
		token: in.Cursor,
		limit: in.limit(),
		shape: []any{needle, sortedUnique(stringsOf(in.Status)), sortedUnique(in.Tags), sortedUnique(stringsOf(in.Scope)), in.limit()},
		whole: in.whole,
	}
	if in.All {
		// A listing and a search never continue each other's walks.
		primary.shape = append(primary.shape, "all")
	}
	secondary := findingsChannel(cursor.SearchFindings, in.Page, []any{in.findingsLimit()})

	pg, refused, ok := paginate(p, primary, len(hits), secondary, len(findings))
	if !ok {
		return refused
	}
	page := searchItems(p, hits[pg.primary.lo:pg.primary.hi])
	fpage := findingsPage(findings, pg.findings)
	return answer(p, SearchResults{
		Outcome:  OutcomeResults,
		Items:    nonNil(page),
		Cursor:   pg.primary.next,
		Findings: fpage,
	})
}

// searchHit is a matching record (its index in p.Records) and the
// fields that matched; items are built only for the page returned.
type searchHit struct {
	rec    int
	fields matchedSet
}

// matchedSet holds matched fields as bits, in matchedFields order.
type matchedSet uint8

// matchedOrder is the order matchedFields lists fields in.
var matchedOrder = [...]string{fieldBody, fieldID, fieldTag, fieldTitle}

// searchHits filters then matches the records, in canonical order.
// Filters compare raw values exactly; matching compares normalised text.
func searchHits(p *corpus.Projection, in SearchInput, needle string) []searchHit {
	var hits []searchHit
	for i, r := range p.Records {
		fm := r.Frontmatter
		if !passesFilters(fm, in) {
			continue
		}
		if in.All {
			hits = append(hits, searchHit{rec: i})
			continue
		}
		var set matchedSet
		for b, texts := range searchFields(r) {
			if slices.ContainsFunc(texts, func(t string) bool { return normalizedContains(t, needle) }) {
				set |= 1 << b
			}
		}
		if set != 0 {
			hits = append(hits, searchHit{rec: i, fields: set})
		}
	}
	return hits
}

// searchFields are the texts of r that search_decisions matches, in
// matchedOrder: the body, the id, the tags, the title.
func searchFields(r *adr.Record) [len(matchedOrder)][]string {
	fm := r.Frontmatter
	return [...][]string{{r.Body}, {fm.ID}, fm.Tags, {fm.Title}}
}

// SearchTexts are the texts of r that search_decisions matches a query
// against, each normalised as a query is (jsstring.Normalize: trim, NFKC,
// lower case, as JavaScript's trim, normalize("NFKC") and toLowerCase
// do): a query matches r when its normalised form occurs in one of them.
// The site ships them, so that its search box finds what adrkit search
// finds by the same rule.
func SearchTexts(r *adr.Record) []string {
	var out []string
	for _, texts := range searchFields(r) {
		for _, t := range texts {
			out = append(out, jsstring.Normalize(t))
		}
	}
	return out
}

// searchItems builds the items of one page of hits.
func searchItems(p *corpus.Projection, hits []searchHit) []SearchItem {
	items := make([]SearchItem, len(hits))
	for k, h := range hits {
		r := p.Records[h.rec]
		fm := r.Frontmatter
		fields := []string{}
		for b, name := range matchedOrder {
			if h.fields&(1<<b) != 0 {
				fields = append(fields, name)
			}
		}
		items[k] = SearchItem{ID: Text(fm.ID), Title: Text(fm.Title), Status: fm.Status, SourcePath: Text(r.SourcePath), MatchedFields: fields}
	}
	return items
}

// passesFilters: status any-of, scope any-of, tags all-of, each exact;
// an absent filter does not constrain.
func passesFilters(fm *adr.Frontmatter, in SearchInput) bool {
	if in.Status != nil && !slices.Contains(in.Status, fm.Status) {
		return false
	}
	if in.Scope != nil && !slices.Contains(in.Scope, scopeOf(fm)) {
		return false
	}
	for _, t := range in.Tags {
		if !slices.Contains(fm.Tags, t) {
			return false
		}
	}
	return true
}

// scopeOf is the record's scope with the schema default applied, for
// frontmatter built without the parser.
func scopeOf(fm *adr.Frontmatter) adr.Scope {
	if fm.Scope == "" {
		return adr.ScopeComponent
	}
	return fm.Scope
}

// sortedUnique is the query-shape form of a filter or file list:
// de-duplicated and in code-unit order, [] when absent.
func sortedUnique(vals []string) []string {
	out := slices.Clone(vals)
	if out == nil {
		out = []string{}
	}
	slices.SortFunc(out, jsstring.Compare)
	return slices.Compact(out)
}

package app

import (
	"context"
	"fmt"
	"slices"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/lineage"
	"github.com/adrkit/adrkit-go/ports"
)

// SiteInput configures one build of the decision browser (adrkit site).
type SiteInput struct {
	// AsOf and Clock decide "today" for lint's reviewBy check, as
	// LintInput's do.
	AsOf  string
	Clock ports.Clock
	// Changes asks for the change feed from the Service's history (the
	// whole of it, from "0_"); without it the site has no changes list.
	Changes bool
}

// Site is everything the decision browser shows, read from one state of
// the corpus: the projection, lint's report over the same bytes, the
// relation graph, each record's supersession chain, what explain's
// path rules need, and the change feed.
type Site struct {
	Lint       *LintReport
	Projection *corpus.Projection
	Graph      *Graph
	// Chains holds the chain of every record whose id is held by that
	// record alone (a shared id has no single chain: the tool answers
	// ambiguous-local-id), keyed by the record.
	Chains map[*adr.Record]lineage.Chain
	// Withheld is true when explain would show no decision at all for
	// any path: the corpus has an error finding (Matches.Withheld).
	Withheld bool
	// Matchers are, per record in Projection.Records order, the path
	// matchers as explain evaluates them.
	Matchers [][]PathMatcher
	// Changes is the change feed from the start of the history, or nil
	// when it was not asked for; HistoryMessage says why there is none
	// when the history cannot be read.
	Changes        *ChangesAnswer
	HistoryMessage string
}

// PathMatcher is one path matcher of a record as explain decides it:
// Source is the JavaScript regular expression the glob translates to (the
// reference builds the same one), so a browser evaluates the pattern with
// the very regex semantics explain follows.
type PathMatcher struct {
	Pattern string
	// Source is "" for a pattern that can never match (Problem says why).
	Source string
	// AllowsDot: the pattern spells a dot segment, so it may match a path
	// inside a dot directory.
	AllowsDot bool
	Negate    bool
	Problem   string
}

// Site reads the corpus once, as lint does, and derives the pages' data
// from that one read; the change feed, when asked for, reads the git
// history as list_decision_changes does.
func (s *Service) Site(ctx context.Context, in SiteInput) (*Site, error) {
	rep, err := s.Lint(ctx, LintInput{AsOf: in.AsOf, Clock: in.Clock})
	if err != nil {
		return nil, err
	}
	p := rep.proj
	out := &Site{
		Lint: rep, Projection: p, Graph: BuildGraph(p),
		Chains:   make(map[*adr.Record]lineage.Chain, len(p.Records)),
		Withheld: slices.ContainsFunc(p.Findings, stopsCommandLine),
		Matchers: make([][]PathMatcher, len(p.Records)),
	}
	ix := lineage.NewIndex(p.Records, p.ByID)
	for i, r := range p.Records {
		if len(p.ByID[r.Frontmatter.ID]) == 1 {
			out.Chains[r] = lineage.Walk(ix, r)
		}
		out.Matchers[i] = pathMatchers(r, s.memo.compile)
	}
	if in.Changes {
		res, err := s.Whole(ctx, ChangesInput{Since: new("0_")})
		if err != nil {
			return nil, fmt.Errorf("reading the change history: %w", err)
		}
		switch r := res.Structured.Result.(type) {
		case ChangesAnswer:
			out.Changes = &r
		case HistoryUnavailable:
			out.HistoryMessage = r.Message
		case CorpusUnavailable:
			return nil, &ports.UnavailableError{Reason: r.Reason}
		default:
			return nil, fmt.Errorf("reading the change history: an answer of an unexpected shape (%T)", r)
		}
	}
	return out, nil
}

// pathMatchers lists r's path matchers of this log with what explain's
// resolver compiles them to.
func pathMatchers(r *adr.Record, compile affects.CompileFunc) []PathMatcher {
	var out []PathMatcher
	for _, m := range r.Frontmatter.Affects {
		if m.Type != adr.MatcherPath || m.Repo != "" {
			continue
		}
		c := compile(m.Type, m.Pattern)
		pm := PathMatcher{Pattern: m.Pattern, Negate: m.Negate}
		if src, ok := c.Source(); ok {
			pm.Source, pm.AllowsDot = src, c.AllowsDot()
		} else {
			pm.Problem = c.Problem()
		}
		out = append(out, pm)
	}
	return out
}

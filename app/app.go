// Package app holds the use cases: projecting the corpus, the tool table
// (the four decision tools and the extended ones), and what is behind
// the adrkit commands (lint, check, the review queue, migrate, new, init,
// status, renumber, index, doctor, govern, the site's data) and the
// reading of "@adr" markers. It works over ports only and knows nothing
// of MCP, the command line or the operating system.
package app

import (
	"context"
	"errors"
	"runtime"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// Result is one tool answer, independent of any protocol.
type Result struct {
	// Text is the one-line summary (content[0].text).
	Text string
	// Structured is the structured answer ({corpusHealth?, result}); nil
	// when IsError.
	Structured *Answer
	// IsError marks refused arguments: Text then explains them and
	// Structured is nil. (An unexpected fault is Call's error instead, so
	// the adapter can log the cause and word the answer without paths.)
	IsError bool
}

// Options configures a Service.
type Options struct {
	// Parse turns one candidate's bytes into a record or findings; nil
	// uses the production pipeline (WHATWG decoding, then the frontmatter
	// pipeline). Its outcomes are remembered like the default's.
	Parse corpus.ParseFunc
	// MaxLoads bounds the projections read at once; 0 means GOMAXPROCS.
	// Calls beyond it wait their turn (see load).
	MaxLoads int
	// Extended adds the extended tools, get_supersession_chain,
	// list_decision_changes and list_review_queue, to the four
	// (docs/extended-tools.md).
	Extended bool
	// History is where list_decision_changes reads the git history;
	// nil answers history-unavailable (no-repository).
	History ports.HistoryReader
	// Clock tells list_review_queue today's date when the call gives no
	// asOf; nil refuses such a call. Nothing else a tool answers reads it.
	Clock ports.Clock
}

// Service answers tool calls from a corpus source. It is safe for
// concurrent use; what it remembers between calls (memo) is shared by
// every call, and by the Services WithHistory derives from it.
type Service struct {
	reader ports.CorpusReader
	opts   Options
	memo   *memo
	turns  chan struct{}
}

// New returns a Service reading from reader.
func New(reader ports.CorpusReader, opts Options) *Service {
	n := opts.MaxLoads
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return &Service{reader: reader, opts: opts, memo: newMemo(), turns: make(chan struct{}, n)}
}

// withProjection projects the corpus and answers over it. An unavailable
// corpus is an answer of its own (without corpusHealth, no cursor
// inspected); any other failure is a fault.
func (s *Service) withProjection(ctx context.Context, answer func(*corpus.Projection) Result) (Result, error) {
	p, err := s.Project(ctx)
	if err != nil {
		var u *ports.UnavailableError
		if errors.As(err, &u) {
			return unavailable(u), nil
		}
		return Result{}, err
	}
	return answer(p), nil
}

// unavailable is the corpus-unavailable answer to u.
func unavailable(u *ports.UnavailableError) Result {
	msg := u.Error()
	return Result{Text: msg, Structured: &Answer{Result: CorpusUnavailable{
		Outcome: OutcomeCorpusUnavailable, Reason: u.Reason, Message: msg,
	}}}
}

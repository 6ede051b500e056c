// Package app holds the use cases: projecting the corpus, the four
// decision tools and lint. It works over ports only and knows nothing of
// MCP, the command line or the operating system.
package app

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/adrkit/adrkit-go/ports"
)

// Tool names, in the order tools/list reports them.
const (
	ToolGetDecision        = "get_decision"
	ToolGetDecisionContext = "get_decision_context"
	ToolListSuperseded     = "list_superseded"
	ToolSearchDecisions    = "search_decisions"
)

// ErrUnknownTool is returned by Call for a name that is not a tool.
var ErrUnknownTool = errors.New("unknown tool")

// Result is one tool answer, independent of any protocol.
type Result struct {
	// Text is the one-line summary (content[0].text).
	Text string
	// Structured is the structured answer ({corpusHealth?, result}); nil
	// when IsError.
	Structured any
	// IsError marks an input-validation failure (or an unexpected fault):
	// Text then explains it and Structured is nil.
	IsError bool
}

// Options configures a Service.
type Options struct{}

// Service answers tool calls from a corpus source.
type Service struct {
	reader ports.CorpusReader
	opts   Options
}

// New returns a Service reading from reader.
func New(reader ports.CorpusReader, opts Options) *Service {
	return &Service{reader: reader, opts: opts}
}

// Tools lists the tool names this service answers, in tools/list order.
func (s *Service) Tools() []string {
	return []string{ToolGetDecision, ToolGetDecisionContext, ToolListSuperseded, ToolSearchDecisions}
}

// Call validates args (a JSON object, or empty for none) for the named
// tool, projects the corpus afresh and answers. It returns ErrUnknownTool
// for a name that is not a tool.
func (s *Service) Call(ctx context.Context, tool string, args json.RawMessage) (Result, error) {
	panic("app.Service.Call: not implemented yet")
}

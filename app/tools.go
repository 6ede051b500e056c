package app

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/adrkit/adrkit-go/domain/corpus"
)

// Tool names. tools/list reports them in this (lexicographic) order; the
// extended ones (docs/extended-tools.md) only with Options.Extended.
const (
	ToolGetDecision          = "get_decision"
	ToolGetDecisionContext   = "get_decision_context"
	ToolGetSupersessionChain = "get_supersession_chain"
	ToolListDecisionChanges  = "list_decision_changes"
	ToolListSuperseded       = "list_superseded"
	ToolSearchDecisions      = "search_decisions"
)

// ErrUnknownTool is returned by Call for a name that is not a tool.
var ErrUnknownTool = errors.New("unknown tool")

// The tool table: every tool's name, input type, reading of its
// arguments (the one validation path: Go callers' inputs are encoded as
// the JSON arguments they stand for and read the same way), answer,
// schemas and catalogue entry. The extended tools are served only by a
// Service with Options.Extended. It is built on first use, not at
// start-up: compacting the schemas is work a command that never answers
// a tool (a hook, --version) should not pay for.
var toolTable = sync.OnceValue(func() []toolSpec {
	return []toolSpec{
		tool(ToolGetDecision, false, readGet, func(ctx context.Context, s *Service, in GetInput) (Result, error) {
			return s.withProjection(ctx, func(p *corpus.Projection) Result { return answerGet(p, in) })
		}, "Fetch a decision record",
			"Look up one architecture decision record by its local id (for example \"0042\") and "+
				"return its full typed frontmatter and Markdown body. When no record has the id, several "+
				"records share it, or the ref names another decision log, the answer says so with a "+
				"not-found, ambiguous-local-id or federated-log-unavailable outcome instead. References "+
				"to other decisions are returned as written, never followed."),
		tool(ToolGetDecisionContext, false, readContext, func(ctx context.Context, s *Service, in ContextInput) (Result, error) {
			return s.withProjection(ctx, func(p *corpus.Projection) Result { return answerContext(p, in, s.memo.compile) })
		}, "Decisions that govern files",
			"For repository-relative file paths, report the decisions whose affects matchers "+
				"cover them: accepted decisions that govern the paths, drafts and proposals that would, "+
				"and rejected, superseded or deprecated records that once did. The paths are only "+
				"matched against the corpus's patterns; the files themselves are never opened."),
		tool(ToolGetSupersessionChain, true, readChain, func(ctx context.Context, s *Service, in ChainInput) (Result, error) {
			return s.withProjection(ctx, func(p *corpus.Projection) Result { return answerChain(p, in) })
		}, "Supersession chain and whether to act on it",
			"Walk the supersedes/supersededBy lineage of one decision (at most 12 steps each way) and "+
				"return it oldest first with a verdict: current (the newest record is accepted and nothing "+
				"replaces it) or hold, with a typed reason (ungoverned, rejected, deprecated, cycle, "+
				"truncated, dangling, ambiguous, not-observed) and one sentence saying what to do. Call it "+
				"before acting on a decision that may have been replaced. Missing, ambiguous and "+
				"log-qualified refs are answered as get_decision answers them."),
		tool(ToolListDecisionChanges, true, readChanges, func(ctx context.Context, s *Service, in ChangesInput) (Result, error) {
			return s.answerChanges(ctx, in)
		},
			"Feed of decision changes from git history",
			"List record-level changes (added, status-changed, edited, removed, renamed) from the "+
				"first-parent git history of the ADR directory, oldest first, with commit and time. Without "+
				"since the answer is empty and its cursor marks the head: poll with that cursor to receive "+
				"only what lands afterwards. since \"0_\" replays the whole history. A cursor whose commit was "+
				"rewritten away gives a restart outcome."),
		tool(ToolListReviewQueue, true, readQueue, func(ctx context.Context, s *Service, in QueueInput) (Result, error) {
			return s.answerQueue(ctx, in)
		}, "Review queue of proposed decisions",
			"List the proposed decisions waiting for review, most urgent first, each with its SLA state "+
				"as of a date (overdue, escalated, due, within-sla, missing-sla, not-queued, decided), its "+
				"deadline (reviewBy, or the UTC day of review.queuedAt plus review.slaDays), routing tier and "+
				"deciders, approvals against quorum and open objections, and what is incomplete about it; "+
				"plus the files that could not be queued because they are not valid records. asOf is a date "+
				"(YYYY-MM-DD) or a datetime with an explicit zone; without it, today in UTC. The answer's "+
				"report is the same JSON as adrkit queue --format json."),
		tool(ToolListSuperseded, false, readSuperseded, func(ctx context.Context, s *Service, in SupersededInput) (Result, error) {
			return s.withProjection(ctx, func(p *corpus.Projection) Result { return answerSuperseded(p, in) })
		}, "Superseded decisions and their replacements",
			"List the superseded decisions and, for each, what its supersededBy reference "+
				"points at in this corpus: a resolved record, a missing one, several candidates (counted, "+
				"not listed) or a record in another decision log. Only the direct replacement is "+
				"reported, never a chain."),
		tool(ToolQueryDecision, true, readAsk, func(ctx context.Context, s *Service, in AskInput) (Result, error) {
			return s.withProjection(ctx, func(p *corpus.Projection) Result { return answerAsk(p, s.memo.ask.index(p), in) })
		}, "Has this been decided? A question in your own words",
			"Answer a question asked in plain words (\"can we cache orders in Redis?\") with the decision "+
				"that answers it and a calibrated confidence, or no_record with the closest candidates when "+
				"no record answers well enough. Ranking is lexical (BM25F over id, title, tags, the decision "+
				"sentence, the alternatives and the body; stemmed, no model). The answer follows supersession: "+
				"found names the record in force; held gives the chain's reason (a rejected decision must not "+
				"be proposed again, a proposal is not yet decided)."),
		tool(ToolSearchDecisions, false, readSearch, func(ctx context.Context, s *Service, in SearchInput) (Result, error) {
			return s.withProjection(ctx, func(p *corpus.Projection) Result { return answerSearch(p, in) })
		}, "Search decision records",
			"Find decisions whose id, title, tags or Markdown body contain the query text "+
				"(trimmed, case- and width-folded literal match; no ranking, no model). Superseded, "+
				"rejected and deprecated records are included unless filtered out. Narrow the search "+
				"with status or scope (any listed value) and tags (all listed tags). Returns short "+
				"summaries; use get_decision for a full record."),
	}
})

// toolSpec is one row of the tool table.
type toolSpec struct {
	ToolInfo
	extended bool
	// call reads the arguments and answers them; whole answers every
	// item on one page, without cursors.
	// from is the Go input args were encoded from, nil for JSON.
	call func(ctx context.Context, s *Service, args argSet, from Input, whole bool) (Result, error)
	// issues reads the arguments without answering them.
	issues func(args argSet, from Input) []issue
}

// ToolInfo is what a protocol adapter advertises for a tool.
type ToolInfo struct {
	Name        string
	Title       string
	Description string
	// InputSchema and OutputSchema are JSON Schema 2020-12 documents,
	// compact: the tool's arguments object and its structured answer
	// ({corpusHealth?, result}). They are part of the contract (clients
	// validate against them), so they are written by hand; the tests hold
	// the input schemas to the reading of the arguments.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
}

// Input is a tool's argument set as a Go value: SearchInput, GetInput,
// ContextInput, SupersededInput, ChainInput, ChangesInput or QueueInput.
type Input interface {
	// ToolName is the name of the tool the input is for.
	ToolName() string
}

// ToolName implements Input.
func (SearchInput) ToolName() string { return ToolSearchDecisions }

// ToolName implements Input.
func (GetInput) ToolName() string { return ToolGetDecision }

// ToolName implements Input.
func (ContextInput) ToolName() string { return ToolGetDecisionContext }

// ToolName implements Input.
func (SupersededInput) ToolName() string { return ToolListSuperseded }

// ToolName implements Input.
func (ChainInput) ToolName() string { return ToolGetSupersessionChain }

// ToolName implements Input.
func (ChangesInput) ToolName() string { return ToolListDecisionChanges }

// wholeInput is an Input that can be asked for every item at once.
type wholeInput[In any] interface {
	*In
	setWhole()
}

func (in *SearchInput) setWhole()     { in.whole = true }
func (in *GetInput) setWhole()        { in.whole = true }
func (in *ContextInput) setWhole()    { in.whole = true }
func (in *SupersededInput) setWhole() { in.whole = true }
func (in *ChainInput) setWhole()      { in.whole = true }
func (in *ChangesInput) setWhole()    { in.whole = true }

// tool makes a row of the table from a tool's reading and answer.
func tool[In any, P wholeInput[In]](name string, extended bool, read func(*argReader) In,
	answer func(context.Context, *Service, In) (Result, error), title, description string) toolSpec {
	return toolSpec{
		ToolInfo: ToolInfo{Name: name, Title: title, Description: description,
			InputSchema: schema(name + ".input.json"), OutputSchema: schema(name + ".output.json")},
		extended: extended,
		issues: func(args argSet, from Input) []issue {
			r := newArgReader(args, from)
			read(r)
			return r.finish()
		},
		call: func(ctx context.Context, s *Service, args argSet, from Input, whole bool) (Result, error) {
			r := newArgReader(args, from)
			in := read(r)
			if issues := r.finish(); len(issues) > 0 {
				return refusal(name, issues), nil
			}
			if whole {
				P(&in).setWhole()
			}
			return answer(ctx, s, in)
		},
	}
}

//go:embed schemas/*.json
var schemaFiles embed.FS

// schema is an embedded schema, compacted once, when the table is built.
// A file that is not JSON is a broken build and panics at start-up.
func schema(file string) json.RawMessage {
	data, err := schemaFiles.ReadFile("schemas/" + file)
	var buf bytes.Buffer
	if err == nil {
		err = json.Compact(&buf, data)
	}
	if err != nil {
		panic(fmt.Sprintf("app: embedded schema %s: %v", file, err))
	}
	return buf.Bytes()
}

// Tools lists the tools this service answers, in tools/list order: the
// four, or with Options.Extended all seven.
func (s *Service) Tools() []ToolInfo {
	var out []ToolInfo
	for _, t := range toolTable() {
		if s.opts.Extended || !t.extended {
			out = append(out, t.ToolInfo)
		}
	}
	return out
}

// Call validates args (a JSON object, or empty for none) for the named
// tool, projects the corpus afresh and answers one page. Validation
// happens before the corpus is touched; refused arguments give an
// isError Result.
//
// Errors: ErrUnknownTool for a name that is not one of Tools;
// ErrArgumentsNotObject when args is not a JSON object; anything else is
// an unexpected fault (a cancelled ctx, a reader failing in a way the
// contract does not anticipate) and is the adapter's to report.
func (s *Service) Call(ctx context.Context, tool string, args json.RawMessage) (Result, error) {
	t, ok := lookupTool(tool)
	if !ok || (t.extended && !s.opts.Extended) {
		return Result{}, fmt.Errorf("%w: %q", ErrUnknownTool, tool)
	}
	set, err := decodeArgs(args)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", tool, err)
	}
	return t.call(ctx, s, set, nil, false)
}

// Whole answers the tool in belongs to as a person reads it on a
// terminal: every item and every finding on one page, with null cursors
// (for list_decision_changes, every change from in.Since to the head).
// in is validated as the tool's JSON arguments are; its page sizes and
// cursors are not used. It answers the extended tools whether or not the
// Service serves them over Call: a caller in Go has already chosen.
func (s *Service) Whole(ctx context.Context, in Input) (Result, error) {
	return s.callInput(ctx, in, true)
}

// CallInput answers one page of the tool in belongs to, exactly as Call
// answers the same arguments in JSON (in is encoded as them, so its
// strings are what JSON can carry: invalid UTF-8 becomes U+FFFD). It
// answers the extended tools whether or not the Service serves them
// over Call.
func (s *Service) CallInput(ctx context.Context, in Input) (Result, error) {
	return s.callInput(ctx, in, false)
}

// callInput encodes in as the JSON arguments it stands for and answers
// them, one page or whole.
func (s *Service) callInput(ctx context.Context, in Input, whole bool) (Result, error) {
	t, set, err := encodeInput(in)
	if err != nil {
		return Result{}, err
	}
	return t.call(ctx, s, set, in, whole)
}

// refuse is the refusal in gets, if any, without reading the corpus.
func refuse(in Input) (Result, bool) {
	t, set, err := encodeInput(in)
	if err != nil {
		return Result{Text: validationPrefix(in.ToolName()) + err.Error(), IsError: true}, true
	}
	if issues := t.issues(set, in); len(issues) > 0 {
		return refusal(t.Name, issues), true
	}
	return Result{}, false
}

// encodeInput is in's tool and in as the JSON arguments it stands for.
func encodeInput(in Input) (toolSpec, argSet, error) {
	t, _ := lookupTool(in.ToolName())
	args, err := json.Marshal(in)
	if err != nil {
		return t, argSet{}, fmt.Errorf("%s: encoding the arguments: %w", t.Name, err)
	}
	set, err := decodeArgs(args)
	if err != nil {
		return t, argSet{}, fmt.Errorf("%s: %w", t.Name, err)
	}
	return t, set, nil
}

func lookupTool(name string) (toolSpec, bool) {
	for _, t := range toolTable() {
		if t.Name == name {
			return t, true
		}
	}
	return toolSpec{}, false
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/ports"
)

// The commands answered by one decision tool: search, show, explain,
// superseded and chain. Each is a toolSpec (which tool, which arguments,
// how a person sees the answer); toolAction does the rest the same way
// for all of them. changes, whose tool answers from git history, shares
// the option helpers and runTool.

// maxToolPage is the largest page the decision tools accept; the help
// text and the refusal of 0 name it (the tools word every other refusal).
const maxToolPage = 100

// jsonFlag is --json: shape is the structured answer's, part how much of
// it one run prints.
func jsonFlag(shape, part string) cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print the structured answer the MCP tool returns (" + shape + "), " + part + " of it"}
}

// sizeFlag is a page-size option of the --json mode.
func sizeFlag(name, what string, most, byDefault int) cli.Flag {
	return &cli.IntFlag{Name: name, Usage: fmt.Sprintf("with --json: %s, 1 to %d (default %d)", what, most, byDefault), HideDefault: true}
}

// findingsFlags page a tool's findings channel in the --json mode.
func findingsFlags() []cli.Flag {
	return []cli.Flag{
		sizeFlag("findings-limit", "findings page size", maxToolPage, app.DefaultLimit),
		&cli.StringFlag{Name: "findings-cursor", Usage: "with --json: the findings cursor of the previous page"},
	}
}

// pageFlags are the --json options of the four tools, which page both
// their channels.
func pageFlags() []cli.Flag {
	return append([]cli.Flag{
		jsonFlag("{corpusHealth, result}", "one page"),
		sizeFlag("limit", "page size", maxToolPage, app.DefaultLimit),
		&cli.StringFlag{Name: "cursor", Usage: "with --json: the cursor of the previous page, to get the next one"},
	}, findingsFlags()...)
}

// jsonOnly refuses the named options without --json: they page the JSON
// output, while a person is shown every page (walked says what happens
// to the pages: "printed", or "read" when they are only counted).
// Options the command does not have read as not given.
func jsonOnly(cmd *cli.Command, walked string, names ...string) error {
	if cmd.Bool("json") {
		return nil
	}
	for _, n := range names {
		if cmd.IsSet(n) {
			return usageError{Command: cmd.FullName(), Msg: "--" + n + " pages the --json output; without --json every page is " + walked}
		}
	}
	return nil
}

// pageSize reads a page-size option. 0 is refused here because the app
// reads it as "the default"; the tool refuses every other size outside 1
// to most itself.
func pageSize(cmd *cli.Command, name string, most int) (int, error) {
	n := cmd.Int(name)
	if cmd.IsSet(name) && n == 0 {
		return 0, usageError{Command: cmd.FullName(), Msg: fmt.Sprintf("--%s must be from 1 to %d, got 0", name, most)}
	}
	return n, nil
}

// optional is a string option's value when it was given (empty
// included), nil otherwise.
func optional(cmd *cli.Command, name string) *string {
	if !cmd.IsSet(name) {
		return nil
	}
	v := cmd.String(name)
	return &v
}

// readPage reads the paging options of a tool command (those it lacks
// read as not given).
func readPage(cmd *cli.Command, walked string) (app.Page, error) {
	var p app.Page
	if err := jsonOnly(cmd, walked, "limit", "cursor", "findings-limit", "findings-cursor"); err != nil {
		return p, err
	}
	var err error
	if p.Limit, err = pageSize(cmd, "limit", maxToolPage); err != nil {
		return p, err
	}
	if p.FindingsLimit, err = pageSize(cmd, "findings-limit", maxToolPage); err != nil {
		return p, err
	}
	p.Cursor, p.FindingsCursor = optional(cmd, "cursor"), optional(cmd, "findings-cursor")
	return p, nil
}

// The positional-argument checks of the tool commands.
func exactlyOne(msg string) func(*cli.Command) error {
	return func(cmd *cli.Command) error {
		if cmd.Args().Len() != 1 {
			return usageError{Command: cmd.FullName(), Msg: msg}
		}
		return nil
	}
}

func atLeastOne(msg string) func(*cli.Command) error {
	return func(cmd *cli.Command) error {
		if !cmd.Args().Present() {
			return usageError{Command: cmd.FullName(), Msg: msg}
		}
		return nil
	}
}

// toolSpec wires a command to one decision tool.
type toolSpec struct {
	tool string
	// walked is what happens to the pages without --json, for the
	// refusal of a paging option ("printed" unless only counted).
	walked string
	// args refuses bad positional arguments before anything is read.
	args func(cmd *cli.Command) error
	// bind builds the tool's input (with page, the --json paging options)
	// and the renderer of its whole answer for a person, once the global
	// options are settled.
	bind func(ctx context.Context, cmd *cli.Command, s *settings, page app.Page) (in app.Input, human func(result app.Outcome) error, err error)
	// jsonOf, when set, is what --json prints for an answer instead of
	// the answer itself.
	jsonOf func(*app.Answer) any
}

// action is the command's Action: check the arguments and options, settle
// the global options, call the tool (the page asked for with --json, the
// whole answer otherwise), print the answer and end with the status its
// outcome calls for (render.OutcomeStatus).
func (t toolSpec) action(env environment, stdout io.Writer) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		if err := t.args(cmd); err != nil {
			return err
		}
		page, err := readPage(cmd, t.walked)
		if err != nil {
			return err
		}
		s, err := settle(ctx, cmd, env)
		if err != nil {
			return err
		}
		in, human, err := t.bind(ctx, cmd, s, page)
		if u := (usageError{}); errors.As(err, &u) {
			return u
		}
		if err != nil {
			return s.failure(err)
		}
		ans, err := runTool(ctx, cmd, s, stdout, in, t.jsonOf)
		if err != nil {
			return err
		}
		asJSON := cmd.Bool("json")
		switch r := ans.Result.(type) {
		case app.CorpusUnavailable:
			return s.failure(&ports.UnavailableError{Reason: r.Reason})
		case app.InvalidCursor:
			return usageError{Command: cmd.FullName(), Msg: "the cursor was refused: " + r.Message}
		}
		if !asJSON {
			if err := human(ans.Result); err != nil {
				return err
			}
		}
		if code := render.OutcomeStatus(ans.Result); code != exitOK {
			return exitError{Code: code}
		}
		return nil
	}
}

// runTool is the part of a tool command that does not depend on the
// tool: call it for one page (--json) or for the whole answer (a person
// reads every item at once), turn a refused call into a usage error, and
// print the JSON (jsonOf of the answer, when set). The command judges the
// answer it returns.
func runTool(ctx context.Context, cmd *cli.Command, s *settings, stdout io.Writer, in app.Input,
	jsonOf func(*app.Answer) any) (*app.Answer, error) {
	call := s.service.Whole
	if cmd.Bool("json") {
		call = s.service.CallInput
	}
	res, err := call(ctx, in)
	if err != nil {
		return nil, s.failure(err)
	}
	if res.IsError {
		return nil, usageError{Command: cmd.FullName(), Msg: render.RefusalDetail(in.ToolName(), res.Text)}
	}
	if cmd.Bool("json") {
		var out any = res.Structured
		if jsonOf != nil {
			out = jsonOf(res.Structured)
		}
		if err := render.WriteJSON(stdout, out); err != nil {
			return nil, err
		}
	}
	return res.Structured, nil
}

func searchCommand(stdout io.Writer, env environment) *cli.Command {
	spec := toolSpec{
		tool: app.ToolSearchDecisions, walked: "printed",
		args: func(*cli.Command) error { return nil },
		bind: func(ctx context.Context, cmd *cli.Command, s *settings, page app.Page) (app.Input, func(app.Outcome) error, error) {
			in := app.SearchInput{
				All:    !cmd.Args().Present(),
				Query:  strings.Join(cmd.Args().Slice(), " "),
				Status: typed[adr.Status](cmd, "status"),
				Tags:   typed[string](cmd, "tag"),
				Scope:  typed[adr.Scope](cmd, "scope"),
				Page:   page,
			}
			return in, func(r app.Outcome) error {
				res, _ := r.(app.SearchResults)
				return render.WriteSearch(stdout, res, in.Query, searchSnippets(ctx, s, res, in.Query), s.style)
			}, nil
		},
	}
	return &cli.Command{
		Name:      "search",
		Usage:     "find decisions by the text of their id, title, tags or body, or list them by status, tag or scope",
		UsageText: "adrkit search [QUERY...] [--status S]... [--tag T]... [--scope S]... [--json [--limit N] [--cursor C]]",
		Description: "The words of QUERY are joined with single spaces and matched literally (trimmed, case- and\n" +
			"width-folded) against each record's id, title, tags and Markdown body. --status and --scope keep\n" +
			"records with any of the given values, --tag those with all the given tags; repeat an option to\n" +
			"give several values. Every status is searched unless filtered, superseded records included.\n" +
			"Without a QUERY every record that passes the filters is listed, in id order.\n\n" +
			"Examples:\n" +
			"  adrkit search postgres\n" +
			"  adrkit search cache --status accepted --status proposed\n" +
			"  adrkit search --status proposed          # every open proposal\n" +
			"  adrkit search retry --tag resilience --json",
		DisableSliceFlagSeparator: true,
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "status", Usage: "only records with this status (draft, proposed, accepted, rejected, superseded, deprecated)"},
			&cli.StringSliceFlag{Name: "tag", Usage: "only records carrying this tag"},
			&cli.StringSliceFlag{Name: "scope", Usage: "only records with this scope (component, domain, org)"},
		}, pageFlags()...),
		Action: spec.action(env, stdout),
	}
}

// typed reads a repeatable option as a typed list; nil when not given, so
// that the filter is absent rather than empty.
func typed[T ~string](cmd *cli.Command, name string) []T {
	if !cmd.IsSet(name) {
		return nil
	}
	vals := cmd.StringSlice(name)
	out := make([]T, len(vals))
	for i, v := range vals {
		out[i] = T(v)
	}
	return out
}

func showCommand(stdout io.Writer, env environment) *cli.Command {
	spec := toolSpec{
		tool: app.ToolGetDecision, walked: "printed",
		args: exactlyOne("show needs exactly one REF, e.g. adrkit show 0003"),
		bind: func(_ context.Context, cmd *cli.Command, s *settings, page app.Page) (app.Input, func(app.Outcome) error, error) {
			in := app.GetInput{Ref: shortRef(cmd.Args().First()), Page: page}
			return in, func(r app.Outcome) error { return render.WriteDecision(stdout, r, s.style) }, nil
		},
	}
	return &cli.Command{
		Name:      "show",
		Usage:     "print one decision in full: its frontmatter and Markdown body",
		UsageText: "adrkit show REF [--json [--limit N] [--cursor C]]",
		Description: "REF is a record id such as 0042 (or a ULID), optionally with a log name (payments:0042);\n" +
			"a number of fewer than four digits is the four-digit id (9 is 0009).\n" +
			"Exits 1 when no single local record has that id: none does, several do (they are listed),\n" +
			"or the ref names another decision log.\n\n" +
			"Examples:\n" +
			"  adrkit show 0003\n" +
			"  adrkit show 0003 --json",
		Flags:  pageFlags(),
		Action: spec.action(env, stdout),
	}
}

func explainCommand(stdout io.Writer, env environment) *cli.Command {
	// The files' markers, read before the call unless it refuses the
	// files.
	var markers *app.MarkerReport
	spec := toolSpec{
		tool: app.ToolGetDecisionContext, walked: "printed",
		args: atLeastOne("explain needs at least one FILE, e.g. adrkit explain src/app.go"),
		bind: func(ctx context.Context, cmd *cli.Command, s *settings, page app.Page) (app.Input, func(app.Outcome) error, error) {
			// Each FILE is taken as a shell means it (relative to the
			// working directory, or absolute inside the repository) and
			// then matched as the reference's explain matches a
			// repository path (ADR 0033).
			files, err := s.repoPaths(cmd, cmd.Args().Slice())
			if err != nil {
				return nil, nil, err
			}
			in := app.ContextInput{Files: files, CommandLine: true, Page: page}
			// Bad files are refused (by the call) before any is opened.
			if _, bad := app.RefuseContext(in); !bad {
				rep, err := app.ReadMarkers(ctx, sourceReader(s), slashed(files))
				if err != nil {
					return nil, nil, err
				}
				markers, in.Markers = &rep, rep.Declarations()
			}
			return in, func(r app.Outcome) error {
				m, _ := r.(app.Matches)
				return render.WriteExplain(stdout, m, files, markers, s.style)
			}, nil
		},
		jsonOf: func(ans *app.Answer) any {
			m, _ := ans.Result.(app.Matches)
			return render.ExplainJSON{CorpusHealth: ans.CorpusHealth, Result: ans.Result, Markers: render.NewMarkersJSON(markers), Withheld: m.Withheld}
		},
	}
	return &cli.Command{
		Name:      "explain",
		Usage:     "show which decisions govern some files, which proposals would, and which once did",
		UsageText: "adrkit explain FILE... [--json [--limit N] [--cursor C]]",
		Description: "FILEs are paths as a shell gives them: relative to the working directory (in a subdirectory,\n" +
			"a repository path such as git diff --name-only prints is taken too when that is the file that\n" +
			"exists) or absolute inside the repository; a path outside the repository is refused (status 2).\n" +
			"They need not exist. Each is matched against every record's affects patterns and read (its first\n" +
			"8 KiB) for @adr markers, which declare the decisions it lives under. Accepted decisions\n" +
			"govern; drafts and proposals are active proposals; rejected, superseded and deprecated ones\n" +
			"are history. Each record is shown with the matchers that fired for it and the markers that\n" +
			"declared it.\n\n" +
			"Like the reference's explain, it answers only for a corpus without errors: when adrkit lint\n" +
			"finds one, no decision is shown and the status is 1.\n\n" +
			"Examples:\n" +
			"  adrkit explain adapters/mcp/server.go\n" +
			"  adrkit explain $(git diff --name-only main)\n" +
			"  adrkit explain app/lint.go --json",
		Flags:  pageFlags(),
		Action: spec.action(env, stdout),
	}
}

func supersededCommand(stdout io.Writer, env environment) *cli.Command {
	spec := toolSpec{
		tool: app.ToolListSuperseded, walked: "printed",
		args: noArgs,
		bind: func(_ context.Context, _ *cli.Command, s *settings, page app.Page) (app.Input, func(app.Outcome) error, error) {
			return app.SupersededInput{Page: page}, func(r app.Outcome) error {
				e, _ := r.(app.Entries)
				return render.WriteSuperseded(stdout, e, s.style)
			}, nil
		},
	}
	return &cli.Command{
		Name:      "superseded",
		Usage:     "list superseded decisions and what replaced each",
		UsageText: "adrkit superseded [--json [--limit N] [--cursor C]]",
		Description: "Each superseded record is listed with its direct replacement (one hop, never a chain):\n" +
			"the record its supersededBy names, or why that reference does not resolve here.\n\n" +
			"Examples:\n" +
			"  adrkit superseded\n" +
			"  adrkit --rev v1.2.0 superseded --json",
		Flags:  pageFlags(),
		Action: spec.action(env, stdout),
	}
}

func chainCommand(stdout io.Writer, env environment) *cli.Command {
	spec := toolSpec{
		// Without --json the findings pages are only counted.
		tool: app.ToolGetSupersessionChain, walked: "read",
		args: exactlyOne("chain needs exactly one REF, e.g. adrkit chain 0003"),
		bind: func(_ context.Context, cmd *cli.Command, s *settings, page app.Page) (app.Input, func(app.Outcome) error, error) {
			// The tool has a findings channel only; the chain comes whole.
			in := app.ChainInput{Ref: shortRef(cmd.Args().First()), FindingsCursor: page.FindingsCursor, FindingsLimit: page.FindingsLimit}
			return in, func(r app.Outcome) error { return render.WriteChain(stdout, r, s.style) }, nil
		},
	}
	return &cli.Command{
		Name:      "chain",
		Usage:     "follow what replaced a decision and say whether to act on it",
		UsageText: "adrkit chain REF [--json [--findings-limit N] [--findings-cursor C]]",
		Description: "Walks the supersedes/supersededBy lineage of REF (at most 12 steps each way) and prints it\n" +
			"oldest first, then the verdict: current (the newest record is accepted and nothing replaces\n" +
			"it) or hold, with the reason and what to do. This is the get_supersession_chain tool.\n" +
			"Exits 1 on hold, and when no single local record has the id.\n\n" +
			"Examples:\n" +
			"  adrkit chain 0003\n" +
			"  adrkit chain 0003 --json\n" +
			"  adrkit chain 0003 && ./deploy.sh      # only when 0003's line is settled",
		Flags:  append([]cli.Flag{jsonFlag("{corpusHealth, result}", "one findings page")}, findingsFlags()...),
		Action: spec.action(env, stdout),
	}
}

// shortRef reads a number of fewer than four digits, which no record id
// can be (ids have four or more), as the four-digit id people mean by it:
// "show 9" is "show 0009". Anything else is the ref as given.
func shortRef(ref string) string {
	if ref == "" || len(ref) >= 4 || strings.Trim(ref, "0123456789") != "" {
		return ref
	}
	return strings.Repeat("0", 4-len(ref)) + ref
}

// snippetWidth is how much of the matching text search shows under a
// result.
const snippetWidth = 100

// searchSnippets is, by source path, a short piece of each matching
// record's body around the query, for a person scanning the results;
// none when the query matched only the id, title or tags, or the corpus
// cannot be read a second time.
func searchSnippets(ctx context.Context, s *settings, res app.SearchResults, query string) map[string]string {
	if query == "" || len(res.Items) == 0 {
		return nil
	}
	p, err := s.service.Project(ctx)
	if err != nil {
		return nil
	}
	want := map[string]bool{}
	for _, it := range res.Items {
		want[string(it.SourcePath)] = true
	}
	out := map[string]string{}
	for _, rec := range p.Records {
		if want[rec.SourcePath] {
			out[rec.SourcePath] = app.Snippet(rec.Body, query, snippetWidth)
		}
	}
	return out
}

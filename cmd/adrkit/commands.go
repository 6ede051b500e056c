package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/urfave/cli/v3"

	adrcli "github.com/adrkit/adrkit-go/adapters/cli"
	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/adapters/gitrev"
	"github.com/adrkit/adrkit-go/adapters/mcp"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/ports"
)

// informationURI is where SARIF consumers send people for the tool.
const informationURI = "https://github.com/adrkit/adrkit-go"

// commandNames lists the subcommands for the unknown-command message.
const commandNames = "lint, search, show, explain, superseded, graph and mcp"

// rootCommand builds the command tree for one run.
func rootCommand(stdout, stderr io.Writer, env environment) *cli.Command {
	root := &cli.Command{
		Name:      "adrkit",
		Usage:     "decision memory for coding agents: show, check and serve architecture decision records",
		UsageText: "adrkit [global options] [command [options] [arguments...]]",
		Description: "Reads the ADR directory of a repository (one Markdown file per decision, with typed YAML\n" +
			"frontmatter) and answers: has this been decided, what governs these files, what replaced this.\n" +
			"Without a command it prints an overview of the corpus.\n\n" +
			"Examples:\n" +
			"  adrkit                                   overview of docs/adr\n" +
			"  adrkit explain internal/db/pool.go       decisions that govern a file\n" +
			"  adrkit lint --format sarif > adr.sarif   check the corpus for CI\n" +
			"  adrkit --rev main superseded             what main says was replaced",
		Version:         version(),
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		Flags: []cli.Flag{
			&cli.StringFlag{
				Name:      "cwd",
				Usage:     "repository root, a Git worktree (default: the working directory)",
				Sources:   fromEnv(env, "ADRKIT_MCP_CWD"),
				TakesFile: true,
			},
			&cli.StringFlag{
				Name:      "dir",
				Usage:     `ADR directory, relative to the repository root ("" for the root itself)`,
				Value:     mcp.DefaultDir,
				Sources:   fromEnv(env, "ADRKIT_MCP_DIR"),
				TakesFile: true,
			},
			&cli.StringFlag{
				Name:    "rev",
				Usage:   "read the corpus from this git revision (HEAD, a branch, a tag, HEAD~3, a hash) instead of the working tree",
				Sources: fromEnv(env, "ADRKIT_MCP_REV"),
			},
			&cli.StringFlag{
				Name:  "color",
				Usage: "colour human output: auto (on a terminal, unless NO_COLOR is set), always or never",
				Value: string(adrcli.ColorAuto),
			},
		},
		OnUsageError: onUsageError,
		// Exit statuses are decided by run, from the error Run returns.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Present() {
				return unknownCommand(ctx, cmd)
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			rep, err := s.service.Lint(ctx, app.LintInput{Clock: env.Clock})
			if err != nil {
				return s.failure(err)
			}
			return adrcli.WriteOverview(stdout, rep, s.source, s.style)
		},
		Commands: []*cli.Command{
			lintCommand(stdout, env),
			searchCommand(stdout, env),
			showCommand(stdout, env),
			explainCommand(stdout, env),
			supersededCommand(stdout, env),
			chainCommand(stdout, env), changesCommand(stdout, env),
			graphCommand(stdout, env),
			mcpCommand(stdout, stderr, env),
		},
	}
	return root
}

// unknownCommand handles positional words after "adrkit": "help [command]"
// prints help (the cli package's help command is hidden because its
// wording is not ours); anything else is a mistake.
func unknownCommand(ctx context.Context, cmd *cli.Command) error {
	args := cmd.Args().Slice()
	if args[0] == "help" {
		if len(args) > 1 && cmd.Command(args[1]) != nil {
			return cli.ShowCommandHelp(ctx, cmd, args[1])
		}
		return cli.ShowRootCommandHelp(cmd)
	}
	return usageError{command: "adrkit", msg: fmt.Sprintf("unknown command %q; the commands are %s", args[0], commandNames)}
}

// settings is what every command needs once the global options are read.
type settings struct {
	cwd, dir, rev string
	source        adrcli.Source
	style         adrcli.Style
	service       *app.Service
}

// failure turns an error from the app into the exit the command ends
// with: an unusable corpus is status 1 with the worded diagnostic.
func (s *settings) failure(err error) error {
	if msg := adrcli.DescribeUnavailable(err, s.source); msg != "" {
		return exitError{code: exitFailure, msg: msg}
	}
	return exitError{code: exitFailure, msg: err.Error()}
}

// checker is the start-up validation both corpus readers offer.
type checker interface {
	ports.CorpusReader
	Check(ctx context.Context) error
}

// settle reads the global options exactly as adrkit-mcp does (flag, then
// ADRKIT_MCP_* variable, then default; an empty value counts as given),
// builds the corpus reader and validates it, so that an unusable root or
// directory is reported once, before any work.
func settle(ctx context.Context, cmd *cli.Command, env environment) (*settings, error) {
	mode, err := adrcli.ParseColorMode(cmd.String("color"))
	if err != nil {
		return nil, usageError{command: cmd.FullName(), msg: err.Error()}
	}
	s := &settings{cwd: cmd.String("cwd"), dir: cmd.String("dir"), rev: cmd.String("rev")}
	if !cmd.IsSet("cwd") {
		// Explicitly empty stays empty: it names no directory.
		s.cwd = "."
	}
	if cmd.IsSet("dir") && s.dir == "" {
		s.dir = "." // the root itself
	}
	s.style = adrcli.NewStyle(adrcli.UseColor(mode, env.Terminal, env.Getenv))
	s.source = adrcli.NewSource(s.cwd, s.dir, s.rev)

	var reader checker = filesystem.New(s.cwd, s.dir)
	if s.rev != "" {
		reader = gitrev.New(s.cwd, s.dir, s.rev)
	}
	if err := reader.Check(ctx); err != nil {
		return nil, s.failure(err)
	}
	s.service = app.New(reader, app.Options{})
	return s, nil
}

// noArgs refuses positional arguments for commands that take none.
func noArgs(cmd *cli.Command) error {
	if cmd.Args().Present() {
		return usageError{command: cmd.FullName(), msg: fmt.Sprintf("unexpected argument %q: %s takes no arguments", cmd.Args().First(), cmd.FullName())}
	}
	return nil
}

func lintCommand(stdout io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "check every record and report what is wrong (the CI gate)",
		UsageText: "adrkit lint [--format text|json|sarif|github] [--strict] [--as-of YYYY-MM-DD]",
		Description: "Reports every corpus finding (schema, YAML, duplicate ids, dangling references...) with\n" +
			"its line where known, plus what only lint checks: affects patterns that can never match,\n" +
			"Markdown files that look like records but are not read (misnamed, nested, links), and\n" +
			"draft, proposed or accepted decisions past their reviewBy date.\n" +
			"Exits 1 when there is an error (with --strict, also a warning), 0 otherwise.\n\n" +
			"Examples:\n" +
			"  adrkit lint\n" +
			"  adrkit lint --strict --as-of 2026-01-01\n" +
			"  adrkit lint --format sarif > adrkit.sarif\n" +
			"  adrkit lint --format github            # annotations in a GitHub Actions log",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: string(adrcli.LintText), Usage: "text, json, sarif (2.1.0) or github (workflow annotations)"},
			&cli.BoolFlag{Name: "strict", Usage: "fail on warnings too"},
			&cli.StringFlag{Name: "as-of", Usage: "compare reviewBy dates with this day (YYYY-MM-DD) instead of today (UTC)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			format, err := adrcli.ParseLintFormat(cmd.String("format"))
			if err != nil {
				return usageError{command: cmd.FullName(), msg: err.Error()}
			}
			asOf := cmd.String("as-of")
			if cmd.IsSet("as-of") {
				if err := app.ValidateDate(asOf); err != nil {
					return usageError{command: cmd.FullName(), msg: "--as-of: " + err.Error()}
				}
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			rep, err := s.service.Lint(ctx, app.LintInput{AsOf: asOf, Clock: env.Clock})
			if err != nil {
				return s.failure(err)
			}
			strict := cmd.Bool("strict")
			err = adrcli.WriteLint(stdout, rep, adrcli.LintOptions{
				Format: format, Strict: strict, Source: s.source, Style: s.style,
				Tool: adrcli.Tool{Name: "adrkit", Version: version(), InformationURI: informationURI},
			})
			if err != nil {
				return err
			}
			if rep.Failed(strict) {
				return exitError{code: exitFailure}
			}
			return nil
		},
	}
}

// pageFlags are the pagination options of the --json mode.
func pageFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "json", Usage: "print the structured answer the MCP tool returns ({corpusHealth, result}), one page of it"},
		&cli.IntFlag{Name: "limit", Usage: "with --json: page size, 1 to 100 (default 20)", HideDefault: true},
		&cli.StringFlag{Name: "cursor", Usage: "with --json: the cursor of the previous page, to get the next one"},
		&cli.IntFlag{Name: "findings-limit", Usage: "with --json: findings page size, 1 to 100 (default 20)", HideDefault: true},
		&cli.StringFlag{Name: "findings-cursor", Usage: "with --json: the findings cursor of the previous page"},
	}
}

// readPage reads the pagination options; they only make sense with
// --json, since a person is shown every page.
func readPage(cmd *cli.Command) (app.Page, error) {
	var p app.Page
	names := []string{"limit", "cursor", "findings-limit", "findings-cursor"}
	if !cmd.Bool("json") {
		for _, n := range names {
			if cmd.IsSet(n) {
				return p, usageError{command: cmd.FullName(), msg: "--" + n + " pages the --json output; without --json every page is printed"}
			}
		}
		return p, nil
	}
	for _, n := range []string{"limit", "findings-limit"} {
		if cmd.IsSet(n) && cmd.Int(n) == 0 {
			// The app reads 0 as "use the default", so refuse it here.
			return p, usageError{command: cmd.FullName(), msg: "--" + n + " must be from 1 to 100, got 0"}
		}
	}
	p.Limit, p.FindingsLimit = cmd.Int("limit"), cmd.Int("findings-limit")
	if cmd.IsSet("cursor") {
		c := cmd.String("cursor")
		p.Cursor = &c
	}
	if cmd.IsSet("findings-cursor") {
		c := cmd.String("findings-cursor")
		p.FindingsCursor = &c
	}
	return p, nil
}

// answerTool runs one decision tool and prints its answer: the structured
// result as JSON (one page), or every page merged and laid out by human.
// The exit status follows the outcome (see adrcli.OutcomeStatus).
func answerTool(ctx context.Context, cmd *cli.Command, s *settings, stdout io.Writer, tool string,
	call adrcli.PageCall, human func(result any) error) error {
	page, err := readPage(cmd)
	if err != nil {
		return err
	}
	asJSON := cmd.Bool("json")
	var res app.Result
	if asJSON {
		res, err = call(ctx, page)
	} else {
		res, err = adrcli.WalkPages(ctx, call)
	}
	if err != nil {
		return s.failure(err)
	}
	if res.IsError {
		return usageError{command: cmd.FullName(), msg: adrcli.RefusalDetail(tool, res.Text)}
	}
	ans, ok := res.Structured.(app.Answer)
	if !ok {
		return exitError{code: exitFailure, msg: tool + " gave an answer of an unexpected shape"}
	}
	if asJSON {
		if err := adrcli.WriteJSON(stdout, ans); err != nil {
			return err
		}
	}
	switch r := ans.Result.(type) {
	case app.CorpusUnavailable:
		return s.failure(&ports.UnavailableError{Reason: r.Reason})
	case app.InvalidCursor:
		if asJSON {
			return usageError{command: cmd.FullName(), msg: "the cursor was refused: " + r.Message}
		}
		return exitError{code: exitFailure, msg: "the corpus changed while its pages were being read; run the command again"}
	}
	if !asJSON {
		if err := human(ans.Result); err != nil {
			return err
		}
	}
	if code := adrcli.OutcomeStatus(ans.Result); code != exitOK {
		return exitError{code: code}
	}
	return nil
}

func searchCommand(stdout io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "find decisions whose id, title, tags or body contain some text",
		UsageText: "adrkit search QUERY... [--status S]... [--tag T]... [--scope S]... [--json [--limit N] [--cursor C]]",
		Description: "The words of QUERY are joined with single spaces and matched literally (trimmed, case- and\n" +
			"width-folded) against each record's id, title, tags and Markdown body. --status and --scope keep\n" +
			"records with any of the given values, --tag those with all the given tags; repeat an option to\n" +
			"give several values. Every status is searched unless filtered, superseded records included.\n\n" +
			"Examples:\n" +
			"  adrkit search postgres\n" +
			"  adrkit search cache --status accepted --status proposed\n" +
			"  adrkit search retry --tag resilience --json",
		OnUsageError:              onUsageError,
		DisableSliceFlagSeparator: true,
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "status", Usage: "only records with this status (draft, proposed, accepted, rejected, superseded, deprecated)"},
			&cli.StringSliceFlag{Name: "tag", Usage: "only records carrying this tag"},
			&cli.StringSliceFlag{Name: "scope", Usage: "only records with this scope (component, domain, org)"},
		}, pageFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if !cmd.Args().Present() {
				return usageError{command: cmd.FullName(), msg: "search needs a query, e.g. adrkit search postgres"}
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			in := app.SearchInput{
				Query:  strings.Join(cmd.Args().Slice(), " "),
				Status: typed[adr.Status](cmd, "status"),
				Tags:   typed[string](cmd, "tag"),
				Scope:  typed[adr.Scope](cmd, "scope"),
			}
			call := func(ctx context.Context, p app.Page) (app.Result, error) {
				in.Page = p
				return s.service.SearchDecisions(ctx, in)
			}
			return answerTool(ctx, cmd, s, stdout, app.ToolSearchDecisions, call, func(r any) error {
				res, _ := r.(app.SearchResults)
				return adrcli.WriteSearch(stdout, res, in.Query, s.style)
			})
		},
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
	return &cli.Command{
		Name:      "show",
		Usage:     "print one decision in full: its frontmatter and Markdown body",
		UsageText: "adrkit show REF [--json [--limit N] [--cursor C]]",
		Description: "REF is a record id such as 0042 (or a ULID), optionally with a log name (payments:0042).\n" +
			"Exits 1 when no single local record has that id: none does, several do (they are listed),\n" +
			"or the ref names another decision log.\n\n" +
			"Examples:\n" +
			"  adrkit show 0003\n" +
			"  adrkit show 0003 --json",
		OnUsageError: onUsageError,
		Flags:        pageFlags(),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return usageError{command: cmd.FullName(), msg: "show needs exactly one REF, e.g. adrkit show 0003"}
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			in := app.GetInput{Ref: cmd.Args().First()}
			call := func(ctx context.Context, p app.Page) (app.Result, error) {
				in.Page = p
				return s.service.GetDecision(ctx, in)
			}
			return answerTool(ctx, cmd, s, stdout, app.ToolGetDecision, call, func(r any) error {
				return adrcli.WriteDecision(stdout, r, s.style)
			})
		},
	}
}

func explainCommand(stdout io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "explain",
		Usage:     "show which decisions govern some files, which proposals would, and which once did",
		UsageText: "adrkit explain FILE... [--json [--limit N] [--cursor C]]",
		Description: "FILEs are repository-relative paths (an absolute path inside the repository is made\n" +
			"relative). They are matched against each record's affects patterns; the files themselves are\n" +
			"never opened, so they need not exist. Accepted decisions govern; drafts and proposals are\n" +
			"active proposals; rejected, superseded and deprecated ones are history. Each record is shown\n" +
			"with the matchers that fired for it.\n\n" +
			"Examples:\n" +
			"  adrkit explain adapters/mcp/server.go\n" +
			"  adrkit explain $(git diff --name-only main)\n" +
			"  adrkit explain app/lint.go --json",
		OnUsageError: onUsageError,
		Flags:        pageFlags(),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if !cmd.Args().Present() {
				return usageError{command: cmd.FullName(), msg: "explain needs at least one FILE, e.g. adrkit explain src/app.go"}
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			files := cmd.Args().Slice()
			for i, f := range files {
				files[i] = adrcli.RepoRelative(s.cwd, f)
			}
			in := app.ContextInput{Files: files}
			call := func(ctx context.Context, p app.Page) (app.Result, error) {
				in.Page = p
				return s.service.GetDecisionContext(ctx, in)
			}
			return answerTool(ctx, cmd, s, stdout, app.ToolGetDecisionContext, call, func(r any) error {
				m, _ := r.(app.Matches)
				return adrcli.WriteContext(stdout, m, files, s.style)
			})
		},
	}
}

func supersededCommand(stdout io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "superseded",
		Usage:     "list superseded decisions and what replaced each",
		UsageText: "adrkit superseded [--json [--limit N] [--cursor C]]",
		Description: "Each superseded record is listed with its direct replacement (one hop, never a chain):\n" +
			"the record its supersededBy names, or why that reference does not resolve here.\n\n" +
			"Examples:\n" +
			"  adrkit superseded\n" +
			"  adrkit --rev v1.2.0 superseded --json",
		OnUsageError: onUsageError,
		Flags:        pageFlags(),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			call := func(ctx context.Context, p app.Page) (app.Result, error) {
				return s.service.ListSuperseded(ctx, app.SupersededInput{Page: p})
			}
			return answerTool(ctx, cmd, s, stdout, app.ToolListSuperseded, call, func(r any) error {
				e, _ := r.(app.Entries)
				return adrcli.WriteSuperseded(stdout, e, s.style)
			})
		},
	}
}

func graphCommand(stdout io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "graph",
		Usage:     "draw how the decisions relate (Mermaid or Graphviz DOT)",
		UsageText: "adrkit graph [--format mermaid|dot]",
		Description: "Nodes are records, coloured by status (a legend lists the colours in use); references to\n" +
			"records that are not in the corpus (a missing id, or another log's) are dashed nodes.\n" +
			"supersedes is a thick arrow from the newer record, relatesTo a plain line and conflictsWith\n" +
			"a dotted line; a relation declared from both ends is drawn once.\n\n" +
			"Examples:\n" +
			"  adrkit graph > docs/adr-graph.mmd\n" +
			"  adrkit graph --format dot | dot -Tsvg > adr-graph.svg",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: string(adrcli.GraphMermaid), Usage: "mermaid (a flowchart for Markdown) or dot (Graphviz)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			format, err := adrcli.ParseGraphFormat(cmd.String("format"))
			if err != nil {
				return usageError{command: cmd.FullName(), msg: err.Error()}
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			g, err := s.service.Graph(ctx)
			if err != nil {
				return s.failure(err)
			}
			return adrcli.WriteGraph(stdout, g, format, s.source)
		},
	}
}

func mcpCommand(stdout, stderr io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "mcp",
		Usage:     "serve the decisions to a coding agent over MCP on stdin/stdout (as adrkit-mcp does)",
		UsageText: "adrkit mcp [--cwd <path>] [--dir <path>] [--rev <revision>]",
		Description: "Speaks the Model Context Protocol on stdin and stdout, one JSON-RPC message per line,\n" +
			"exactly as the adrkit-mcp binary: the same four tools, both protocol eras. The corpus is\n" +
			"read afresh for every call. Ends with status 0 when stdin ends.\n\n" +
			"Examples:\n" +
			"  adrkit mcp\n" +
			"  adrkit --rev main mcp          # answer from main, whatever the working tree holds",
		OnUsageError: onUsageError,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			return serveMCP(ctx, s, env.Stdin, stdout, stderr)
		},
	}
}

// serveMCP runs the MCP server until stdin ends or ctx is done, with the
// exit statuses of adrkit-mcp: a failure reported while serving makes the
// final status 1, a signal makes it 0.
func serveMCP(ctx context.Context, s *settings, stdin io.Reader, stdout, stderr io.Writer) error {
	// A client that goes away must not kill the process silently: with
	// SIGPIPE ignored a write to the closed stdout fails with EPIPE, which
	// is reported. Only this command ignores it; the others may be piped
	// into head.
	signal.Ignore(syscall.SIGPIPE)
	var diagnosed atomic.Bool
	var mu sync.Mutex
	srv := mcp.New(mcp.Options{
		Cwd: s.cwd, Dir: s.dir, Rev: s.rev,
		In: stdin, Out: stdout, Err: stderr,
		OnError: func(err error) {
			diagnosed.Store(true)
			mu.Lock()
			defer mu.Unlock()
			_, _ = io.WriteString(stderr, "adrkit: transport error: "+err.Error()+"\n")
		},
	})
	err := srv.Serve(ctx)
	_ = srv.Close()
	switch {
	case ctx.Err() != nil:
		return nil
	case err != nil:
		var u *ports.UnavailableError
		if errors.As(err, &u) {
			return s.failure(err)
		}
		return exitError{code: exitFailure, msg: err.Error()}
	case diagnosed.Load():
		return exitError{code: exitFailure}
	}
	return nil
}

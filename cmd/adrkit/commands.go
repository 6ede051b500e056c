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

	"github.com/adrkit/adrkit-go/adapters/mcp"
	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/adapters/source"
	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// informationURI is where SARIF consumers send people for the tool.
const informationURI = "https://github.com/adrkit/adrkit-go"

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
			"  adrkit --rev main superseded             what main says was replaced\n" +
			"  adrkit migrate --dry-run                 adopt an adr-tools, MADR or log4brains folder\n" +
			"  adrkit new \"Use PostgreSQL\"              write the next record\n" +
			"  adrkit init && adrkit doctor             wire Claude Code to the decisions, and check it",
		Version:         version(),
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		Flags: []cli.Flag{
			&cli.StringFlag{
				Name:      "cwd",
				Usage:     "repository root, a Git worktree (default: the nearest directory with a .git entry, from the working directory up)",
				Sources:   fromEnv(env, "ADRKIT_MCP_CWD"),
				TakesFile: true,
			},
			&cli.StringFlag{
				Name: "dir",
				Usage: `ADR directory, relative to the repository root ("" for the root itself); by default the one an ` +
					`.adr-dir file names, else the first of docs/adr, doc/adr and docs/decisions that exists`,
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
				Value: string(render.ColorAuto),
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
			return render.WriteOverview(stdout, rep, s.source, s.style)
		},
		Commands: []*cli.Command{
			lintCommand(stdout, env),
			checkCommand(stdout, env),
			searchCommand(stdout, env),
			showCommand(stdout, env),
			explainCommand(stdout, env),
			supersededCommand(stdout, env),
			chainCommand(stdout, env),
			changesCommand(stdout, env),
			queueCommand(stdout, env),
			graphCommand(stdout, env),
			siteCommand(stdout, env),
			newCommand(stdout, env),
			migrateCommand(stdout, env),
			statusCommand(stdout, env),
			renumberCommand(stdout, env),
			indexCommand(stdout, env),
			mcpCommand(stdout, stderr, env),
			hookCommand(stdout, env),
			initCommand(stdout, env),
			doctorCommand(stdout, env),
		},
	}
	for _, c := range root.Commands {
		if c.OnUsageError == nil { // hook words its own: it never exits 2
			c.OnUsageError = onUsageError
		}
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
	return usageError{command: "adrkit", msg: fmt.Sprintf("unknown command %q; the commands are %s", args[0], commandNames(cmd))}
}

// commandNames lists the visible subcommands of cmd in the order help
// shows them: "lint, search and mcp".
func commandNames(cmd *cli.Command) string {
	var names []string
	for _, c := range cmd.VisibleCommands() {
		names = append(names, c.Name)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// settings is what every command needs once the global options are read.
type settings struct {
	cwd, dir, rev string
	// wd is the directory FILE arguments are relative to: where the
	// command was started, or the root when --cwd named it.
	wd string
	// unnamed says that nothing named the ADR directory and none of
	// workspace.DefaultDirs exists: the repository has no decisions yet.
	unnamed bool
	source  render.Source
	style   render.Style
	service *app.Service
}

// noDecisionsYet is what a command that reads decisions says in a
// repository that has none: where it looked, and the next step.
var noDecisionsYet = "This repository has no decisions yet: there is no " +
	strings.Join(workspace.DefaultDirs[:len(workspace.DefaultDirs)-1], ", ") + " or " + workspace.DefaultDirs[len(workspace.DefaultDirs)-1] +
	" directory and no " + workspace.AdrDirFile + " file naming one. Run adrkit init to set the repository up " +
	"(the first record included), or adrkit new \"Title\" to write the first record in " + workspace.DefaultDirs[0] + "."

// failure turns an error from the app into the exit the command ends
// with: an unusable corpus is status 1 with the worded diagnostic.
func (s *settings) failure(err error) error {
	if u := (*ports.UnavailableError)(nil); s.unnamed && errors.As(err, &u) && u.Reason == corpus.DirNotFound {
		return exitError{code: exitFailure, msg: noDecisionsYet}
	}
	if msg := render.DescribeUnavailable(err, s.source); msg != "" {
		return exitError{code: exitFailure, msg: msg}
	}
	return exitError{code: exitFailure, msg: err.Error()}
}

// settle reads the global options exactly as adrkit-mcp does (flag, then
// ADRKIT_MCP_* variable, then default; an empty value counts as given),
// builds the corpus reader and validates it, so that an unusable root or
// directory is reported once, before any work.
func settle(ctx context.Context, cmd *cli.Command, env environment) (*settings, error) {
	mode, err := render.ParseColorMode(cmd.String("color"))
	if err != nil {
		return nil, usageError{command: cmd.FullName(), msg: err.Error()}
	}
	s := &settings{cwd: cmd.String("cwd"), dir: cmd.String("dir"), rev: cmd.String("rev")}
	locate(cmd, env, s)
	s.style = render.NewStyle(render.UseColor(mode, env.Terminal, env.Getenv)).WithWidth(tableWidth(env))
	s.source = render.NewSource(s.cwd, s.dir, s.rev)

	reader := source.New(s.cwd, s.dir, s.rev)
	if err := reader.Check(ctx); err != nil {
		return nil, s.startFailure(cmd, err)
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
		UsageText: "adrkit lint [PATH...] [--format text|json|sarif|github] [--strict] [--as-of YYYY-MM-DD]",
		Description: "Reports every corpus finding (schema, YAML, duplicate ids, dangling references...) with\n" +
			"its line where known, plus what only lint checks: affects patterns that can never match,\n" +
			"Markdown files that look like records but are not read (misnamed, nested, links), and\n" +
			"draft, proposed or accepted decisions past their reviewBy date. With PATHs (files of the ADR\n" +
			"directory, repository-relative) only their findings are reported; the corpus is still read\n" +
			"whole, so that a reference to another record is checked.\n" +
			"Exits 1 when there is an error (with --strict, also a warning), 0 otherwise.\n\n" +
			"Examples:\n" +
			"  adrkit lint\n" +
			"  adrkit lint docs/adr/0012-adopt-postgres.md\n" +
			"  adrkit lint --strict --as-of 2026-01-01\n" +
			"  adrkit lint --format sarif > adrkit.sarif\n" +
			"  adrkit lint --format github            # annotations in a GitHub Actions log",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: string(render.LintText), Usage: "text, json, sarif (2.1.0) or github (workflow annotations)"},
			&cli.BoolFlag{Name: "strict", Usage: "fail on warnings too"},
			&cli.StringFlag{Name: "as-of", Usage: "compare reviewBy dates with this day (YYYY-MM-DD) instead of today (UTC)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			format, err := render.ParseLintFormat(cmd.String("format"))
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
			paths, err := lintPaths(cmd, s, rep)
			if err != nil {
				return err
			}
			if paths != nil {
				rep = rep.Only(paths)
			}
			strict := cmd.Bool("strict")
			err = render.WriteLint(stdout, rep, render.LintOptions{
				Format: format, Strict: strict, Source: s.source, Style: s.style, Paths: paths,
				Tool: render.Tool{Name: "adrkit", Version: version(), InformationURI: informationURI},
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

func graphCommand(stdout io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "graph",
		Usage:     "draw how the decisions relate (Mermaid or Graphviz DOT), or list the relations (JSON)",
		UsageText: "adrkit graph [--format mermaid|dot|json]",
		Description: "Nodes are records, coloured by status (a legend lists the colours in use); references to\n" +
			"records that are not in the corpus (a missing id, or another log's) are dashed nodes.\n" +
			"supersedes is a thick arrow from the newer record, relatesTo a plain line and conflictsWith\n" +
			"a dotted line; a relation declared from both ends is drawn once.\n\n" +
			"Examples:\n" +
			"  adrkit graph > docs/adr-graph.mmd\n" +
			"  adrkit graph --format dot | dot -Tsvg > adr-graph.svg\n" +
			"  adrkit graph --format json | jq '.edges[] | select(.kind == \"supersedes\")'",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: string(render.GraphMermaid), Usage: "mermaid (a flowchart for Markdown), dot (Graphviz) or json (nodes and edges)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			format, err := render.ParseGraphFormat(cmd.String("format"))
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
			return render.WriteGraph(stdout, g, format, s.source)
		},
	}
}

// The values of mcp --tools (ADRKIT_MCP_TOOLS), read as adrkit-mcp reads
// them: the four tools of the contract, unchanged, or those and the two
// extended ones (docs/extended-tools.md).
const (
	toolsDefault  = "default"
	toolsExtended = "extended"
)

// The values of mcp --content (ADRKIT_MCP_CONTENT), read as adrkit-mcp
// reads them: a tool answer's content is its summary line, or that line
// and the structured answer as JSON text for clients that hand the model
// only content.
const (
	contentSummary = "summary"
	contentFull    = "full"
)

func mcpCommand(stdout, stderr io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "mcp",
		Usage:     "serve the decisions to a coding agent over MCP on stdin/stdout (as adrkit-mcp does)",
		UsageText: "adrkit mcp [--cwd <path>] [--dir <path>] [--rev <revision>] [--tools default|extended] [--content summary|full]",
		Description: "Speaks the Model Context Protocol on stdin and stdout, one JSON-RPC message per line,\n" +
			"exactly as the adrkit-mcp binary: the four tools (with --tools extended, also\n" +
			"get_supersession_chain, list_decision_changes and list_review_queue), both protocol\n" +
			"eras. The corpus is read afresh for every call. Ends with status 0 when stdin ends.\n\n" +
			"Examples:\n" +
			"  adrkit mcp\n" +
			"  adrkit --rev main mcp          # answer from main, whatever the working tree holds\n" +
			"  adrkit mcp --tools extended    # also the supersession chain, the change feed and the review queue\n" +
			"  adrkit mcp --content full      # for clients that give the model only a tool's content",
		Flags: []cli.Flag{
			&cli.StringFlag{
				Name: "tools",
				Usage: "tool surface: default (the four tools) or extended (adds get_supersession_chain, " +
					"list_decision_changes and list_review_queue; see docs/extended-tools.md)",
				Value:   toolsDefault,
				Sources: fromEnv(env, "ADRKIT_MCP_TOOLS"),
			},
			&cli.StringFlag{
				Name: "content",
				Usage: "content of a tool answer: summary (the one summary line) or full (also the structured answer " +
					"as JSON text, for clients that give the model only content and ignore structuredContent)",
				Value:   contentSummary,
				Sources: fromEnv(env, "ADRKIT_MCP_CONTENT"),
			},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			tools := cmd.String("tools")
			if tools != toolsDefault && tools != toolsExtended {
				return usageError{command: cmd.FullName(), msg: fmt.Sprintf("--tools must be %q or %q, got %q", toolsDefault, toolsExtended, tools)}
			}
			content := cmd.String("content")
			if content != contentSummary && content != contentFull {
				return usageError{command: cmd.FullName(), msg: fmt.Sprintf("--content must be %q or %q, got %q", contentSummary, contentFull, content)}
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			return serveMCP(ctx, s, serveOptions{extended: tools == toolsExtended, fullContent: content == contentFull}, env.Stdin, stdout, stderr)
		},
	}
}

// serveOptions are the mcp command's own choices: the extended tools too,
// and the structured answer in content as well.
type serveOptions struct {
	extended, fullContent bool
}

// serveMCP runs the MCP server until stdin ends or ctx is done, with the
// exit statuses of adrkit-mcp: a failure reported while serving makes the
// final status 1, a signal makes it 0.
func serveMCP(ctx context.Context, s *settings, o serveOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	// A client that goes away must not kill the process silently: with
	// SIGPIPE ignored a write to the closed stdout fails with EPIPE, which
	// is reported. Only this command ignores it; the others may be piped
	// into head.
	signal.Ignore(syscall.SIGPIPE)
	mcp.SetCollector()
	var diagnosed atomic.Bool
	var mu sync.Mutex
	srv := mcp.New(mcp.Options{
		Cwd: s.cwd, Dir: s.dir, Rev: s.rev, ExtendedTools: o.extended, FullContent: o.fullContent,
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

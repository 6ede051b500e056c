package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
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
		Flags: append(entry.CorpusFlags(env.Getenv, entry.CLIEnv),
			&cli.StringFlag{
				Name:  "color",
				Usage: "colour human output: auto (on a terminal, unless NO_COLOR is set), always or never",
				Value: string(render.ColorAuto),
			},
		),
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
	return usageError{Command: "adrkit", Msg: fmt.Sprintf("unknown command %q; the commands are %s", args[0], commandNames(cmd))}
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
	// where is the corpus's location, and how cwd, dir and rev were
	// decided, for the words of a failure.
	where entry.Location
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

// failure turns an error from the app into the exit the command ends
// with: an unusable corpus is status 1 with the worded diagnostic.
func (s *settings) failure(err error) error {
	if msg := s.where.Describe(err); msg != "" {
		return exitError{Code: exitFailure, Msg: msg}
	}
	return exitError{Code: exitFailure, Msg: err.Error()}
}

// settle reads the global options as adrkit-mcp reads its own (flag,
// then ADRKIT_* variable, then default; an empty value counts as given)
// and has the composition root build the service over the corpus and
// check it, so that an unusable root or directory is reported once,
// before any work.
func settle(ctx context.Context, cmd *cli.Command, env environment) (*settings, error) {
	mode, err := render.ParseColorMode(cmd.String("color"))
	if err != nil {
		return nil, usageError{Command: cmd.FullName(), Msg: err.Error()}
	}
	s := &settings{cwd: cmd.String("cwd"), dir: cmd.String("dir"), rev: cmd.String("rev")}
	locate(cmd, env, s)
	s.style = render.NewStyle(render.UseColor(mode, env.Terminal, env.Getenv)).WithWidth(tableWidth(env))
	s.source = render.NewSource(s.cwd, s.dir, s.rev)

	if s.service, err = s.where.Open(ctx, entry.Surface{}); err != nil {
		return nil, s.startFailure(cmd, err)
	}
	return s, nil
}

// noArgs refuses positional arguments for commands that take none.
func noArgs(cmd *cli.Command) error {
	if cmd.Args().Present() {
		return usageError{Command: cmd.FullName(), Msg: fmt.Sprintf("unexpected argument %q: %s takes no arguments", cmd.Args().First(), cmd.FullName())}
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
				return usageError{Command: cmd.FullName(), Msg: err.Error()}
			}
			asOf := cmd.String("as-of")
			if cmd.IsSet("as-of") {
				if err := app.ValidateDate(asOf); err != nil {
					return usageError{Command: cmd.FullName(), Msg: "--as-of: " + err.Error()}
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
				return exitError{Code: exitFailure}
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
				return usageError{Command: cmd.FullName(), Msg: err.Error()}
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

func mcpCommand(stdout, stderr io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "mcp",
		Usage:     "serve the decisions to a coding agent over MCP on stdin/stdout (as adrkit-mcp does)",
		UsageText: "adrkit mcp [--cwd <path>] [--dir <path>] [--rev <revision>] [--tools default|extended] [--content summary|full]",
		Description: "Speaks the Model Context Protocol on stdin and stdout, one JSON-RPC message per line,\n" +
			"exactly as the adrkit-mcp binary: the four tools (with --tools extended, also\n" +
			"get_supersession_chain, list_decision_changes and list_review_queue), both protocol\n" +
			"eras. The corpus is read afresh for every call. Ends with status 0 when stdin ends.\n" +
			"As adrkit-mcp does, it reads ADRKIT_MCP_CWD, ADRKIT_MCP_DIR and ADRKIT_MCP_REV for what\n" +
			"no option (and no ADRKIT_CWD, ADRKIT_DIR or ADRKIT_REV) gives.\n\n" +
			"Examples:\n" +
			"  adrkit mcp\n" +
			"  adrkit --rev main mcp          # answer from main, whatever the working tree holds\n" +
			"  adrkit mcp --tools extended    # also the supersession chain, the change feed and the review queue\n" +
			"  adrkit mcp --content full      # for clients that give the model only a tool's content",
		Flags: entry.ServeFlags(env.Getenv),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			surface, err := entry.ReadSurface(cmd)
			if err != nil {
				return usageError{Command: cmd.FullName(), Msg: err.Error()}
			}
			// The server colours nothing, but a bad --color is still a
			// mistake; the corpus is checked, and a failure worded, by
			// entry.Serve, as for adrkit-mcp.
			if _, err := render.ParseColorMode(cmd.String("color")); err != nil {
				return usageError{Command: cmd.FullName(), Msg: err.Error()}
			}
			if err := entry.ServerVariables(cmd, env.Getenv); err != nil {
				return usageError{Command: cmd.FullName(), Msg: err.Error()}
			}
			std := entry.Stdio{Program: "adrkit", Command: "adrkit mcp", In: env.Stdin, Out: stdout, Err: stderr}
			if code := entry.Serve(ctx, entry.Locate(cmd, env.Getwd, entry.ServerEnv), surface, std); code != exitOK {
				return exitError{Code: code}
			}
			return nil
		},
	}
}

// stringsOf is the values of an enumeration as strings, for help text and
// messages that list them.
func stringsOf[T ~string](vals []T) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = string(v)
	}
	return out
}

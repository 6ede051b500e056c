package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/ask"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/chain"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/changes"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/check"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/doctor"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/explain"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/graph"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/hook"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/index"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/initcmd"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/lint"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/mcp"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/migrate"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/newcmd"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/overview"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/queue"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/renumber"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/search"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/show"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/site"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/status"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/superseded"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
)

// init replaces the cli package's help and version flags and version
// printer, so that what they print is in our words.
func init() {
	cli.HelpFlag = &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "print this help and exit"}
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print the version and exit", Local: true}
	cli.VersionPrinter = entry.PrintVersion
}

// newTree builds adrkit's command tree for the command line args over f:
// the global options, the overview when no command is named, and the
// commands, each its own package (ADR 0046). When args name a command,
// only that one is built (a hook event builds no other command); help,
// the overview and a mistake get them all. The tree builds nothing a
// command uses: each command asks f for that.
func newTree(f *factory.Factory, args []string) *cli.Command {
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
		Version:         factory.Version(),
		Writer:          f.Out,
		ErrWriter:       f.ErrOut,
		HideHelpCommand: true,
		Flags: append(entry.CorpusFlags(f.Getenv, entry.CLIEnv),
			&cli.StringFlag{
				Name:  "color",
				Usage: "colour human output: auto (on a terminal, unless NO_COLOR is set), always or never",
				Value: string(render.ColorAuto),
			},
		),
		OnUsageError: factory.OnUsageError,
		// Exit statuses are decided by entry.Run, from the error Run returns.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Present() {
				return unknownCommand(ctx, cmd)
			}
			return overview.NewAction(f, nil)(ctx, cmd)
		},
		Commands: pick(f, named(args)),
	}
	return root
}

// command is one of adrkit's commands, built on demand.
type command struct {
	name  string
	build func(*factory.Factory) *cli.Command
}

// commands are adrkit's commands in the order help lists them.
var commands = []command{
	{"lint", func(f *factory.Factory) *cli.Command { return lint.NewCmdLint(f, nil) }},
	{"check", func(f *factory.Factory) *cli.Command { return check.NewCmdCheck(f, nil) }},
	{"search", func(f *factory.Factory) *cli.Command { return search.NewCmdSearch(f, nil) }},
	{"ask", func(f *factory.Factory) *cli.Command { return ask.NewCmdAsk(f, nil) }},
	{"show", func(f *factory.Factory) *cli.Command { return show.NewCmdShow(f, nil) }},
	{"explain", func(f *factory.Factory) *cli.Command { return explain.NewCmdExplain(f, nil) }},
	{"superseded", func(f *factory.Factory) *cli.Command { return superseded.NewCmdSuperseded(f, nil) }},
	{"chain", func(f *factory.Factory) *cli.Command { return chain.NewCmdChain(f, nil) }},
	{"changes", func(f *factory.Factory) *cli.Command { return changes.NewCmdChanges(f, nil) }},
	{"queue", func(f *factory.Factory) *cli.Command { return queue.NewCmdQueue(f, nil) }},
	{"graph", func(f *factory.Factory) *cli.Command { return graph.NewCmdGraph(f, nil) }},
	{"site", func(f *factory.Factory) *cli.Command { return site.NewCmdSite(f, nil) }},
	{"new", func(f *factory.Factory) *cli.Command { return newcmd.NewCmdNew(f, nil) }},
	{"migrate", func(f *factory.Factory) *cli.Command { return migrate.NewCmdMigrate(f, nil) }},
	{"status", func(f *factory.Factory) *cli.Command { return status.NewCmdStatus(f, nil) }},
	{"renumber", func(f *factory.Factory) *cli.Command { return renumber.NewCmdRenumber(f, nil) }},
	{"index", func(f *factory.Factory) *cli.Command { return index.NewCmdIndex(f, nil) }},
	{"mcp", func(f *factory.Factory) *cli.Command { return mcp.NewCmdMCP(f, nil) }},
	{"hook", func(f *factory.Factory) *cli.Command { return hook.NewCmdHook(f, nil) }},
	{"init", func(f *factory.Factory) *cli.Command { return initcmd.NewCmdInit(f, nil) }},
	{"doctor", func(f *factory.Factory) *cli.Command { return doctor.NewCmdDoctor(f, nil) }},
}

// pick builds the command called name, or every command when no command
// has that name, with our wording of a parse failure (but for hook, which
// words its own: it never exits 2).
func pick(f *factory.Factory, name string) []*cli.Command {
	chosen := commands
	if i := slices.IndexFunc(commands, func(c command) bool { return c.name == name }); i >= 0 {
		chosen = commands[i : i+1]
	}
	out := make([]*cli.Command, len(chosen))
	for i, c := range chosen {
		if out[i] = c.build(f); out[i].OnUsageError == nil {
			out[i].OnUsageError = factory.OnUsageError
		}
	}
	return out
}

// named is the first word of args after the program and the global
// options ("" when there is none): each global option takes a value
// (--cwd DIR, or --cwd=DIR) but for --help and --version.
func named(args []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return ""
		case !strings.HasPrefix(a, "-"):
			return a
		case !strings.Contains(a, "=") && !slices.Contains(flagsWithoutValue, strings.TrimLeft(a, "-")):
			i++ // the option's value
		}
	}
	return ""
}

// flagsWithoutValue are the global options that take no value.
var flagsWithoutValue = []string{"h", "help", "v", "version"}

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
	guess := ""
	if s := suggestion(cmd, args[0]); s != "" {
		guess = " (did you mean " + s + "?)"
	}
	return factory.UsageError{Command: "adrkit", Msg: fmt.Sprintf("unknown command %q%s; the commands are %s", args[0], guess, commandNames(cmd))}
}

// suggestion is the command a mistyped word most likely meant (the cli
// package's Jaro-Winkler pick), or "" when even the closest is not
// close: a guess must start with the same letter and differ in length
// by at most two, so that "explian" gets explain and "frobnicate"
// nothing.
func suggestion(cmd *cli.Command, word string) string {
	s := cli.SuggestCommand(cmd.VisibleCommands(), word)
	if s == "" || cmd.Command(s) == nil || s[0] != word[0] || max(len(s)-len(word), len(word)-len(s)) > 2 {
		return ""
	}
	return s
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

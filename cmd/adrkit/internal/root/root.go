// Package root builds adrkit's command tree: the global options, the
// overview when no command is named, and one command per package under
// cmd/adrkit/internal (ADR 0046). It builds nothing a command uses: each
// command asks the factory for that.
package root

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
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

// New builds the command tree for one run over f.
func New(f *factory.Factory) *cli.Command {
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
		Commands: []*cli.Command{
			lint.NewCmdLint(f, nil),
			check.NewCmdCheck(f, nil),
			search.NewCmdSearch(f, nil),
			show.NewCmdShow(f, nil),
			explain.NewCmdExplain(f, nil),
			superseded.NewCmdSuperseded(f, nil),
			chain.NewCmdChain(f, nil),
			changes.NewCmdChanges(f, nil),
			queue.NewCmdQueue(f, nil),
			graph.NewCmdGraph(f, nil),
			site.NewCmdSite(f, nil),
			newcmd.NewCmdNew(f, nil),
			migrate.NewCmdMigrate(f, nil),
			status.NewCmdStatus(f, nil),
			renumber.NewCmdRenumber(f, nil),
			index.NewCmdIndex(f, nil),
			mcp.NewCmdMCP(f, nil),
			hook.NewCmdHook(f, nil),
			initcmd.NewCmdInit(f, nil),
			doctor.NewCmdDoctor(f, nil),
		},
	}
	for _, c := range root.Commands {
		if c.OnUsageError == nil { // hook words its own: it never exits 2
			c.OnUsageError = factory.OnUsageError
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

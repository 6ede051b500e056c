// Package toolcmd is what the commands answered by one decision tool
// share (search, show, explain, superseded, chain, and changes, whose
// tool answers from git history): the --json paging options, reading
// them, and calling the tool for one page or the whole answer. Each
// command is its own package; this one knows no command.
package toolcmd

import (
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
)

// MaxPage is the largest page the decision tools accept; the help text
// and the refusal of 0 name it (the tools word every other refusal).
const MaxPage = 100

// JSONFlag is --json: shape is the structured answer's, part how much of
// it one run prints.
func JSONFlag(shape, part string) cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print the structured answer the MCP tool returns (" + shape + "), " + part + " of it"}
}

// SizeFlag is a page-size option of the --json mode.
func SizeFlag(name, what string, most, byDefault int) cli.Flag {
	return &cli.IntFlag{Name: name, Usage: fmt.Sprintf("with --json: %s, 1 to %d (default %d)", what, most, byDefault), HideDefault: true}
}

// FindingsFlags page a tool's findings channel in the --json mode.
func FindingsFlags() []cli.Flag {
	return []cli.Flag{
		SizeFlag("findings-limit", "findings page size", MaxPage, app.DefaultLimit),
		&cli.StringFlag{Name: "findings-cursor", Usage: "with --json: the findings cursor of the previous page"},
	}
}

// PageFlags are the --json options of the four tools, which page both
// their channels.
func PageFlags() []cli.Flag {
	return append([]cli.Flag{
		JSONFlag("{corpusHealth, result}", "one page"),
		SizeFlag("limit", "page size", MaxPage, app.DefaultLimit),
		&cli.StringFlag{Name: "cursor", Usage: "with --json: the cursor of the previous page, to get the next one"},
	}, FindingsFlags()...)
}

// JSONOnly refuses the named options without --json: they page the JSON
// output, while a person is shown every page (walked says what happens
// to the pages: "printed", or "read" when they are only counted).
// Options the command does not have read as not given.
func JSONOnly(cmd *cli.Command, walked string, names ...string) error {
	if cmd.Bool("json") {
		return nil
	}
	for _, n := range names {
		if cmd.IsSet(n) {
			return factory.UsageError{Command: cmd.FullName(), Msg: "--" + n + " pages the --json output; without --json every page is " + walked}
		}
	}
	return nil
}

// PageSize reads a page-size option. 0 is refused here because the app
// reads it as "the default"; the tool refuses every other size outside 1
// to most itself.
func PageSize(cmd *cli.Command, name string, most int) (int, error) {
	n := cmd.Int(name)
	if cmd.IsSet(name) && n == 0 {
		return 0, factory.UsageError{Command: cmd.FullName(), Msg: fmt.Sprintf("--%s must be from 1 to %d, got 0", name, most)}
	}
	return n, nil
}

// Optional is a string option's value when it was given (empty
// included), nil otherwise.
func Optional(cmd *cli.Command, name string) *string {
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
	if err := JSONOnly(cmd, walked, "limit", "cursor", "findings-limit", "findings-cursor"); err != nil {
		return p, err
	}
	var err error
	if p.Limit, err = PageSize(cmd, "limit", MaxPage); err != nil {
		return p, err
	}
	if p.FindingsLimit, err = PageSize(cmd, "findings-limit", MaxPage); err != nil {
		return p, err
	}
	p.Cursor, p.FindingsCursor = Optional(cmd, "cursor"), Optional(cmd, "findings-cursor")
	return p, nil
}

// ExactlyOne refuses any number of positional arguments but one.
func ExactlyOne(cmd *cli.Command, msg string) error {
	if cmd.Args().Len() != 1 {
		return factory.UsageError{Command: cmd.FullName(), Msg: msg}
	}
	return nil
}

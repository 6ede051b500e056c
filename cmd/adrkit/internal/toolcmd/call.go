package toolcmd

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/ports"
)

// Options is what every tool command's run takes: its arguments, the
// --json mode and page, and what it may build (only when called).
type Options struct {
	Out io.Writer
	// Command is the full name, for usage errors.
	Command string
	Args    []string
	// JSON prints one page of the structured answer; otherwise a person
	// is shown the whole answer.
	JSON bool
	Page app.Page

	Corpus func(context.Context) (*factory.Corpus, error)
	Style  func() (render.Style, error)
	// Answer, when set, answers the input instead of the corpus's
	// service (adrkit ask keeps its index between runs).
	Answer func(context.Context, *factory.Corpus, app.Input) (app.Result, error)
}

// Read reads the paging options of cmd (walked: what happens to the pages
// without --json, for the refusal of a paging option) into the Options
// a tool command's run takes, bound to f.
func Read(f *factory.Factory, cmd *cli.Command, walked string) (Options, error) {
	page, err := readPage(cmd, walked)
	if err != nil {
		return Options{}, err
	}
	return Options{
		Out: f.Out, Command: cmd.FullName(), Args: cmd.Args().Slice(), JSON: cmd.Bool("json"), Page: page,
		Corpus: func(ctx context.Context) (*factory.Corpus, error) { return f.Corpus(ctx, cmd) },
		Style:  func() (render.Style, error) { return f.Style(cmd) },
	}, nil
}

// Usage is a usage error of the command.
func (o *Options) Usage(msg string) error { return factory.UsageError{Command: o.Command, Msg: msg} }

// Bind builds a tool's input, once the corpus is checked, and the
// renderer of its whole answer for a person.
type Bind func(ctx context.Context, c *factory.Corpus) (in app.Input, human func(app.Outcome, render.Style) error, err error)

// Call checks the corpus, calls the tool (the page asked for with --json,
// the whole answer otherwise), prints the answer and ends with the status
// its outcome calls for (render.OutcomeStatus). jsonOf, when set, is what
// --json prints for an answer instead of the answer itself.
func (o *Options) Call(ctx context.Context, bind Bind, jsonOf func(*app.Answer) any) error {
	c, err := o.Corpus(ctx)
	if err != nil {
		return err
	}
	in, human, err := bind(ctx, c)
	if u := (factory.UsageError{}); errors.As(err, &u) {
		return u
	}
	if err != nil {
		return c.Failure(err)
	}
	ans, err := o.Run(ctx, c, in, jsonOf)
	if err != nil {
		return err
	}
	switch r := ans.Result.(type) {
	case app.CorpusUnavailable:
		return c.Failure(&ports.UnavailableError{Reason: r.Reason})
	case app.InvalidCursor:
		return o.Usage("the cursor was refused: " + r.Message)
	}
	if !o.JSON {
		style, err := o.Style()
		if err != nil {
			return err
		}
		if err := human(ans.Result, style); err != nil {
			return err
		}
	}
	if code := render.OutcomeStatus(ans.Result); code != factory.ExitOK {
		return factory.ExitError{Code: code}
	}
	return nil
}

// Run is the part of a tool command that does not depend on the tool:
// call it for one page (--json) or for the whole answer (a person reads
// every item at once), turn a refused call into a usage error, and print
// the JSON (jsonOf of the answer, when set). The command judges the
// answer it returns.
func (o *Options) Run(ctx context.Context, c *factory.Corpus, in app.Input, jsonOf func(*app.Answer) any) (*app.Answer, error) {
	call := c.Service.Whole
	if o.JSON {
		call = c.Service.CallInput
	}
	if o.Answer != nil {
		call = func(ctx context.Context, in app.Input) (app.Result, error) { return o.Answer(ctx, c, in) }
	}
	res, err := call(ctx, in)
	if err != nil {
		return nil, c.Failure(err)
	}
	if res.IsError {
		return nil, o.Usage(render.RefusalDetail(in.ToolName(), res.Text))
	}
	if o.JSON {
		var out any = res.Structured
		if jsonOf != nil {
			out = jsonOf(res.Structured)
		}
		if err := render.WriteJSON(o.Out, out); err != nil {
			return nil, err
		}
	}
	return res.Structured, nil
}

// ShortRef reads a number of fewer than four digits, which no record id
// can be (ids have four or more), as the four-digit id people mean by it:
// "show 9" is "show 0009". Anything else is the ref as given.
func ShortRef(ref string) string {
	if ref == "" || len(ref) >= 4 || strings.Trim(ref, "0123456789") != "" {
		return ref
	}
	return strings.Repeat("0", 4-len(ref)) + ref
}

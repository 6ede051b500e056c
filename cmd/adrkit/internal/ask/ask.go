// Package ask is adrkit ask: a question in the asker's own words,
// answered with the decision in force or with "no record" (the
// query_decision tool, docs/ask.md).
package ask

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/hook"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/toolcmd"
)

// Options is one run of adrkit ask.
type Options struct {
	toolcmd.Options
	// Question is the words of QUESTION joined by single spaces.
	Question string
	// Limit is how many candidates to list; 0 for the tool's default.
	Limit int
}

// NewCmdAsk is adrkit ask; runF, when set, is called instead of the run
// (tests intercept the options with it).
func NewCmdAsk(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "ask",
		Usage:     "answer a question in your own words with the decision in force, or say that no record answers it",
		UsageText: "adrkit ask QUESTION... [--json] [--limit N]",
		Description: "Ranks every record against QUESTION (stemmed words over id, title, tags, the decision\n" +
			"sentence, the options weighed and the body; no model, nothing leaves the machine) and answers\n" +
			"with the best one when the confidence is high enough, following supersession to the record in\n" +
			"force. A rejected decision is named so that it is not proposed again. Below the threshold the\n" +
			"answer is that no record answers, with the closest candidates. This is the query_decision tool;\n" +
			"docs/ask.md says how often it is right. Exits 1 when the answer is held or no record answers.\n\n" +
			"Examples:\n" +
			"  adrkit ask should we store sessions in memcached\n" +
			"  adrkit ask \"how do we encode cursors?\" --json\n" +
			"  adrkit ask which python version do we support --limit 3",
		Flags: []cli.Flag{
			toolcmd.JSONFlag("{corpusHealth, result}", "all"),
			&cli.IntFlag{Name: "limit", Usage: "how many candidates to list, 1 to 20 (default 5)", HideDefault: true},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if !cmd.Args().Present() {
				return factory.UsageError{Command: cmd.FullName(), Msg: "ask needs a QUESTION, e.g. adrkit ask \"can we keep sessions in Memcached?\""}
			}
			limit, err := toolcmd.PageSize(cmd, "limit", 20)
			if err != nil {
				return err
			}
			opts := &Options{Options: toolcmd.Options{
				Out: f.Out, Command: cmd.FullName(), Args: cmd.Args().Slice(), JSON: cmd.Bool("json"),
				Corpus: func(ctx context.Context) (*factory.Corpus, error) { return f.Corpus(ctx, cmd) },
				Style:  func() (render.Style, error) { return f.Style(cmd) },
				// One question a process: the index is kept where the
				// hook keeps the governance index (docs/ask.md).
				Answer: func(ctx context.Context, c *factory.Corpus, in app.Input) (app.Result, error) {
					defer hook.OneShot()()
					state, _ := f.Getenv("ADRKIT_HOOK_STATE_DIR")
					site, _, _, err := hook.KeptSite(c.Where, c.Where.Reader(), state)
					if err != nil {
						return app.Result{}, err
					}
					return app.AskOnce(ctx, site, in.(app.AskInput))
				},
			}, Question: strings.Join(cmd.Args().Slice(), " "), Limit: limit}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run calls query_decision and shows a person the answer.
func run(ctx context.Context, opts *Options) error {
	return opts.Call(ctx, func(context.Context, *factory.Corpus) (app.Input, func(app.Outcome, render.Style) error, error) {
		in := app.AskInput{Question: opts.Question, Limit: opts.Limit}
		return in, func(r app.Outcome, style render.Style) error { return render.WriteAsk(opts.Out, r, style) }, nil
	}, nil)
}

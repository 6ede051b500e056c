// Package factory is what every adrkit command is handed: the process's
// streams and environment, and lazy accessors for what costs something to
// build (the colour and width of human output, the corpus's location,
// its source and the service over it, the clock, the prober), each built
// on first use and at most once, so that a command builds only what it
// uses (ADR 0046): the hook never measures the terminal, --version and
// help build nothing. The errors that choose an exit status, and the few
// helpers several commands share, live here too.
package factory

import (
	"context"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/ports"
)

// Env is what a run takes from the process besides its arguments, so
// that tests can run a command in-process with a fixed clock, their own
// variables and a pretend terminal. Nil members read as absent, but for
// Clock, which a command that dates things calls.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Getenv looks up an environment variable (os.LookupEnv in main).
	Getenv func(string) (string, bool)
	// Clock builds the clock that tells the commands that date things
	// today's date (main's is the wall clock: the composition root builds
	// it, never the factory).
	Clock func() ports.Clock
	// Terminal says stdout is a terminal, which --color auto colours and
	// whose width tables are fitted to (nil: not a terminal).
	Terminal func() bool
	// Columns is the terminal's width, 0 when unknown (nil: unknown).
	Columns func() int
	// Getwd is the working directory, where the repository root and the
	// ADR directory are looked for when no option names them (os.Getwd
	// when nil).
	Getwd func() (string, error)
	// Probe starts the commands doctor checks (nil: the real processes).
	Probe ports.Processes
}

// The names Built reports, one per lazy accessor.
const (
	BuiltClock    = "clock"
	BuiltColor    = "color"
	BuiltCorpus   = "corpus"
	BuiltLocation = "location"
	BuiltTerminal = "terminal"
	BuiltWidth    = "width"
)

// Factory hands a command its streams and builds, on first use, what the
// command asks for. One Factory serves one run.
type Factory struct {
	// In, Out and ErrOut are the run's streams.
	In          io.Reader
	Out, ErrOut io.Writer
	// Getenv and Getwd are the run's environment and working directory.
	Getenv func(string) (string, bool)
	Getwd  func() (string, error)
	// Probe starts the commands doctor checks (nil: the real processes).
	Probe ports.Processes

	env      Env
	built    []string
	clock    ports.Clock
	terminal *bool
	width    *int
}

// New is the Factory of one run over env, with defaults for what env
// leaves nil.
func New(env Env) *Factory {
	if env.Getenv == nil {
		env.Getenv = func(string) (string, bool) { return "", false }
	}
	if env.Stdin == nil {
		env.Stdin = strings.NewReader("")
	}
	if env.Getwd == nil {
		env.Getwd = os.Getwd
	}
	return &Factory{In: env.Stdin, Out: env.Stdout, ErrOut: env.Stderr, Getenv: env.Getenv, Getwd: env.Getwd, Probe: env.Probe, env: env}
}

// Built is the names of what the run built so far (the Built constants),
// in the order it was first built: what a test checks to see that a
// command builds only what it uses.
func (f *Factory) Built() []string { return slices.Clone(f.built) }

// note records that name was built.
func (f *Factory) note(name string) {
	if !slices.Contains(f.built, name) {
		f.built = append(f.built, name)
	}
}

// Clock is the run's clock, which dates records and lint's reviewBy check.
func (f *Factory) Clock() ports.Clock {
	if f.clock == nil {
		f.note(BuiltClock)
		f.clock = f.env.Clock()
	}
	return f.clock
}

// Terminal reports whether stdout is a terminal.
func (f *Factory) Terminal() bool {
	if f.terminal == nil {
		f.note(BuiltTerminal)
		t := f.env.Terminal != nil && f.env.Terminal()
		f.terminal = &t
	}
	return *f.terminal
}

// Width is the width tables are fitted to: none unless stdout is a
// terminal; then $COLUMNS when it is a positive number (a user's choice,
// and how tests pretend), else the terminal's own width.
func (f *Factory) Width() int {
	if f.width != nil {
		return *f.width
	}
	f.note(BuiltWidth)
	w := 0
	if f.Terminal() {
		if v, ok := f.Getenv("COLUMNS"); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
				w = n
			}
		}
		if w == 0 && f.env.Columns != nil {
			w = f.env.Columns()
		}
	}
	f.width = &w
	return w
}

// ColorMode reads --color; a value outside its set is a usage error.
// Every command that reads the corpus checks it, whether it colours or
// not, so that a bad --color is a mistake everywhere.
func ColorMode(cmd *cli.Command) (render.ColorMode, error) {
	mode, err := render.ParseColorMode(cmd.String("color"))
	if err != nil {
		return "", UsageError{Command: cmd.FullName(), Msg: err.Error()}
	}
	return mode, nil
}

// Color is the style of human output coloured as --color says, without
// fitting tables to a width.
func (f *Factory) Color(cmd *cli.Command) (render.Style, error) {
	mode, err := ColorMode(cmd)
	if err != nil {
		return render.Style{}, err
	}
	f.note(BuiltColor)
	return render.NewStyle(render.UseColor(mode, f.Terminal(), f.Getenv)), nil
}

// Style is Color with tables fitted to the terminal's width.
func (f *Factory) Style(cmd *cli.Command) (render.Style, error) {
	s, err := f.Color(cmd)
	if err != nil {
		return s, err
	}
	return s.WithWidth(f.Width()), nil
}

// Locate is where the corpus options of cmd point, with what no option
// names filled in (entry.Locate); it reads nothing of the corpus.
func (f *Factory) Locate(cmd *cli.Command) *Corpus {
	f.note(BuiltLocation)
	c := &Corpus{Where: entry.Locate(cmd, f.Getwd, entry.CLIEnv)}
	c.Unnamed = !cmd.IsSet("dir") && c.Where.DirFrom == entry.DirFromNothing
	return c
}

// Corpus reads the global options as adrkit-mcp reads its own (flag,
// then ADRKIT_* variable, then default; an empty value counts as given)
// and has the composition root build the service over the corpus and
// check it, so that an unusable root or directory is reported once,
// before any work. A bad --color is refused first.
func (f *Factory) Corpus(ctx context.Context, cmd *cli.Command) (*Corpus, error) {
	if _, err := ColorMode(cmd); err != nil {
		return nil, err
	}
	c := f.Locate(cmd)
	f.note(BuiltCorpus)
	c.Source = render.NewSource(c.Where.Root, c.Where.Dir, c.Where.Rev)
	svc, err := c.Where.Open(ctx, entry.Surface{})
	if err != nil {
		return nil, c.StartFailure(cmd, err)
	}
	c.Service = svc
	return c, nil
}

package entry

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v3"
)

// The exit statuses of adrkit's commands (docs/cli.md).
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
)

// UsageError is a command-line mistake: status 2, Msg after "adrkit: ",
// and a pointer to the help of Command (the full command name, e.g.
// "adrkit lint").
type UsageError struct {
	Command string
	Msg     string
}

// Error is the diagnostic, without the "adrkit: " prefix.
func (e UsageError) Error() string { return e.Msg }

// ExitError ends a run with status Code; Msg, when set, is printed on
// stderr after "adrkit: ".
type ExitError struct {
	Code int
	Msg  string
}

// Error is the diagnostic, possibly empty.
func (e ExitError) Error() string { return e.Msg }

// Run runs root on args and returns the exit status, writing what went
// wrong on stderr in adrkit's words: a UsageError is status 2, an
// ExitError its own status, any other error 1.
//
// SIGINT and SIGTERM cancel the context of the command that runs (a
// writing command stops between files, serving shuts down). They are
// caught from root's Before, which urfave runs for every command after
// --help and --version are answered, not from the start of the process:
// printing help or the version has nothing to interrupt, and catching
// signals starts goroutines and a thread that every such process would
// pay for. Run sets root.Before.
func Run(ctx context.Context, root *cli.Command, args []string, stderr io.Writer) int {
	stop := func() {}
	root.Before = func(ctx context.Context, _ *cli.Command) (context.Context, error) {
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		return ctx, nil
	}
	err := root.Run(ctx, args)
	stop()
	if err == nil {
		return ExitOK
	}
	var usage UsageError
	var exit ExitError
	switch {
	case errors.As(err, &usage):
		ReportUsage(stderr, usage.Command, usage.Msg)
		return ExitUsage
	case errors.As(err, &exit):
		if exit.Msg != "" {
			ReportFailure(stderr, exit.Msg)
		}
		return exit.Code
	}
	ReportFailure(stderr, err.Error())
	return ExitFailure
}

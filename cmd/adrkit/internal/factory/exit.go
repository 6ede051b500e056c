package factory

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	buildversion "github.com/adrkit/adrkit-go/internal/version"
)

// Exit statuses and the two errors that choose one, shared with
// adrkit-mcp (cmd/internal/entry).
const (
	ExitOK      = entry.ExitOK
	ExitFailure = entry.ExitFailure
	ExitUsage   = entry.ExitUsage
)

type (
	// UsageError is a command-line mistake: status 2 (entry.UsageError).
	UsageError = entry.UsageError
	// ExitError ends a run with its own status (entry.ExitError).
	ExitError = entry.ExitError
)

// InformationURI is where SARIF consumers send people for the tool.
const InformationURI = "https://github.com/adrkit/adrkit-go"

// Version is what --version and machine-readable reports name.
func Version() string { return buildversion.String() }

// OnUsageError turns the cli package's parse failures into our wording.
func OnUsageError(_ context.Context, cmd *cli.Command, err error, _ bool) error {
	return UsageError{Command: cmd.FullName(), Msg: entry.DescribeParseError(err)}
}

// NoArgs refuses positional arguments for commands that take none.
func NoArgs(cmd *cli.Command) error {
	if cmd.Args().Present() {
		return UsageError{Command: cmd.FullName(), Msg: fmt.Sprintf("unexpected argument %q: %s takes no arguments", cmd.Args().First(), cmd.FullName())}
	}
	return nil
}

// Printed ends a command whose report is complete even when part of the
// work failed (migrate, status, renumber, queue): print it, then exit 1
// if it says something failed.
func Printed(report interface{ Failed() bool }, print func() error) error {
	if err := print(); err != nil {
		return err
	}
	if report.Failed() {
		return ExitError{Code: ExitFailure}
	}
	return nil
}

// StringsOf is the values of an enumeration as strings, for help text and
// messages that list them.
func StringsOf[T ~string](vals []T) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = string(v)
	}
	return out
}

// DescribeFileError words a file error without its absolute path.
func DescribeFileError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// TrimCause is err's message without the sentinel's words in front, for
// a use case's refusal worded after "adrkit: ".
func TrimCause(err, sentinel error) string {
	return strings.TrimPrefix(err.Error(), sentinel.Error()+": ")
}

// Run ends a command's action: runF with opts when a test set it (to see
// the options the command line gave), the command's own run otherwise.
func Run[O any](ctx context.Context, opts *O, runF, run func(context.Context, *O) error) error {
	if runF != nil {
		return runF(ctx, opts)
	}
	return run(ctx, opts)
}

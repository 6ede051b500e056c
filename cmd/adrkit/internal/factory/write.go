package factory

import (
	"context"
	"errors"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/app"
)

// WriterFolder checks the corpus as every command does and opens the ADR
// directory for writing: the commands that write (migrate, new, status,
// renumber) write the working tree only, never a revision.
func (f *Factory) WriterFolder(ctx context.Context, cmd *cli.Command) (*Corpus, *workspace.Folder, error) {
	if cmd.String("rev") != "" {
		return nil, nil, UsageError{Command: cmd.FullName(), Msg: cmd.Name + " writes the working tree; --rev (or ADRKIT_REV) cannot be used with it"}
	}
	c, err := f.Corpus(ctx, cmd)
	if err != nil {
		return nil, nil, err
	}
	folder, err := workspace.OpenFolder(c.Where.Root, c.Where.Dir)
	if err != nil {
		return nil, nil, ExitError{Code: ExitFailure, Msg: err.Error()}
	}
	return c, folder, nil
}

// EditExit turns an error of an editing use case into the command's
// exit: a refused request is a usage error (2), a state of the directory
// that stops the edit a failure (1); nothing was written in either case.
func EditExit(command string, err error) error {
	switch {
	case errors.Is(err, app.ErrEditInput):
		return UsageError{Command: command, Msg: TrimCause(err, app.ErrEditInput)}
	case errors.Is(err, app.ErrEditConflict):
		return ExitError{Code: ExitFailure, Msg: TrimCause(err, app.ErrEditConflict)}
	}
	return ExitError{Code: ExitFailure, Msg: err.Error()}
}

// DecidersFlag is the --deciders option of new and status: comma-separated
// or repeated. A new one each time: a flag holds what it parsed.
func DecidersFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "deciders", Usage: "deciders, comma-separated or repeated: @handle, team:slug or email"}
}

// Deciders reads --deciders: every name of every value, split at commas,
// blanks dropped.
func Deciders(cmd *cli.Command) []string {
	var out []string
	for _, d := range cmd.StringSlice("deciders") {
		for _, one := range strings.Split(d, ",") {
			if one = strings.TrimSpace(one); one != "" {
				out = append(out, one)
			}
		}
	}
	return out
}

package factory

import (
	"context"
	"errors"

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

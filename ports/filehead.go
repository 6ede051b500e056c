package ports

import (
	"context"

	"github.com/adrkit/adrkit-go/domain/markers"
)

// FileHeadReader reads the head of a file of the repository (its first
// markers.WindowBytes bytes), where "@adr" markers are declared. Only the
// command line uses one: the MCP tools never open the files they are
// asked about. The path is repository-relative, "/"-separated or as this
// system writes paths (markers.InTreeOn): on Windows a backslash
// separates too and a drive makes a path absolute, in a revision's tree
// as in the working tree, so that both answer alike for one argument.
//
// Failure policy: a file that cannot be read is not an error but a state
// (absent, unreadable, out of the tree), because "this file declares
// nothing" and "this file could not be looked at" must stay apart. An
// implementation must refuse a path that is not repository-relative
// without opening anything, must not follow a symbolic link anywhere on
// the way, must not block on a FIFO or a device, and must never read more
// than markers.WindowBytes+1 bytes of a file. The error is for a
// cancelled context only.
type FileHeadReader interface {
	ReadHead(ctx context.Context, path string) (markers.Head, error)
}

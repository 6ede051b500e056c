package ports

import (
	"context"
	"errors"

	"github.com/adrkit/adrkit-go/domain/migrate"
)

// ErrChanged is wrapped by FolderWriter.Replace's error when the file no
// longer holds the bytes the caller read: someone edited it meanwhile,
// and writing the caller's edit would lose theirs.
var ErrChanged = errors.New("the file changed since it was read")

// FolderWriter is the ADR directory as the commands that write see it
// (new, migrate, status, renumber, init; index --write in any directory
// of the repository): names are file names in the directory, never paths.
// The MCP server has none.
//
// Failure policy, which ports/writertest holds every implementation to:
//   - A name that is not a plain file name ("", ".", "..", or one holding
//     a slash or a backslash) is refused with an error wrapping
//     fs.ErrInvalid before anything is looked at: nothing outside the
//     directory is ever read or written. So is ".git" in any case: at a
//     repository's root it is git's directory, or the file that points
//     a linked worktree at it, and no command may write there.
//   - Nothing is replaced that the call does not name for replacing:
//     Create and Rename refuse a taken name (fs.ErrExist), Replace and
//     Rename a missing one (fs.ErrNotExist), and a refused call changes
//     nothing.
//   - Replace writes only over the bytes the caller read: a file that
//     holds anything else (another process appended a line, an editor
//     saved) is left as it is, with an error wrapping ErrChanged. The
//     comparison is made after the new bytes are on disk, just before
//     they take the name, and calls through one writer are serialised
//     around it, so of two edits made from one reading one fails; a
//     process writing in the instant between comparison and rename is
//     the one case left.
//   - Only regular files are read or written: a symbolic link, a
//     directory or anything else is listed by Names but never read,
//     replaced or written through.
//   - Writes are atomic: a reader sees the old file or the new one, never
//     part of one, and no temporary file is left behind, whether the
//     write succeeded or not.
//   - Errors name the file by its display path.
type FolderWriter interface {
	// DisplayPath is the name as adrkit shows it: relative to the
	// repository root, "/"-separated.
	DisplayPath(name string) string
	// Names lists the names of every entry in the directory, in UTF-16
	// code-unit order.
	Names() ([]string, error)
	// MarkdownFiles reads the regular Markdown files (.md or .markdown,
	// any case) at the top level, in code-unit order of their names.
	MarkdownFiles(ctx context.Context) ([]migrate.File, error)
	// Read returns the bytes of the regular file name.
	Read(name string) ([]byte, error)
	// Create writes a new file.
	Create(name string, content []byte) error
	// Replace writes content over the regular file name, keeping its
	// permissions, if it still holds old: the bytes the caller read and
	// edited.
	Replace(name string, old, content []byte) error
	// Rename gives a file a new name. A new name that differs only in
	// case is a rename on every file system.
	Rename(from, to string) error
	// BranchNames lists the names in the directory on every local and
	// remote-tracking git branch, so that a new number is free
	// everywhere a fetch has seen; none without a repository.
	BranchNames() ([]string, error)
	// FirstCommitDates maps names to the day (YYYY-MM-DD) each was first
	// committed on HEAD's history; missing or empty when the history
	// cannot tell.
	FirstCommitDates() (map[string]string, error)
}

// RepoFiles is the working tree of the repository around the ADR
// directory: renumber rewrites the @adr markers of the files git tracks,
// init writes the agent hosts' configuration and doctor reads it back.
// Paths are repository-relative, "/"-separated.
//
// Failure policy, which ports/writertest holds every implementation to:
//   - A path that is not clean and repository-relative (fs.ValidPath:
//     no "", "." or ".." element, no leading slash; "." itself) is
//     refused with an error wrapping fs.ErrInvalid before anything is
//     looked at, and no path leads out of the repository through a
//     symbolic link either.
//   - Only regular files are read or written: a symbolic link or a
//     directory at the path is neither read nor replaced.
//   - Write refuses a path with a ".git" element in any case (git's
//     directory, a submodule's, a linked worktree's pointer) with an
//     error wrapping fs.ErrInvalid, and writes nothing.
//   - A missing file is an error wrapping fs.ErrNotExist.
//   - Write is atomic, as FolderWriter's writes are, and makes the
//     directories the path needs. Writing never stages a file:
//     TrackedFiles stays what git's index holds.
//   - Errors name the file by its path.
type RepoFiles interface {
	// TrackedFiles lists the regular files git tracks (its index), in
	// code-unit order; none outside a git repository.
	TrackedFiles() ([]string, error)
	// Read returns up to limit bytes of the file (all of it for limit <
	// 0), and whether it goes on past them.
	Read(path string, limit int) (content []byte, more bool, err error)
	// Write replaces the file, keeping its permissions, or creates it.
	Write(path string, content []byte) error
}

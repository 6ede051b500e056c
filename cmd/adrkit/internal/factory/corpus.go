package factory

import (
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
)

// Corpus is where a command reads the decisions, and, once Factory.Corpus
// has checked it, the service over them.
type Corpus struct {
	// Where is the corpus's location, and how its root, directory and
	// revision were decided, for the words of a failure.
	Where entry.Location
	// Unnamed says that nothing named the ADR directory and none of
	// workspace.DefaultDirs exists: the repository has no decisions yet.
	Unnamed bool
	// Source names the corpus in reports (nil until Factory.Corpus).
	Source render.Source
	// Service answers over the corpus (nil until Factory.Corpus).
	Service *app.Service
}

// Failure turns an error from the app into the exit the command ends
// with: an unusable corpus is status 1 with the worded diagnostic.
func (c *Corpus) Failure(err error) error {
	if msg := c.Where.Describe(err); msg != "" {
		return ExitError{Code: ExitFailure, Msg: msg}
	}
	return ExitError{Code: ExitFailure, Msg: err.Error()}
}

// StartFailure is the exit for a corpus that cannot be read at start-up:
// status 1 with the worded diagnostic, except that an ADR directory the
// user named (--dir or ADRKIT_DIR) that does not exist, or is not a
// directory, is a usage error (status 2), so that CI can tell a set-up
// mistake from a lint failure. (The MCP server, which entry.Serve starts
// without Factory.Corpus, keeps the status 1 its recorded start-up
// answers have: conformance cli-flag-beats-env.)
func (c *Corpus) StartFailure(cmd *cli.Command, err error) error {
	if c.Where.NamedDirMissing(err) {
		return UsageError{Command: cmd.FullName(), Msg: c.Failure(err).Error()}
	}
	return c.Failure(err)
}

// RepoPaths turns FILE arguments as a shell gives them into repository
// paths (workspace.RepoPath): relative to the directory the command was
// started in, or absolute inside the repository. A path outside the
// repository is a usage error of command: matching it would only ever
// answer "nothing governs it".
func (c *Corpus) RepoPaths(command string, args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for _, arg := range args {
		p, err := workspace.RepoPath(c.Where.Root, c.Where.WD, arg)
		if err != nil {
			return nil, UsageError{Command: command, Msg: fmt.Sprintf("%q is not a path inside the repository", arg)}
		}
		out = append(out, p)
	}
	return out, nil
}

package main

import (
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
)

// locate fills in the repository root and the ADR directory that no
// option (or ADRKIT_* variable) names, as every command of both
// binaries does (entry.Locate): the root upward from the working
// directory, the directory from .adr-dir or the defaults.
func locate(cmd *cli.Command, env environment, s *settings) {
	s.where = entry.Locate(cmd, env.Getwd, entry.CLIEnv)
	s.cwd, s.dir, s.rev, s.wd = s.where.Root, s.where.Dir, s.where.Rev, s.where.WD
	s.unnamed = !cmd.IsSet("dir") && s.where.DirFrom == entry.DirFromNothing
}

// startFailure is the exit for a corpus that cannot be read at start-up:
// status 1 with the worded diagnostic, except that an ADR directory the
// user named (--dir or ADRKIT_DIR) that does not exist, or is not a
// directory, is a usage error (status 2), so that CI can tell a set-up
// mistake from a lint failure. (The MCP server, which entry.Serve starts
// without settle, keeps the status 1 its recorded start-up answers have:
// conformance cli-flag-beats-env.)
func (s *settings) startFailure(cmd *cli.Command, err error) error {
	if s.where.NamedDirMissing(err) {
		return usageError{Command: cmd.FullName(), Msg: s.failure(err).Error()}
	}
	return s.failure(err)
}

// repoPaths turns FILE arguments as a shell gives them into repository
// paths (workspace.RepoPath): relative to the directory the command was
// started in, or absolute inside the repository. A path outside the
// repository is a usage error: matching it would only ever answer
// "nothing governs it".
func (s *settings) repoPaths(cmd *cli.Command, args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for _, arg := range args {
		p, err := workspace.RepoPath(s.cwd, s.wd, arg)
		if err != nil {
			return nil, usageError{Command: cmd.FullName(), Msg: fmt.Sprintf("%q is not a path inside the repository", arg)}
		}
		out = append(out, p)
	}
	return out, nil
}

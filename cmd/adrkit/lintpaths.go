package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/markers"
)

// lintPaths reads the PATH arguments of lint: files of the ADR directory
// that lint read or reported, repository-relative (an absolute path
// inside the repository is made relative, a relative one is taken from
// the working directory). nil when none were given.
// A path outside the ADR directory, or one lint knows nothing about, is
// a usage error: it would be silently clean otherwise.
func lintPaths(cmd *cli.Command, s *settings, rep *app.LintReport) ([]string, error) {
	if !cmd.Args().Present() {
		return nil, nil
	}
	args := cmd.Args().Slice()
	paths, err := s.repoPaths(cmd, args)
	if err != nil {
		return nil, err
	}
	var out []string
	for i, arg := range args {
		p, ok := markers.InTree(paths[i])
		if !ok {
			return nil, usageError{Command: cmd.FullName(), Msg: fmt.Sprintf("%q is not a path inside the repository", arg)}
		}
		if dir := s.source.Dir; dir != "" && dir != "." && !strings.HasPrefix(p, dir+"/") {
			return nil, usageError{Command: cmd.FullName(), Msg: fmt.Sprintf("%q is not in the ADR directory %q", arg, dir)}
		}
		if !rep.Knows(p) {
			return nil, usageError{Command: cmd.FullName(), Msg: fmt.Sprintf(
				"lint reads no file %q: records are NNNN-slug.md files at the top of the ADR directory", p)}
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// Package source chooses where a repository's decision corpus is read
// from: the working tree (adapters/filesystem) or a git revision
// (adapters/gitrev), and so where the files its "@adr" markers are read
// from. Both binaries, the MCP server and the command line, choose here
// and nowhere else.
package source

import (
	"context"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/adapters/gitrev"
	"github.com/adrkit/adrkit-go/ports"
)

// Corpus is a corpus source with its start-up check.
type Corpus interface {
	ports.CorpusReader
	// Check validates the repository root and ADR directory once, before
	// any work, so that an unusable one is reported up front. A failure
	// is an *ports.UnavailableError.
	Check(ctx context.Context) error
}

// New returns the corpus source for the repository root cwd and the ADR
// directory dir: the working tree when rev is empty, otherwise the
// revision rev (a branch, a tag, HEAD~3, a hash).
func New(cwd, dir, rev string) Corpus {
	if rev != "" {
		return gitrev.New(cwd, dir, rev)
	}
	return filesystem.New(cwd, dir)
}

// History returns the first-parent history of the same repository and
// ADR directory, as of rev (HEAD when rev is empty, the working tree
// having no history of its own), for the change feed.
func History(cwd, dir, rev string) ports.HistoryReader {
	return gitrev.NewHistory(cwd, dir, rev)
}

// Heads reads the heads of the repository's files, for "@adr" markers,
// from the same place: the working tree when rev is empty, otherwise the
// revision's tree, so that the files and the decisions are of one moment.
func Heads(cwd, rev string) ports.FileHeadReader {
	if rev != "" {
		return gitrev.NewHeads(cwd, rev)
	}
	return filesystem.NewHeads(cwd)
}

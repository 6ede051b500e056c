package entry

import (
	"context"

	"github.com/adrkit/adrkit-go/adapters/clock"
	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/adapters/gitrev"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/ports"
)

// Reader is the corpus reader of a Location, with its start-up check.
type Reader interface {
	ports.CorpusReader
	// Check validates the repository root and ADR directory once, before
	// any work, so that an unusable one is reported up front. A failure
	// is an *ports.UnavailableError.
	Check(ctx context.Context) error
}

// At is l at the revision rev ("" for the working tree): the same
// repository and ADR directory at another moment.
func (l Location) At(rev string) Location {
	l.Rev = rev
	return l
}

// Reader reads the corpus at l: the working tree (adapters/filesystem)
// when l.Rev is empty, otherwise that revision (adapters/gitrev). Both
// binaries choose here and nowhere else. It touches no file until used.
func (l Location) Reader() Reader {
	if l.Rev != "" {
		return gitrev.New(l.Root, l.Dir, l.Rev)
	}
	return filesystem.New(l.Root, l.Dir)
}

// History reads the first-parent history of l's repository and ADR
// directory as of l.Rev (HEAD when it is empty, the working tree having
// no history of its own), for the change feed.
func (l Location) History() ports.HistoryReader {
	return gitrev.NewHistory(l.Root, l.Dir, l.Rev)
}

// Heads reads the heads of the repository's files, for "@adr" markers,
// from where Reader reads the decisions, so that the files and the
// decisions are of one moment.
func (l Location) Heads() ports.FileHeadReader {
	if l.Rev != "" {
		return gitrev.NewHeads(l.Root, l.Rev)
	}
	return filesystem.NewHeads(l.Root)
}

// Service is the service over the corpus at l for the tool surface s
// (with the extended tools, the change feed reads History, and the review
// queue is dated by the wall clock when a call names no day), and ready,
// the check of its reader. Neither touches a file until called: a server
// may start before its corpus is in place.
func (l Location) Service(s Surface) (svc *app.Service, ready func(context.Context) error) {
	r := l.Reader()
	return l.over(r, s), r.Check
}

// over is the service of surface s reading the corpus through r.
func (l Location) over(r ports.CorpusReader, s Surface) *app.Service {
	var opts app.Options
	if s.Extended {
		opts = app.Options{Extended: true, History: l.History(), Clock: clock.System{}}
	}
	return app.New(r, opts)
}

// Open is Service with the check made once, before any work, so that an
// unusable root or directory is reported up front: a
// *ports.UnavailableError, for Describe.
func (l Location) Open(ctx context.Context, s Surface) (*app.Service, error) {
	svc, ready := l.Service(s)
	if err := ready(ctx); err != nil {
		return nil, err
	}
	return svc, nil
}

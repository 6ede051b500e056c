package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// Project reads the corpus afresh and projects it. Every call lists the
// directory and reads every candidate, so an edit between two calls is
// visible to the second; only work that is a pure function of the bytes
// read is memoised (see memo).
//
// The error is an *ports.UnavailableError when the corpus cannot be used
// at all (root or directory invalid, listing failed, or the corpus changed
// while it was read); that replaces any partial result. Any other error is
// an unexpected fault (including a cancelled ctx).
func (s *Service) Project(ctx context.Context) (*corpus.Projection, error) {
	ld, err := s.load(ctx, false)
	if err != nil {
		return nil, err
	}
	return ld.proj, nil
}

// loaded is the corpus as one call read it.
type loaded struct {
	// entries is the listing of the ADR directory: its top level, or for
	// lint everything under it.
	entries []ports.Entry
	// slots are the candidates among entries as read and parsed, in
	// listing order.
	slots []slot
	proj  *corpus.Projection
}

// load reads the corpus once, through one view, for Project and Lint
// alike: it lists the ADR directory, reads and parses every candidate
// (readAll) and projects them (build), then checks that the directory
// did not change meanwhile. Lint lists recursively, so that its
// stray-file scan and discovery (which only ever takes top-level files)
// see the same listing, and keeps each valid record's YAML text to find
// the lines of its findings.
func (s *Service) load(ctx context.Context, lint bool) (*loaded, error) {
	view, err := s.reader.Open(ctx)
	if err != nil {
		return nil, fmt.Errorf("open corpus: %w", err)
	}
	var entries []ports.Entry
	if top, ok := view.(topLister); ok && !lint {
		entries, err = top.ListTop(ctx)
	} else {
		entries, err = view.List(ctx, lint)
	}
	if err != nil {
		return nil, fmt.Errorf("list ADR directory: %w", err)
	}
	todo := make([]ports.Entry, 0, len(entries))
	for _, e := range entries {
		if isCandidate(e) {
			todo = append(todo, e)
		}
	}
	slots, err := s.readAll(ctx, view, todo, lint)
	if err != nil {
		return nil, err
	}
	proj := s.build(slots, lint)
	if err := view.Verify(ctx); err != nil {
		return nil, fmt.Errorf("verify corpus: %w", err)
	}
	return &loaded{entries: entries, slots: slots, proj: proj}, nil
}

// topLister is a corpus view that can list its top level without sizes
// (Size 0), for less than List costs (the working-tree reader saves an
// lstat per entry). A projection never reads a listed size: Read checks
// the size cap itself.
type topLister interface {
	ListTop(ctx context.Context) ([]ports.Entry, error)
}

// isCandidate reports whether a listed entry is a record candidate: a
// regular file at the top level of the ADR directory with a record's
// name. A recursive listing names nested entries with "/".
func isCandidate(e ports.Entry) bool {
	return e.Kind == ports.KindRegular && !strings.Contains(e.Name, "/") && corpus.IsCandidateName(e.Name)
}

// readCandidate reads one candidate, turning a per-file failure into an
// exclusion. Only failures that concern the whole projection (an
// unavailable corpus, a cancelled call) are returned as errors.
func readCandidate(ctx context.Context, view ports.Corpus, e ports.Entry) (corpus.Candidate, error) {
	data, err := view.Read(ctx, e.Name, corpus.MaxRecordBytes)
	return candidateOf(e, data, err)
}

// candidateOf is the candidate for entry e from the outcome of reading it.
func candidateOf(e ports.Entry, data []byte, err error) (corpus.Candidate, error) {
	c := corpus.Candidate{Path: e.Path}
	if err == nil {
		c.Content = data
		return c, nil
	}
	var unavailable *ports.UnavailableError
	if errors.As(err, &unavailable) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return c, fmt.Errorf("read %s: %w", e.Path, err)
	}
	var rerr *ports.ReadError
	if !errors.As(err, &rerr) {
		c.Exclusion = corpus.ExcludedReadError
		c.Cause = readCause(err)
		return c, nil
	}
	switch rerr.Kind {
	case ports.ReadTooLarge:
		c.Exclusion = corpus.ExcludedTooLarge
	case ports.ReadStatFailed:
		c.Exclusion = corpus.ExcludedStatError
	default:
		c.Exclusion = corpus.ExcludedReadError
		c.Cause = readCause(rerr.Err)
	}
	return c, nil
}

// readCause says why the bytes could not be read, in our own words. The
// underlying error may name absolute paths, so it is never quoted.
func readCause(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission to read the file was denied"
	case errors.Is(err, fs.ErrNotExist):
		return "the file disappeared before it could be read"
	case errors.Is(err, fs.ErrInvalid):
		return "the file is not something that can be read"
	}
	return "reading the file failed"
}

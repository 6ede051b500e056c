// Package filesystem reads a Git worktree on the local disk: the
// CorpusReader over its ADR directory, and the FileHeadReader over its
// files (heads.go).
//
// Every Open re-validates the repository root and the ADR directory from
// scratch, because the tree may change between (and during) tool calls.
// The package never writes, never follows a symlink to a record file and
// never opens anything in a way that could block on a FIFO or a device.
// Records are looked up and opened relative to a handle on the canonical
// ADR directory (an os.Root, or on Linux a directory descriptor: see
// handle.go), so a name can never lead outside it. What differs between
// systems (access(2), O_NONBLOCK, file identity) is in sys_unix.go and
// sys_other.go.
//
// Errors follow ports.go: *ports.UnavailableError for the root and the
// directory, *ports.ReadError for one record. A cancelled context is the
// exception: it ends any operation with the context's error, wrapped, so
// that cancellation is never mistaken for an unusable corpus. The text of
// a ReadError names the record by its display path only, since it may
// reach a finding message; an UnavailableError's cause may hold absolute
// paths and is for diagnostics.
package filesystem

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// Reader is a ports.CorpusReader over a directory tree. It is safe for
// concurrent use: concurrent Opens are independent projections.
type Reader struct {
	cwd string
	dir string

	mu sync.Mutex
	// expectedRoot is the canonical root of the first successful
	// validation. A later validation that finds another canonical root
	// means the configured root was retargeted, which the contract
	// reports as root-not-found rather than silently serving another
	// repository.
	expectedRoot string

	// openHandle opens the ADR directory: platformHandle, unless a test
	// of this package picks the other driver (see eachDriver).
	openHandle openHandle

	// access and beforeOpen are seams for this package's tests: access
	// lets a test running as root simulate a permission failure, and
	// beforeOpen lets a test change a record between the pre-read checks
	// and the open, a race that cannot be timed from outside.
	access     func(path string, mode uint32) error
	beforeOpen func(path string)
}

var _ ports.CorpusReader = (*Reader)(nil)

// New returns a Reader for the repository root cwd and the ADR directory
// dir. It touches no file: a bogus root is only reported by Check or Open.
//
// cwd is made absolute lexically against the process working directory,
// without resolving symlinks, so that a symlinked root can later be
// noticed as retargeted. An empty cwd stays empty and reports
// root-not-found, as the reference does for an explicitly empty root;
// callers that want the process directory pass it (or ".").
//
// dir is kept exactly as given (the caller applies the docs/adr
// default): a relative dir is resolved against the canonical root on
// every validation, an absolute one is used as is, and "" or "." is the
// root itself.
func New(cwd, dir string) *Reader {
	if cwd != "" {
		if abs, err := filepath.Abs(cwd); err == nil {
			cwd = abs
		}
	}
	return &Reader{cwd: cwd, dir: dir, openHandle: platformHandle, access: access}
}

// Check is the start-up validation: it resolves the root and the ADR
// directory and captures the canonical root that later calls must still
// find. A failure is an *ports.UnavailableError.
func (r *Reader) Check(ctx context.Context) error {
	_, err := r.validate(ctx)
	return err
}

// Open validates the root and the ADR directory afresh and returns a view
// of the directory for one projection. A failure is an
// *ports.UnavailableError (or the context's error).
func (r *Reader) Open(ctx context.Context) (ports.ADRDir, error) {
	rt, err := r.validate(ctx)
	if err != nil {
		return nil, err
	}
	return newView(r, rt), nil
}

// validate resolves the roots and compares the canonical root with the one
// captured by the first successful validation.
func (r *Reader) validate(ctx context.Context) (roots, error) {
	if err := ctx.Err(); err != nil {
		return roots{}, fmt.Errorf("validating the corpus roots: %w", err)
	}
	rt, err := resolveRoots(r.cwd, r.dir, r.access)
	if err != nil {
		return roots{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch r.expectedRoot {
	case "":
		r.expectedRoot = rt.root
	case rt.root:
	default:
		return roots{}, unavailable(corpus.RootNotFound,
			fmt.Errorf("repository root %s now resolves to %s, not %s as at start-up", r.cwd, rt.root, r.expectedRoot))
	}
	return rt, nil
}

// unavailable builds the port's error for reason with its cause.
func unavailable(reason corpus.UnavailableReason, err error) *ports.UnavailableError {
	return &ports.UnavailableError{Reason: reason, Err: err}
}

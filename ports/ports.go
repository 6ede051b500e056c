// Package ports declares what the use cases need from the outside world:
// where corpus bytes come from (CorpusReader) and what time it is (Clock).
package ports

import (
	"context"
	"time"

	"github.com/adrkit/adrkit-go/domain/corpus"
)

// CorpusReader is a source of corpus bytes: a working tree, a git
// revision, an in-memory fixture. Every projection opens it afresh, so a
// source re-validates its root and ADR directory on every Open.
type CorpusReader interface {
	// Open validates the root and the ADR directory and returns a view
	// for one projection. A root or directory that is unusable yields an
	// *UnavailableError.
	Open(ctx context.Context) (Corpus, error)
}

// Corpus is one projection's view of the ADR directory.
type Corpus interface {
	// List returns the entries of the ADR directory, sorted by Name in
	// UTF-16 code-unit order. With recursive false only the top level is
	// listed (what discovery uses); with recursive true nested entries are
	// included too (what lint uses to report stray Markdown files).
	// Failure to list is an *UnavailableError (dir-not-found or
	// dir-not-readable).
	List(ctx context.Context, recursive bool) ([]Entry, error)
	// Read returns the bytes of the top-level entry name. It checks the
	// entry is still a regular file inside the directory and at most
	// limit bytes before reading, and never reads more than limit+1
	// bytes. Failures are *ReadError.
	Read(ctx context.Context, name string, limit int64) ([]byte, error)
	// Verify re-validates the root and directory and every entry Read
	// returned, after the projection was built. It returns nil or an
	// *UnavailableError (usually corpus-changed-during-load).
	Verify(ctx context.Context) error
}

// EntryKind is the type of a directory entry, as the directory itself
// reports it (a symlink is a symlink, whatever it points at).
type EntryKind int

// Entry kinds.
const (
	KindRegular EntryKind = iota
	KindSymlink
	KindDirectory
	KindOther // FIFO, socket, device, or anything else
)

// Entry is one entry of the ADR directory.
type Entry struct {
	// Name is the path relative to the ADR directory, "/"-separated
	// (a bare file name at the top level).
	Name string
	// Path is the display path: relative to the canonical repository
	// root, "/"-separated. It is what findings and sourcePath show.
	Path string
	Kind EntryKind
	// Size in bytes as the directory reports it (0 when unknown).
	Size int64
}

// UnavailableError says the corpus cannot be read at all.
type UnavailableError struct {
	Reason corpus.UnavailableReason
	// Err is the underlying cause, for diagnostics; it may hold absolute
	// paths and is never shown to a client.
	Err error
}

func (e *UnavailableError) Error() string { return e.Reason.Message() }

// Unwrap returns the underlying cause.
func (e *UnavailableError) Unwrap() error { return e.Err }

// ReadErrorKind says why a candidate could not be read.
type ReadErrorKind int

// Read failure kinds, each mapping to one exclusion finding.
const (
	// ReadTooLarge: the entry is larger than the limit (record-too-large).
	ReadTooLarge ReadErrorKind = iota
	// ReadStatFailed: the entry vanished, is no longer a regular file, or
	// escapes the directory (record-stat-error).
	ReadStatFailed
	// ReadFailed: opening or reading the bytes failed (file-read).
	ReadFailed
)

// ReadError is a failure to read one candidate.
type ReadError struct {
	Kind ReadErrorKind
	Err  error
}

func (e *ReadError) Error() string {
	switch e.Kind {
	case ReadTooLarge:
		return "record is larger than the size cap"
	case ReadStatFailed:
		return "record could not be checked before reading"
	}
	if e.Err != nil {
		return "record could not be read: " + e.Err.Error()
	}
	return "record could not be read"
}

// Unwrap returns the underlying cause.
func (e *ReadError) Unwrap() error { return e.Err }

// Clock tells the time. Nothing in the MCP surface reads it; lint uses it
// to flag reviewBy dates in the past.
type Clock interface {
	Now() time.Time
}

// Package ports declares what the use cases need from the outside world,
// each port named for what it reads or does: the ADR directory
// (CorpusReader, whose Open gives one projection an ADRDir), the
// first-parent git history of that directory (HistoryReader, History),
// the head of a repository file where "@adr" markers are declared
// (FileHeadReader), what time it is (Clock), for doctor the processes an
// agent's configuration starts (Processes), and for the commands that
// write, the ADR directory and the repository's files (FolderWriter,
// RepoFiles: write.go), and for the hook what it keeps between runs
// (HookStore: hookstore.go). Every reader and writer has a conformance
// suite its implementations run: corpustest, historytest, headtest,
// writertest, hookstoretest; memcorpus is the in-memory CorpusReader,
// memhookstore the in-memory HookStore.
package ports

import (
	"context"
	"time"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
)

// CorpusReader is a source of corpus bytes: a working tree, a git
// revision, an in-memory fixture. Every projection opens it afresh, so a
// source re-validates its root and ADR directory on every Open.
type CorpusReader interface {
	// Open validates the root and the ADR directory and returns a view
	// for one projection. A root or directory that is unusable yields an
	// *UnavailableError.
	Open(ctx context.Context) (ADRDir, error)
}

// ADRDir is one projection's view of the ADR directory.
type ADRDir interface {
	// List returns the entries of the ADR directory, sorted by Name in
	// UTF-16 code-unit order. With recursive false only the top level is
	// listed (what discovery uses); with recursive true nested entries are
	// included too (what lint uses to report stray Markdown files).
	// Failure to list is an *UnavailableError (dir-not-found or
	// dir-not-readable).
	List(ctx context.Context, recursive bool) ([]Entry, error)
	// Read returns the bytes of the top-level entry name, in buf's
	// storage when it has room (buf may be nil): a caller that reads
	// every record on every call recycles its buffers instead of making
	// garbage in proportion to the corpus, so the result may alias buf.
	// It checks the entry is still a regular file inside the directory
	// and at most limit bytes before reading, and never reads more than
	// limit+1 bytes. Failures are *ReadError, in the kinds below: the
	// source says why in those terms, never in its own errors'.
	Read(ctx context.Context, name string, limit int64, buf []byte) ([]byte, error)
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
}

// UnavailableError says the corpus cannot be read at all.
type UnavailableError struct {
	Reason corpus.UnavailableReason
	// Err is the underlying cause, for diagnostics; it may hold absolute
	// paths and is never shown to a client.
	Err error
	// Why, when set, is the answer's message in place of the reason's
	// fixed sentence, where that sentence cannot say why nothing is read
	// (a server that has not found its repository yet). It never holds a
	// path.
	Why string
}

// Error is the message a client is shown: Why, or the reason's sentence.
func (e *UnavailableError) Error() string {
	if e.Why != "" {
		return e.Why
	}
	return e.Reason.Message()
}

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
	// ReadFailed: opening or reading the bytes failed, for a reason none
	// of the kinds below names (file-read).
	ReadFailed
	// ReadDenied: opening or reading the bytes was not permitted
	// (file-read).
	ReadDenied
	// ReadVanished: the entry disappeared between its checks and its
	// reading (file-read).
	ReadVanished
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
	case ReadDenied:
		return "permission to read the record was denied"
	case ReadVanished:
		return "record disappeared before it could be read"
	}
	if e.Err != nil {
		return "record could not be read: " + e.Err.Error()
	}
	return "record could not be read"
}

// Unwrap returns the underlying cause.
func (e *ReadError) Unwrap() error { return e.Err }

// Clock tells the time: lint's today for reviewBy dates, the review
// queue's today when a call names none. adapters/clock is the wall clock.
type Clock interface {
	Now() time.Time
}

// HistoryReader is a source of the ADR directory's first-parent git
// history, for the decision change feed. Every call opens it afresh, so a
// branch that moved between two calls is seen by the second.
type HistoryReader interface {
	// OpenHistory opens the repository and resolves the revision. A
	// repository or revision that cannot be used yields a
	// *HistoryUnavailableError.
	OpenHistory(ctx context.Context) (History, error)
}

// History is one call's view of the history: the commit the revision
// names, and its first parents back to the root commit. Methods that
// need an object the repository lacks return a *HistoryUnavailableError
// (history-incomplete); any other error is a fault.
type History interface {
	// Head is the commit the revision names; ok is false when the
	// revision is HEAD on a branch without commits yet.
	Head() (c Commit, ok bool)
	// Dir is the configured ADR directory, cleaned, relative to the
	// repository root ("" for the root itself). Feed cursors are bound
	// to it.
	Dir() string
	// Parent returns the first parent of c, a commit this History
	// returned; ok is false for a root commit.
	Parent(ctx context.Context, c Commit) (p Commit, ok bool, err error)
	// Files lists the top-level entries of the ADR directory in c,
	// sorted by Name in UTF-16 code-unit order; none when the directory
	// does not exist in c. Sizes are 0 (unknown): Read checks them.
	Files(ctx context.Context, c Commit) ([]HistoryFile, error)
	// Read returns the bytes of f, with the same size rule as	// ADRDir.Read: a *ReadError of kind ReadTooLarge above limit, and
	// never more than limit+1 bytes read.
	Read(ctx context.Context, f HistoryFile, limit int64) ([]byte, error)
}

// Commit is one commit of the first-parent history.
type Commit struct {
	// Hash is the commit id, 40 lower-case hex digits.
	Hash string
	// Time is the committer time: when the commit landed.
	Time time.Time
	// Dir identifies the ADR directory in this commit: two commits with
	// the same Dir hold the same files at the same display paths, so
	// nothing changed between them. Empty when the commit has no ADR
	// directory (not yet created, removed, or not a directory).
	Dir string
}

// HistoryFile is one entry of the ADR directory in a commit.
type HistoryFile struct {
	Entry
	// Object identifies the content: equal objects hold equal bytes.
	Object string
}

// HistoryUnavailableError says the history cannot be read.
type HistoryUnavailableError struct {
	Reason feed.UnavailableReason
	// Err is the underlying cause, for diagnostics; it may hold absolute
	// paths and is never shown to a client.
	Err error
}

// Error is the reason's fixed message; the cause stays in Err.
func (e *HistoryUnavailableError) Error() string { return e.Reason.Message() }

// Unwrap returns the underlying cause.
func (e *HistoryUnavailableError) Unwrap() error { return e.Err }

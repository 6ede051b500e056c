package filesystem

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/internal/parallel"
	"github.com/adrkit/adrkit-go/ports"
)

// view is one projection's ports.ADRDir: the canonical directory found by
// Open and the identity of every record Read returned, for Verify.
type view struct {
	r *Reader
	roots
	// displayDir is the canonical directory relative to the canonical
	// root, "/"-separated; "" when the directory is the root.
	displayDir string

	mu   sync.Mutex
	read map[string]readRecord

	// dirMu guards the handle on the ADR directory that List, Read and
	// Verify work through: records are looked up and opened relative to
	// it, so no name can lead outside the directory and no per-record
	// realpath walk is needed. dirID is the identity of the directory
	// first opened; Verify requires the canonical path to still lead to
	// it.
	dirMu     sync.Mutex
	handle    dirHandle
	dirID     fileID
	haveDirID bool
}

// readRecord is what Verify re-checks for one record Read returned.
type readRecord struct {
	id    identity
	limit int64
}

var _ ports.ADRDir = (*view)(nil)

func newView(r *Reader, rt roots) *view {
	display := ""
	if rt.dir != rt.root {
		// resolveRoots guarantees dir lies beneath root.
		display = filepath.ToSlash(strings.TrimPrefix(rt.dir[len(rt.root):], string(filepath.Separator)))
	}
	return &view{r: r, roots: rt, displayDir: display, read: map[string]readRecord{}}
}

// displayPath turns a "/"-separated name relative to the ADR directory
// into the path findings show: relative to the canonical root.
func (v *view) displayPath(name string) string {
	if v.displayDir == "" {
		return name
	}
	return v.displayDir + "/" + name
}

// List lists the canonical directory; see ports.ADRDir.
func (v *view) List(ctx context.Context, recursive bool) ([]ports.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("listing the ADR directory: %w", err)
	}
	dir, err := v.dirHandle()
	if err != nil {
		return nil, unavailable(notFoundOr(err, corpus.DirNotFound, corpus.DirNotReadable),
			fmt.Errorf("opening ADR directory %s: %w", v.dir, err))
	}
	var entries []ports.Entry
	if err := v.listDir(ctx, dir, "", recursive, &entries); err != nil {
		// Nothing will be read through a directory that cannot be
		// listed: let it go now rather than when the view is collected
		// (Windows refuses to rename a directory while it is open).
		v.closeDir()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("listing the ADR directory: %w", ctx.Err())
		}
		return nil, unavailable(notFoundOr(err, corpus.DirNotFound, corpus.DirNotReadable),
			fmt.Errorf("listing ADR directory %s: %w", v.dir, err))
	}
	slices.SortFunc(entries, func(a, b ports.Entry) int { return jsstring.Compare(a.Name, b.Name) })
	v.mu.Lock()
	if len(v.read) == 0 {
		// Sized for every entry being read, so that recording the reads
		// never grows the map.
		v.read = make(map[string]readRecord, len(entries))
	}
	v.mu.Unlock()
	return entries, nil
}

// listDir appends the entries of the directory dir, named with prefix,
// descending into subdirectories when recursive. Only listing dir itself
// can fail: a nested directory that
// cannot be opened (gone, unreadable, swapped for something else) is
// listed as an entry without children, so that one stray folder does not
// make the whole corpus unavailable.
func (v *view) listDir(ctx context.Context, dir dirHandle, prefix string, recursive bool, out *[]ports.Entry) error {
	des, err := dir.list()
	if err != nil {
		return err
	}
	for _, de := range des {
		if err := ctx.Err(); err != nil {
			return err
		}
		name := prefix + de.Name()
		e := ports.Entry{Name: name, Path: v.displayPath(name), Kind: kindOf(de.Type())}
		*out = append(*out, e)
		if !recursive || e.Kind != ports.KindDirectory {
			continue
		}
		sub, err := dir.openDir(de.Name())
		if err != nil {
			continue
		}
		err = v.listDir(ctx, sub, name+"/", true, out)
		sub.Close()
		if err != nil && ctx.Err() != nil {
			return err
		}
	}
	return nil
}

// minStatsPerWorker is the fewest lstat calls worth a goroutine of their
// own (Verify): below a few hundred, starting goroutines costs about what
// it saves (measured with 100 and 10,000 records).
const minStatsPerWorker = 128

// kindOf maps the type bits the directory reports (a symlink stays a
// symlink) to an entry kind.
func kindOf(t fs.FileMode) ports.EntryKind {
	switch {
	case t&fs.ModeSymlink != 0:
		return ports.KindSymlink
	case t.IsDir():
		return ports.KindDirectory
	case t.IsRegular():
		return ports.KindRegular
	}
	return ports.KindOther
}

// Read returns the bytes of the top-level record name, in buf's storage
// when it fits; see ports.ADRDir.
func (v *view) Read(ctx context.Context, name string, limit int64, buf []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if !isEntryName(name) {
		return nil, readErr(ports.ReadStatFailed, fmt.Errorf("%q is not the name of a top-level entry", name))
	}
	// Errors name the display path, never the absolute one: a read
	// error's text may reach a finding message. It is built only for an
	// error: every call reads every record, and these strings were a
	// measurable share of a read.
	disp := func() string { return v.displayPath(name) }

	// The pre-read guard: still a regular file, still inside, not too big.
	// Looking the single-segment name up without following a symlink,
	// relative to the open directory, keeps the record inside it.
	dir, err := v.dirHandle()
	if err != nil {
		return nil, readErr(ports.ReadStatFailed, fmt.Errorf("opening the ADR directory to read %s: %w", disp(), withoutPath(err)))
	}
	fi, err := dir.lstat(name)
	if err != nil {
		return nil, readErr(ports.ReadStatFailed, &fs.PathError{Op: "lstat", Path: disp(), Err: withoutPath(err)})
	}
	if !fi.typ.IsRegular() {
		return nil, readErr(ports.ReadStatFailed, fmt.Errorf("%s is not a regular file (%v)", disp(), fi.typ))
	}
	if fi.size > limit {
		return nil, readErr(ports.ReadTooLarge, fmt.Errorf("%s has %d bytes, more than %d", disp(), fi.size, limit))
	}
	if v.r.beforeOpen != nil {
		v.r.beforeOpen(filepath.Join(v.dir, name))
	}

	f, opened, err := dir.openRecord(name)
	if err != nil {
		kind := failure(err)
		// A symlink swapped in after the guard is refused by one driver
		// and, leading out of the directory or nowhere, fails to open in
		// the other: either way the name no longer holds a regular file,
		// which is the guard's reason, not a read failure.
		if now, err := dir.lstat(name); err == nil && !now.typ.IsRegular() {
			kind = ports.ReadStatFailed
		}
		return nil, readErr(kind, &fs.PathError{Op: "open", Path: disp(), Err: withoutPath(err)})
	}
	defer f.Close()
	if !opened.typ.IsRegular() || !sameFile(opened.file, fi.file) {
		return nil, readErr(ports.ReadStatFailed, fmt.Errorf("%s was replaced between its checks and its opening", disp()))
	}
	data, err := readAtMost(f, opened.size, limit, buf)
	if err != nil {
		return nil, readErr(failure(err), &fs.PathError{Op: "read", Path: disp(), Err: withoutPath(err)})
	}
	if int64(len(data)) > limit {
		return nil, readErr(ports.ReadTooLarge, fmt.Errorf("%s grew past %d bytes while being read", disp(), limit))
	}

	v.mu.Lock()
	v.read[name] = readRecord{id: fi.identity, limit: limit}
	v.mu.Unlock()
	return data, nil
}

// dirHandle returns the handle on the ADR directory, opening it on first
// use with the reader's driver. A directory opened again after closeDir
// must be the one first opened.
func (v *view) dirHandle() (dirHandle, error) {
	v.dirMu.Lock()
	defer v.dirMu.Unlock()
	if v.handle != nil {
		return v.handle, nil
	}
	dir, err := v.r.openHandle(v.dir)
	if err != nil {
		return nil, err
	}
	switch {
	case !v.haveDirID:
		v.dirID, v.haveDirID = dir.id(), true
	case !sameFile(dir.id(), v.dirID):
		dir.Close()
		return nil, fmt.Errorf("ADR directory %s was replaced while the corpus was read", v.dir)
	}
	// Both drivers close the directory should the view be dropped
	// without Verify (a projection abandoned half way).
	v.handle = dir
	return dir, nil
}

// closeDir releases the directory handle; a later List or Read reopens
// it.
func (v *view) closeDir() {
	v.dirMu.Lock()
	defer v.dirMu.Unlock()
	if v.handle != nil {
		v.handle.Close()
		v.handle = nil
	}
}

// withoutPath strips the path a *fs.PathError carries (absolute for the
// directory, and it may reach a finding message), keeping its cause.
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// isEntryName reports whether name is a single path segment, the only
// thing Read may be asked for. On Windows the separator is a backslash,
// refused as well as "/".
func isEntryName(name string) bool {
	return name != "" && name != "." && name != ".." &&
		!strings.ContainsRune(name, '/') && !strings.ContainsRune(name, filepath.Separator) &&
		!strings.ContainsRune(name, 0)
}

// readAtMost reads from r until end of file or until limit+1 bytes
// arrived, whichever is first: one byte past the limit is enough to know
// the file grew, and nothing more is ever read. size is the open file's
// size by fstat (negative when unknown): it sizes the first buffer, and a
// read that comes back short with exactly size bytes in hand is taken as
// end of file, saving the empty read that would confirm it (a system call
// per record per call). That is safe because the file's size and mtime
// are checked again after the load (Verify): a file that grew after the
// fstat, which is the only way more bytes could follow, fails that check.
// A short read that stops anywhere else is not trusted: reading goes on.
// A non-nil buf is used as that buffer when it has room.
func readAtMost(r io.Reader, size, limit int64, buf []byte) ([]byte, error) {
	const chunk = 64 * 1024
	want := max(limit, 0)
	if want < math.MaxInt64 {
		want++
	}
	initial := int64(chunk)
	if size >= 0 && size < initial {
		initial = size + 1
	}
	if int64(cap(buf)) < min(initial, want) {
		buf = make([]byte, 0, min(initial, want))
	}
	buf = buf[:0]
	for int64(len(buf)) < want {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, int(min(want-int64(len(buf)), chunk)))
		}
		end := len(buf) + int(min(int64(cap(buf)-len(buf)), want-int64(len(buf))))
		n, err := r.Read(buf[len(buf):end])
		short := len(buf)+n < end
		buf = buf[:len(buf)+n]
		if err == io.EOF || (n == 0 && err == nil) {
			break
		}
		if err != nil {
			return nil, err
		}
		if short && int64(len(buf)) == size {
			break
		}
	}
	return buf, nil
}

// Verify re-validates the roots and every record Read returned; see
// ports.ADRDir.
func (v *view) Verify(ctx context.Context) error {
	rt, err := v.r.validate(ctx)
	if err != nil {
		return err
	}
	if rt.dir != v.dir {
		return unavailable(corpus.CorpusChangedDuringLoad,
			fmt.Errorf("ADR directory now resolves to %s, not %s", rt.dir, v.dir))
	}
	v.mu.Lock()
	read := maps.Clone(v.read)
	v.mu.Unlock()
	if len(read) == 0 {
		v.closeDir()
		return nil
	}
	// The records were read through the directory first opened; the
	// canonical path must still lead to that very directory (a copy put
	// in its place is a change), and then looking them up through it is
	// looking them up by path.
	dst, err := os.Stat(v.dir)
	if err != nil {
		return unavailable(corpus.CorpusChangedDuringLoad, fmt.Errorf("checking ADR directory %s: %w", v.dir, err))
	}
	dir, err := v.dirHandle()
	if err != nil {
		return unavailable(corpus.CorpusChangedDuringLoad, err)
	}
	defer v.closeDir()
	if !sameFile(fileIDOf(dst), v.dirID) {
		return unavailable(corpus.CorpusChangedDuringLoad,
			fmt.Errorf("ADR directory %s was replaced while the corpus was read", v.dir))
	}
	names := slices.Sorted(maps.Keys(read))
	errs := make([]error, len(names))
	// One lstat per record, and every call ends with them: a large
	// corpus is checked on every core, like its listing.
	parallel.For(len(names), minStatsPerWorker, func(_, i int) bool {
		if errs[i] = ctx.Err(); errs[i] == nil {
			errs[i] = v.verifyRecord(dir, names[i], read[names[i]])
		}
		return true
	})
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("verifying the corpus: %w", err)
	}
	// The first failure in name order, whatever the timing.
	for _, err := range errs {
		if err != nil {
			return unavailable(corpus.CorpusChangedDuringLoad, err)
		}
	}
	return nil
}

// verifyRecord repeats the guard for one record, relative to the open
// directory, and requires its identity to be the one remembered when it
// was read.
func (v *view) verifyRecord(dir dirHandle, name string, rec readRecord) error {
	disp := func() string { return v.displayPath(name) } // for errors only
	fi, err := dir.lstat(name)
	if err != nil {
		return &fs.PathError{Op: "lstat", Path: disp(), Err: withoutPath(err)}
	}
	if !fi.typ.IsRegular() {
		return fmt.Errorf("%s is not a regular file (%v)", disp(), fi.typ)
	}
	if fi.size > rec.limit {
		return fmt.Errorf("%s now has %d bytes, more than %d", disp(), fi.size, rec.limit)
	}
	if !fi.same(rec.id) {
		return fmt.Errorf("%s changed after it was read: %v, was %v", disp(), fi.identity, rec.id)
	}
	return nil
}

func readErr(kind ports.ReadErrorKind, err error) *ports.ReadError {
	return &ports.ReadError{Kind: kind, Err: err}
}

// failure is the port's kind for a failure to open or read a record.
func failure(err error) ports.ReadErrorKind {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return ports.ReadDenied
	case errors.Is(err, fs.ErrNotExist):
		return ports.ReadVanished
	}
	return ports.ReadFailed
}

package filesystem

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/jsstring"
	"github.com/adrkit/adrkit-go/internal/parallel"
	"github.com/adrkit/adrkit-go/ports"
)

// view is one projection's ports.Corpus: the canonical directory found by
// Open and the identity of every record Read returned, for Verify.
type view struct {
	r *Reader
	roots
	// displayDir is the canonical directory relative to the canonical
	// root, "/"-separated; "" when the directory is the root.
	displayDir string

	mu   sync.Mutex
	read map[string]readRecord

	// dirMu guards the directory handle Read and Verify work through:
	// records are looked up and opened relative to it, so a record is
	// inside the directory by construction and no per-record realpath
	// walk is needed. dirID is the identity of the directory first
	// opened; Verify requires the canonical path to still lead to it.
	dirMu sync.Mutex
	dirf  *os.File // owns dirfd
	dirfd int
	dirID identity
}

// readRecord is what Verify re-checks for one record Read returned.
type readRecord struct {
	id    identity
	limit int64
}

// identity says whether a file is still the one that was read. Size and
// mtime catch an in-place rewrite, dev and inode a replacement.
type identity struct {
	dev, ino uint64
	size     int64
	mtimeNs  int64
}

func identityOf(st *unix.Stat_t) identity {
	return identity{dev: uint64(st.Dev), ino: st.Ino, size: st.Size, mtimeNs: st.Mtim.Nano()}
}

var _ ports.Corpus = (*view)(nil)

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

// dirOpenFlags open a directory without following a symlink swapped in
// after validation and without any chance of blocking: O_DIRECTORY makes
// a FIFO fail with ENOTDIR, O_NONBLOCK is there should that ever not hold.
const dirOpenFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC

// fileOpenFlags open a record: never through a symlink, and never waiting
// for a writer should a FIFO or device have replaced the file.
const fileOpenFlags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC

// List lists the canonical directory; see ports.Corpus.
func (v *view) List(ctx context.Context, recursive bool) ([]ports.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("listing the ADR directory: %w", err)
	}
	fd, err := openRetry(func() (int, error) { return unix.Open(v.dir, dirOpenFlags, 0) })
	if err != nil {
		return nil, unavailable(notFoundOr(err, corpus.DirNotFound, corpus.DirNotReadable),
			fmt.Errorf("opening ADR directory %s: %w", v.dir, err))
	}
	var entries []ports.Entry
	if err := v.listDir(ctx, fd, v.dir, "", recursive, &entries); err != nil {
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

// listDir appends the entries of the open directory fd (which it closes),
// named with prefix, descending into subdirectories when recursive. Only
// reading fd itself can fail: a nested directory that cannot be opened
// (gone, unreadable) is listed as an entry without children, so that one
// stray folder does not make the whole corpus unavailable.
func (v *view) listDir(ctx context.Context, fd int, path, prefix string, recursive bool, out *[]ports.Entry) error {
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	des, err := f.ReadDir(-1)
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
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
		sub, err := openRetry(func() (int, error) { return unix.Openat(fd, de.Name(), dirOpenFlags, 0) })
		if err != nil {
			continue
		}
		if err := v.listDir(ctx, sub, filepath.Join(path, de.Name()), name+"/", true, out); err != nil && ctx.Err() != nil {
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
// when it fits; see ports.Corpus.
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
	dirfd, err := v.dirFD()
	if err != nil {
		return nil, readErr(ports.ReadStatFailed, fmt.Errorf("opening the ADR directory to read %s: %w", disp(), withoutPath(err)))
	}
	var st unix.Stat_t
	if err := fstatatRetry(dirfd, name, &st); err != nil {
		return nil, readErr(ports.ReadStatFailed, &fs.PathError{Op: "lstat", Path: disp(), Err: err})
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, readErr(ports.ReadStatFailed, fmt.Errorf("%s is not a regular file (mode %#o)", disp(), st.Mode&unix.S_IFMT))
	}
	if st.Size > limit {
		return nil, readErr(ports.ReadTooLarge, fmt.Errorf("%s has %d bytes, more than %d", disp(), st.Size, limit))
	}
	if v.r.beforeOpen != nil {
		v.r.beforeOpen(filepath.Join(v.dir, name))
	}

	fd, err := openRetry(func() (int, error) { return unix.Openat(dirfd, name, fileOpenFlags, 0) })
	if err != nil {
		kind := failure(err)
		if errors.Is(err, unix.ELOOP) {
			// O_NOFOLLOW met a symlink swapped in after the guard.
			kind = ports.ReadStatFailed
		}
		return nil, readErr(kind, &fs.PathError{Op: "open", Path: disp(), Err: err})
	}
	defer unix.Close(fd)
	var fst unix.Stat_t
	if err := unix.Fstat(fd, &fst); err != nil {
		return nil, readErr(failure(err), &fs.PathError{Op: "fstat", Path: disp(), Err: err})
	}
	if fst.Mode&unix.S_IFMT != unix.S_IFREG || uint64(fst.Dev) != uint64(st.Dev) || fst.Ino != st.Ino {
		return nil, readErr(ports.ReadStatFailed, fmt.Errorf("%s was replaced between its checks and its opening", disp()))
	}
	data, err := readAtMost(fd, fst.Size, limit, buf)
	if err != nil {
		return nil, readErr(failure(err), &fs.PathError{Op: "read", Path: disp(), Err: err})
	}
	if int64(len(data)) > limit {
		return nil, readErr(ports.ReadTooLarge, fmt.Errorf("%s grew past %d bytes while being read", disp(), limit))
	}

	v.mu.Lock()
	v.read[name] = readRecord{id: identityOf(&st), limit: limit}
	v.mu.Unlock()
	return data, nil
}

// dirFD returns the descriptor of the ADR directory, opening it on first
// use (without following a symlink, never blocking). A directory opened
// again after closeDir must be the one first opened.
func (v *view) dirFD() (int, error) {
	v.dirMu.Lock()
	defer v.dirMu.Unlock()
	if v.dirf != nil {
		return v.dirfd, nil
	}
	fd, err := openRetry(func() (int, error) { return unix.Open(v.dir, dirOpenFlags, 0) })
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: v.dir, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, &fs.PathError{Op: "fstat", Path: v.dir, Err: err}
	}
	id := identityOf(&st)
	switch {
	case v.dirID == identity{}:
		v.dirID = id
	case id.dev != v.dirID.dev || id.ino != v.dirID.ino:
		unix.Close(fd)
		return -1, fmt.Errorf("ADR directory %s was replaced while the corpus was read", v.dir)
	}
	// An *os.File closes the descriptor should the view be dropped
	// without Verify (a projection abandoned half way).
	v.dirf, v.dirfd = os.NewFile(uintptr(fd), v.dir), fd
	return fd, nil
}

// closeDir releases the directory handle; a later Read reopens it.
func (v *view) closeDir() {
	v.dirMu.Lock()
	defer v.dirMu.Unlock()
	if v.dirf != nil {
		v.dirf.Close()
		v.dirf = nil
	}
}

// fstatatRetry is lstat of name relative to dirfd, retried on EINTR.
func fstatatRetry(dirfd int, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return err
		}
	}
}

// withoutPath strips the absolute path a *fs.PathError carries, keeping
// its cause.
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// isEntryName reports whether name is a single path segment, the only
// thing Read may be asked for.
func isEntryName(name string) bool {
	return name != "" && name != "." && name != ".." &&
		!strings.ContainsRune(name, '/') && !strings.ContainsRune(name, 0)
}

// readAtMost reads from fd until end of file or until limit+1 bytes
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
func readAtMost(fd int, size, limit int64, buf []byte) ([]byte, error) {
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
		n, err := unix.Read(fd, buf[len(buf):end])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			break
		}
		short := len(buf)+n < end
		buf = buf[:len(buf)+n]
		if short && int64(len(buf)) == size {
			break
		}
	}
	return buf, nil
}

// Verify re-validates the roots and every record Read returned; see
// ports.Corpus.
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
		return nil
	}
	// The records were read through the directory first opened; the
	// canonical path must still lead to that very directory (a copy put
	// in its place is a change), and then looking them up through it is
	// looking them up by path.
	var dst unix.Stat_t
	if err := unix.Stat(v.dir, &dst); err != nil {
		return unavailable(corpus.CorpusChangedDuringLoad, fmt.Errorf("checking ADR directory %s: %w", v.dir, err))
	}
	dirfd, err := v.dirFD()
	if err != nil {
		return unavailable(corpus.CorpusChangedDuringLoad, err)
	}
	defer v.closeDir()
	if got := identityOf(&dst); got.dev != v.dirID.dev || got.ino != v.dirID.ino {
		return unavailable(corpus.CorpusChangedDuringLoad,
			fmt.Errorf("ADR directory %s was replaced while the corpus was read", v.dir))
	}
	names := slices.Sorted(maps.Keys(read))
	errs := make([]error, len(names))
	// One lstat per record, and every call ends with them: a large
	// corpus is checked on every core, like its listing.
	parallel.For(len(names), minStatsPerWorker, func(_, i int) bool {
		if errs[i] = ctx.Err(); errs[i] == nil {
			errs[i] = v.verifyRecord(dirfd, names[i], read[names[i]])
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
func (v *view) verifyRecord(dirfd int, name string, rec readRecord) error {
	disp := func() string { return v.displayPath(name) } // for errors only
	var st unix.Stat_t
	if err := fstatatRetry(dirfd, name, &st); err != nil {
		return &fs.PathError{Op: "lstat", Path: disp(), Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fmt.Errorf("%s is not a regular file (mode %#o)", disp(), st.Mode&unix.S_IFMT)
	}
	if st.Size > rec.limit {
		return fmt.Errorf("%s now has %d bytes, more than %d", disp(), st.Size, rec.limit)
	}
	if got := identityOf(&st); got != rec.id {
		return fmt.Errorf("%s changed after it was read: %+v, was %+v", disp(), got, rec.id)
	}
	return nil
}

// openRetry retries an open interrupted by a signal, which Go's runtime
// signals can cause on some file systems.
func openRetry(open func() (int, error)) (int, error) {
	for {
		fd, err := open()
		if err != unix.EINTR {
			return fd, err
		}
	}
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

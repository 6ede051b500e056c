package filesystem

import (
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// platformHandle is the driver this system uses: a directory descriptor
// (see handle.go for the measurement that chose it).
var platformHandle openHandle = openFDHandle

// fdHandle is a dirHandle over a directory descriptor, with records
// looked up by fstatat and opened by openat relative to it, every call
// refusing a symlink (AT_SYMLINK_NOFOLLOW, O_NOFOLLOW) and never waiting
// (O_NONBLOCK): per record, what os.Root does without its path parsing,
// its *os.File and its attempt to register a regular file with epoll.
type fdHandle struct {
	f   *os.File // owns fd, and closes it should the handle be dropped
	fd  int
	fid fileID
}

// dirOpenFlags open a directory without following a symlink swapped in
// after validation and without any chance of blocking: O_DIRECTORY makes
// a FIFO fail with ENOTDIR, O_NONBLOCK is there should that ever not hold.
const dirOpenFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC

// fileOpenFlags open a record: never through a symlink, and never waiting
// for a writer should a FIFO or device have replaced the file.
const fileOpenFlags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC

var _ openHandle = openFDHandle

// openFDHandle opens the directory at path.
func openFDHandle(path string) (dirHandle, error) {
	fd, err := openRetry(func() (int, error) { return unix.Open(path, dirOpenFlags, 0) })
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return newFDHandle(fd, path)
}

// newFDHandle wraps the directory descriptor fd, which it owns.
func newFDHandle(fd int, path string) (dirHandle, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	return &fdHandle{f: os.NewFile(uintptr(fd), path), fd: fd, fid: fileID{dev: st.Dev, ino: st.Ino}}, nil
}

func (h *fdHandle) lstat(name string) (entryInfo, error) {
	var st unix.Stat_t
	if err := fstatatRetry(h.fd, name, &st); err != nil {
		return entryInfo{}, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	return entryInfoOfStat(&st), nil
}

func (h *fdHandle) openRecord(name string) (recordFile, entryInfo, error) {
	fd, err := openRetry(func() (int, error) { return unix.Openat(h.fd, name, fileOpenFlags, 0) })
	if err != nil {
		return nil, entryInfo{}, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, entryInfo{}, &fs.PathError{Op: "fstat", Path: name, Err: err}
	}
	return fdFile(fd), entryInfoOfStat(&st), nil
}

func (h *fdHandle) openDir(name string) (dirHandle, error) {
	fd, err := openRetry(func() (int, error) { return unix.Openat(h.fd, name, dirOpenFlags, 0) })
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return newFDHandle(fd, name)
}

// list reads a second descriptor of the directory, so that listing
// twice, or concurrently with lookups, never shares a read offset.
func (h *fdHandle) list() ([]fs.DirEntry, error) {
	fd, err := openRetry(func() (int, error) { return unix.Openat(h.fd, ".", dirOpenFlags, 0) })
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: h.f.Name(), Err: err}
	}
	f := os.NewFile(uintptr(fd), h.f.Name())
	defer f.Close()
	return f.ReadDir(-1)
}

func (h *fdHandle) id() fileID { return h.fid }

func (h *fdHandle) Close() error { return h.f.Close() }

// entryInfoOfStat describes a stat buffer.
func entryInfoOfStat(st *unix.Stat_t) entryInfo {
	var typ fs.FileMode
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		typ = fs.ModeDir
	case unix.S_IFLNK:
		typ = fs.ModeSymlink
	case unix.S_IFIFO:
		typ = fs.ModeNamedPipe
	case unix.S_IFSOCK:
		typ = fs.ModeSocket
	case unix.S_IFCHR:
		typ = fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		typ = fs.ModeDevice
	default:
		typ = fs.ModeIrregular
	}
	return entryInfo{typ: typ, identity: identity{
		file: fileID{dev: st.Dev, ino: st.Ino}, size: st.Size, mtimeNs: st.Mtim.Nano(),
	}}
}

// fdFile is an open record read with read(2) directly.
type fdFile int

func (f fdFile) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(int(f), p)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f fdFile) Close() error { return unix.Close(int(f)) }

// fstatatRetry is lstat of name relative to dirfd, retried on EINTR.
func fstatatRetry(dirfd int, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return err
		}
	}
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

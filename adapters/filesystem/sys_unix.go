//go:build unix

package filesystem

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// The modes of an access check: R_OK and X_OK of access(2).
const (
	accessRead   = unix.R_OK
	accessSearch = unix.X_OK
)

// access is access(2): whether the real user may read (or search) path,
// which is what the contract's readability checks ask. Opening the path
// instead would block on a FIFO, and the .git entry may be one.
func access(path string, mode uint32) error { return unix.Access(path, mode) }

// recordOpenFlag opens a record without waiting for a writer should a
// FIFO or a device have replaced the file after its checks: the open
// returns at once and the type check that follows refuses it. For a
// regular file O_NONBLOCK changes nothing.
const recordOpenFlag = os.O_RDONLY | syscall.O_NONBLOCK

// fileID tells one file from another on the same machine: device and
// inode, the pair os.SameFile compares, kept without the rest of the
// stat buffer (a projection keeps one per record it read).
type fileID struct{ dev, ino uint64 }

// fileIDOf is the ID of the file fi describes.
func fileIDOf(fi fs.FileInfo) fileID {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}
}

// sameFile reports whether two IDs name the same file.
func sameFile(a, b fileID) bool { return a == b && a != fileID{} }

//go:build !unix

package filesystem

import (
	"io/fs"
	"os"
)

// The modes of an access check, as access(2) numbers them; without
// access(2) both mean "can be opened for reading".
const (
	accessRead   = 4
	accessSearch = 1
)

// access checks that path can be opened for reading, which for a
// directory also means it can be listed. Systems without access(2) have
// no FIFOs in the file tree either, so opening cannot block.
func access(path string, _ uint32) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	return f.Close()
}

// recordOpenFlag opens a record for reading; there is no FIFO to guard
// against on these systems.
const recordOpenFlag = os.O_RDONLY

// fileID tells one file from another: the FileInfo itself, compared with
// os.SameFile (on Windows, volume serial number and file index, read from
// the handle that stat'ed it).
type fileID struct{ fi fs.FileInfo }

// fileIDOf is the ID of the file fi describes.
func fileIDOf(fi fs.FileInfo) fileID { return fileID{fi: fi} }

// sameFile reports whether two IDs name the same file.
func sameFile(a, b fileID) bool { return a.fi != nil && b.fi != nil && os.SameFile(a.fi, b.fi) }

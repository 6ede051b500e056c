package filesystem

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// rootHandle is a dirHandle over an os.Root, the standard library's
// traversal-resistant directory handle, on every system. Root operations
// follow a symlink that stays inside the root; where the reader must not
// follow one at all, a handle looks first (lstat) and then checks that
// what it opened is what it looked at.
type rootHandle struct {
	root *os.Root
	// path is the directory's absolute path, for listing (see list).
	path string
	fid  fileID
}

var _ openHandle = openRootHandle

// openRootHandle opens the directory at path as an os.Root.
func openRootHandle(path string) (dirHandle, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, notDirError(path, fi.Mode().Type())
	}
	// The "/." makes the system refuse anything but a directory while
	// resolving the path: a FIFO swapped in after the lstat fails the
	// open at once, where opening it as a root would wait for a writer.
	root, err := os.OpenRoot(path + string(filepath.Separator) + ".")
	if err != nil {
		return nil, err
	}
	return checkedRoot(root, path, fi)
}

// checkedRoot returns root as a handle when it holds the directory fi
// (an lstat of path) describes, else closes it: a symlink swapped in
// between the lstat and the open was followed, and is refused here.
func checkedRoot(root *os.Root, path string, fi fs.FileInfo) (dirHandle, error) {
	opened, err := root.Stat(".")
	if err != nil {
		root.Close()
		return nil, err
	}
	id := fileIDOf(opened)
	if !opened.IsDir() || !sameFile(id, fileIDOf(fi)) {
		root.Close()
		return nil, fmt.Errorf("%s was replaced while it was opened", path)
	}
	return &rootHandle{root: root, path: path, fid: id}, nil
}

func (h *rootHandle) lstat(name string) (entryInfo, error) {
	fi, err := h.root.Lstat(name)
	if err != nil {
		return entryInfo{}, err
	}
	return entryInfoOf(fi), nil
}

func (h *rootHandle) openRecord(name string) (recordFile, entryInfo, error) {
	f, err := h.root.OpenFile(name, recordOpenFlag, 0)
	if err != nil {
		return nil, entryInfo{}, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, entryInfo{}, err
	}
	return f, entryInfoOf(fi), nil
}

func (h *rootHandle) openDir(name string) (dirHandle, error) {
	fi, err := h.root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, notDirError(name, fi.Mode().Type())
	}
	// As in openRootHandle, "/." refuses a FIFO swapped in: name becomes
	// an inner component, which os.Root opens as a directory only.
	root, err := h.root.OpenRoot(name + "/.")
	if err != nil {
		return nil, err
	}
	return checkedRoot(root, filepath.Join(h.path, name), fi)
}

// list opens the directory by its path, not through the Root: a
// directory opened in a Root lstats every entry while listing it
// (os.File.ReadDir cannot trust the type bits there), a system call per
// record per call for types the directory already reports. The identity
// check keeps the listing to the directory the Root holds.
func (h *rootHandle) list() ([]fs.DirEntry, error) {
	f, err := os.Open(h.path + string(filepath.Separator) + ".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !sameFile(fileIDOf(fi), h.fid) {
		return nil, fmt.Errorf("%s was replaced while it was listed", h.path)
	}
	return f.ReadDir(-1)
}

func (h *rootHandle) id() fileID { return h.fid }

func (h *rootHandle) Close() error { return h.root.Close() }

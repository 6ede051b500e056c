package filesystem

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/ports"
)

// Heads is the ports.FileHeadReader over the working tree: it reads the
// head of a repository file for "@adr" markers.
//
// The path is walked one component at a time from the root through the
// reader's directory handles (handle.go), each component looked at
// without following it: a symbolic link anywhere on the way makes the
// file unreadable, whether it points inside the tree, outside it or
// nowhere, so that the answer reveals nothing about what a link points
// at. The last component must be a regular file; it is opened without
// blocking (a FIFO swapped in answers at once) and must still be the file
// that was looked at. On Windows a backslash is a separator as well
// (markers.InTreeOn): taken as part of one name, `a\b` would be resolved
// by the system in one step, following a link at a.
type Heads struct {
	root string
}

var _ ports.FileHeadReader = (*Heads)(nil)

// NewHeads returns a reader of files under the repository root.
func NewHeads(root string) *Heads { return &Heads{root: root} }

// ReadHead reads the first markers.WindowBytes bytes of path (and one
// more, to learn whether the file goes on); see ports.FileHeadReader.
func (h *Heads) ReadHead(ctx context.Context, path string) (markers.Head, error) {
	if err := ctx.Err(); err != nil {
		return markers.Head{}, fmt.Errorf("reading %s: %w", path, err)
	}
	state := func(s markers.State) (markers.Head, error) { return markers.Head{State: s, FileBytes: -1}, nil }
	clean, ok := markers.InTreeOn(runtime.GOOS, path)
	if !ok {
		return state(markers.OutOfTree)
	}
	root, err := filepath.Abs(h.root)
	if err != nil {
		return state(markers.Unreadable)
	}
	dir, err := platformHandle(root)
	if err != nil {
		return state(stateOf(err))
	}
	defer func() { dir.Close() }()

	parts := strings.Split(clean, "/")
	for _, name := range parts[:len(parts)-1] {
		fi, err := dir.lstat(name)
		switch {
		case err != nil:
			return state(stateOf(err))
		case fi.typ&fs.ModeSymlink != 0:
			return state(markers.Unreadable)
		case !fi.typ.IsDir():
			// A file where a directory should be: nothing is there.
			return state(markers.Absent)
		}
		sub, err := dir.openDir(name)
		if err != nil {
			return state(markers.Unreadable)
		}
		dir.Close()
		dir = sub
	}

	leaf := parts[len(parts)-1]
	fi, err := dir.lstat(leaf)
	if err != nil {
		return state(stateOf(err))
	}
	if !fi.typ.IsRegular() {
		return state(markers.Unreadable)
	}
	f, opened, err := dir.openRecord(leaf)
	if err != nil {
		return state(markers.Unreadable)
	}
	defer f.Close()
	if !opened.typ.IsRegular() || !sameFile(opened.file, fi.file) {
		return state(markers.Unreadable)
	}
	buf := make([]byte, markers.WindowBytes+1)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return state(markers.Unreadable)
	}
	return markers.Head{
		State:     markers.Scanned,
		Data:      buf[:min(n, markers.WindowBytes)],
		Truncated: n > markers.WindowBytes,
		FileBytes: opened.size,
	}, nil
}

// stateOf is the state of a file that could not be looked at: absent
// when a component does not exist or a file stands where a directory
// should, unreadable otherwise (a permission, anything else).
func stateOf(err error) markers.State {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return markers.Absent
	}
	return markers.Unreadable
}

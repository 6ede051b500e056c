package filesystem

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/ports"
)

// Heads is the ports.SourceReader over the working tree: it reads the
// head of a repository file for "@adr" markers.
//
// The path is walked one component at a time from the root, each opened
// relative to its parent and never through a symbolic link: a link
// anywhere on the way makes the file unreadable, whether it points inside
// the tree, outside it or nowhere, so that the answer reveals nothing
// about what a link points at. The last component is opened without
// blocking (a FIFO answers at once) and must be a regular file.
type Heads struct {
	root string
}

var _ ports.SourceReader = (*Heads)(nil)

// NewHeads returns a reader of files under the repository root.
func NewHeads(root string) *Heads { return &Heads{root: root} }

// ReadHead reads the first markers.WindowBytes bytes of path (and one
// more, to learn whether the file goes on); see ports.SourceReader.
func (h *Heads) ReadHead(ctx context.Context, path string) (markers.Head, error) {
	if err := ctx.Err(); err != nil {
		return markers.Head{}, fmt.Errorf("reading %s: %w", path, err)
	}
	clean, ok := markers.InTree(path)
	if !ok {
		return markers.Head{State: markers.OutOfTree, FileBytes: -1}, nil
	}
	fd, err := h.open(strings.Split(clean, "/"))
	if err != nil {
		return markers.Head{State: stateOf(err), FileBytes: -1}, nil
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return markers.Head{State: markers.Unreadable, FileBytes: -1}, nil
	}
	buf := make([]byte, markers.WindowBytes+1)
	n := 0
	for n < len(buf) {
		k, err := unix.Pread(fd, buf[n:], int64(n))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return markers.Head{State: markers.Unreadable, FileBytes: -1}, nil
		}
		if k == 0 {
			break
		}
		n += k
	}
	return markers.Head{
		State:     markers.Scanned,
		Data:      buf[:min(n, markers.WindowBytes)],
		Truncated: n > markers.WindowBytes,
		FileBytes: st.Size,
	}, nil
}

// open opens the file named by parts (the components of a clean relative
// path) component by component, refusing a symbolic link at every step.
func (h *Heads) open(parts []string) (int, error) {
	root, err := filepath.Abs(h.root)
	if err != nil {
		return -1, err
	}
	dir, err := openRetry(func() (int, error) {
		return unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return -1, err
	}
	for i, name := range parts {
		flags := dirOpenFlags
		if i == len(parts)-1 {
			flags = fileOpenFlags
		}
		fd, err := openRetry(func() (int, error) { return unix.Openat(dir, name, flags, 0) })
		if err != nil {
			err = classify(dir, name, err)
		}
		unix.Close(dir)
		if err != nil {
			return -1, err
		}
		dir = fd
	}
	return dir, nil
}

// errSymlink marks a component that is a symbolic link.
var errSymlink = errors.New("a symbolic link")

// classify tells a symbolic link apart from other failures to open name
// in dir: some systems report O_NOFOLLOW with O_DIRECTORY on a link as
// ENOTDIR rather than ELOOP, which would otherwise read as "absent".
func classify(dir int, name string, err error) error {
	var st unix.Stat_t
	if unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return errSymlink
	}
	return err
}

// stateOf is the state of a file that could not be opened: absent when a
// component does not exist or a file stands where a directory should,
// unreadable otherwise (a link, a permission, anything else).
func stateOf(err error) markers.State {
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return markers.Absent
	}
	return markers.Unreadable
}

package gitrev

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/adrkit/adrkit-go/adapters/gitrepo"
	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/ports"
)

// Heads is the ports.FileHeadReader over the tree of a git revision: the
// head of a file as it is in that commit, so that "adrkit --rev v1.2
// explain" reads the markers of v1.2's files, not of the working tree.
//
// It follows the working-tree reader's rules on the tree: a symbolic link
// or a submodule anywhere on the way makes the file unreadable, a missing
// component or a file where a directory should be makes it absent.
type Heads struct {
	r *Reader

	once sync.Once
	err  error
	// mu serialises use of repo: go-git's storage is not safe for
	// concurrent use.
	mu   sync.Mutex
	repo *gitrepo.Repository
	root *object.Tree
}

var _ ports.FileHeadReader = (*Heads)(nil)

// NewHeads returns a reader of the files of revision rev of the
// repository at repoPath. It performs no I/O until the first read.
func NewHeads(repoPath, rev string) *Heads {
	return &Heads{r: New(repoPath, "", rev)}
}

// open opens the repository and resolves the revision, once.
func (h *Heads) open() error {
	h.once.Do(func() {
		repo, _, err := h.r.openRepo()
		if err != nil {
			h.err = err
			return
		}
		c, err := h.r.resolve(repo)
		if err != nil {
			h.err = err
			return
		}
		t, err := c.Tree()
		if err != nil {
			h.err = fmt.Errorf("reading the tree of commit %s: %w", c.Hash, err)
			return
		}
		h.repo, h.root = repo, t
	})
	return h.err
}

// ReadHead reads the first markers.WindowBytes bytes of path in the
// revision's tree (one more to learn whether it goes on); see
// ports.FileHeadReader. A revision or tree that cannot be read makes every
// file unreadable.
func (h *Heads) ReadHead(ctx context.Context, path string) (markers.Head, error) {
	if err := ctx.Err(); err != nil {
		return markers.Head{}, fmt.Errorf("reading %s: %w", path, err)
	}
	clean, ok := markers.InTreeOn(runtime.GOOS, path)
	if !ok {
		return markers.Head{State: markers.OutOfTree, FileBytes: -1}, nil
	}
	if h.open() != nil {
		return markers.Head{State: markers.Unreadable, FileBytes: -1}, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	state := func(s markers.State) (markers.Head, error) { return markers.Head{State: s, FileBytes: -1}, nil }

	t := h.root
	parts := strings.Split(clean, "/")
	for i, name := range parts {
		e, ok := entry(t, name)
		if !ok {
			return state(markers.Absent)
		}
		last := i == len(parts)-1
		switch {
		case e.Mode == filemode.Symlink || e.Mode == filemode.Submodule:
			return state(markers.Unreadable)
		case e.Mode == filemode.Dir && last:
			return state(markers.Unreadable)
		case e.Mode == filemode.Dir:
			sub, err := h.repo.TreeObject(e.Hash)
			if err != nil {
				return state(markers.Unreadable)
			}
			t = sub
		case !last:
			// A file where a directory should be: nothing is there.
			return state(markers.Absent)
		case !e.Mode.IsFile():
			return state(markers.Unreadable)
		default:
			size, err := blobSize(h.repo, e.Hash)
			if err != nil {
				return state(markers.Unreadable)
			}
			data, err := readBlob(h.repo, e.Hash, markers.WindowBytes)
			if err != nil {
				return state(markers.Unreadable)
			}
			return markers.Head{
				State:     markers.Scanned,
				Data:      data[:min(len(data), markers.WindowBytes)],
				Truncated: len(data) > markers.WindowBytes,
				FileBytes: size,
			}, nil
		}
	}
	return state(markers.Absent)
}

package gitrev

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/adrkit/adrkit-go/adapters/gitrepo"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/ports"
)

// view is one projection's ports.ADRDir: the ADR directory's tree in one
// commit. Everything it reads is immutable, which is what makes Verify
// cheap (see Verify).
type view struct {
	r      *Reader
	commit plumbing.Hash
	// displayDir is the directory's canonical path in the tree; "" when
	// it is the root.
	displayDir string
	// top holds the first entry of each valid name of the directory's
	// own tree, for Read.
	top map[string]object.TreeEntry

	// mu serialises use of repo and tree: go-git's storage loads its pack
	// indexes lazily and is not safe for concurrent use.
	mu   sync.Mutex
	repo *gitrepo.Repository
	tree *object.Tree
}

var _ ports.ADRDir = (*view)(nil)

// newView finds the directory rel in the tree of commit.
func newView(ctx context.Context, r *Reader, repo *gitrepo.Repository, commit *object.Commit, rel string) (*view, error) {
	root, err := commit.Tree()
	if err != nil {
		return nil, unavailable(corpus.DirNotReadable, missing("tree", commit.TreeHash, "commit "+commit.Hash.String(), err))
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("opening the git revision: %w", err)
	}
	tree, canon, err := findDir(repo, root, rel)
	if err != nil {
		var ue *ports.UnavailableError
		if errors.As(err, &ue) {
			ue.Err = fmt.Errorf("commit %s (revision %q): %w", commit.Hash, r.rev, ue.Err)
		}
		return nil, err
	}
	v := &view{r: r, commit: commit.Hash, displayDir: canon, top: map[string]object.TreeEntry{}, repo: repo, tree: tree}
	for _, e := range tree.Entries {
		if _, dup := v.top[e.Name]; !dup && validName(e.Name) {
			v.top[e.Name] = e
		}
	}
	return v, nil
}

// displayPath turns a name relative to the ADR directory into the path
// findings show: relative to the repository root, "/"-separated.
func (v *view) displayPath(name string) string {
	if v.displayDir == "" {
		return name
	}
	return v.displayDir + "/" + name
}

// List lists the directory's tree; see ports.ADRDir. Sizes come from the
// blob headers; a blob the repository lacks (a partial clone) is listed
// with size 0, and Read reports it. A subtree the recursive listing needs
// and cannot load makes the directory unreadable: a tree with a hole is
// not one commit's directory any more.
func (v *view) List(ctx context.Context, recursive bool) ([]ports.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("listing the ADR directory: %w", err)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []ports.Entry
	if err := v.listTree(ctx, v.tree, "", recursive, &out); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b ports.Entry) int { return jsstring.Compare(a.Name, b.Name) })
	return out, nil
}

// listTree appends the entries of t, named with prefix, descending into
// subtrees when recursive. Submodules and symlinks are never descended:
// a symlinked directory is an entry, as on disk.
func (v *view) listTree(ctx context.Context, t *object.Tree, prefix string, recursive bool, out *[]ports.Entry) error {
	seen := make(map[string]bool, len(t.Entries))
	for _, e := range t.Entries {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("listing the ADR directory: %w", err)
		}
		if seen[e.Name] || !validName(e.Name) {
			continue
		}
		seen[e.Name] = true
		name := prefix + e.Name
		ent := ports.Entry{Name: name, Path: v.displayPath(name), Kind: kindOf(e.Mode)}
		*out = append(*out, ent)
		if !recursive || ent.Kind != ports.KindDirectory {
			continue
		}
		sub, err := v.repo.TreeObject(e.Hash)
		if err != nil {
			return unavailable(corpus.DirNotReadable, missing("tree", e.Hash, v.displayPath(name), err))
		}
		if err := v.listTree(ctx, sub, name+"/", true, out); err != nil {
			return err
		}
	}
	return nil
}

// validName rejects entry names git itself refuses (fsck: empty, ".",
// "..", a slash) and only a hand-crafted tree could hold: they cannot be
// the name of a file in a directory.
func validName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsRune(name, '/')
}

// kindOf maps a tree entry's mode to an entry kind. A gitlink (submodule)
// is a commit of another repository, neither a file nor a directory here.
func kindOf(m filemode.FileMode) ports.EntryKind {
	switch m {
	case filemode.Regular, filemode.Executable, filemode.Deprecated:
		return ports.KindRegular
	case filemode.Symlink:
		return ports.KindSymlink
	case filemode.Dir:
		return ports.KindDirectory
	}
	return ports.KindOther
}

// Read returns the content of the top-level blob name; see ports.ADRDir.
// The size comes from the object's header before any content is inflated,
// and at most limit+1 bytes are read. The content is inflated into an
// object of go-git's, so buf is not used.
func (v *view) Read(ctx context.Context, name string, limit int64, _ []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if !validName(name) {
		return nil, readErr(ports.ReadStatFailed, fmt.Errorf("%q is not the name of a top-level entry", name))
	}
	// Errors name the display path and object ids only: a read error's
	// text may reach a finding message.
	disp := v.displayPath(name)
	e, ok := v.top[name]
	if !ok {
		return nil, readErr(ports.ReadStatFailed, fmt.Errorf("%s is not in the tree of commit %s", disp, v.commit))
	}
	if kindOf(e.Mode) != ports.KindRegular {
		return nil, readErr(ports.ReadStatFailed, fmt.Errorf("%s is not a regular file in the tree (mode %s)", disp, e.Mode))
	}

	v.mu.Lock()
	defer v.mu.Unlock()
	size, err := blobSize(v.repo, e.Hash)
	if err != nil {
		return nil, readErr(ports.ReadFailed, blobErr(disp, e.Hash, err))
	}
	if size > limit {
		return nil, readErr(ports.ReadTooLarge, fmt.Errorf("%s has %d bytes, more than %d", disp, size, limit))
	}
	data, err := readBlob(v.repo, e.Hash, limit)
	if err != nil {
		return nil, readErr(ports.ReadFailed, blobErr(disp, e.Hash, err))
	}
	if int64(len(data)) != size {
		return nil, readErr(ports.ReadFailed,
			fmt.Errorf("%s: blob %s holds %d bytes, but its header says %d (a corrupt object)", disp, e.Hash, len(data), size))
	}
	return data, nil
}

// blobErr words a failure to read the blob of disp.
func blobErr(disp string, h plumbing.Hash, err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return fmt.Errorf("%s: blob %s is missing from the repository (a shallow or partial clone, or pruned): %w", disp, h, err)
	}
	return fmt.Errorf("%s: %w", disp, err)
}

// Verify checks the repository can still be opened at the configured
// path, and nothing more; see ports.ADRDir.
//
// A working tree can change under a projection; a commit cannot. Every
// byte this view returned came from the one commit Open resolved, so the
// projection is consistent however the branch moved meanwhile: a commit
// landing during the call is not a change of this projection (the next
// Open sees it). What Verify still reports, like the working-tree
// reader, is a repository that vanished or was swapped for another
// (root-*): the answer would describe a source that is no longer there.
func (v *view) Verify(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("verifying the corpus: %w", err)
	}
	_, _, err := v.r.openRepo()
	return err
}

func readErr(kind ports.ReadErrorKind, err error) *ports.ReadError {
	return &ports.ReadError{Kind: kind, Err: err}
}

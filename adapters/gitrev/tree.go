package gitrev

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/objfile"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/adrkit/adrkit-go/adapters/gitrepo"
	"github.com/adrkit/adrkit-go/domain/corpus"
)

// maxSymlinkHops bounds the symlinks followed while finding the ADR
// directory, as the kernel's limit (40 on Linux) bounds realpath; a loop
// then fails like ELOOP does in the working-tree reader.
const maxSymlinkHops = 40

// maxLinkTarget is the longest symlink target read (PATH_MAX): a symlink
// blob is a path, and a bigger one is not worth reading.
const maxLinkTarget = 4096

// findDir finds the ADR directory rel (clean, relative, "" for the root)
// in the tree root, following symlinks stored in the tree the way
// realpath follows them on disk, so that a committed docs/adr -> real/adr
// reads and displays real/adr exactly as the working-tree reader does.
// It returns the directory's tree and its canonical path in the tree.
//
// Reasons mirror the working-tree reader's realpath and stat: a missing
// component is dir-not-found; a file as the last component is
// dir-not-directory; a file or a submodule on the way, a symlink loop or
// a tree object that cannot be read is dir-not-readable; climbing above
// the root or an absolute symlink target is dir-outside-root (a tree has
// nothing outside it, and an absolute path means nothing inside one).
func findDir(repo *gitrepo.Repository, root *object.Tree, rel string) (*object.Tree, string, error) {
	type step struct {
		name string
		tree *object.Tree
	}
	var done []step
	current := func() *object.Tree {
		if len(done) == 0 {
			return root
		}
		return done[len(done)-1].tree
	}
	where := func(name string) string {
		parts := make([]string, 0, len(done)+1)
		for _, s := range done {
			parts = append(parts, s.name)
		}
		return strings.Join(append(parts, name), "/")
	}

	pending := splitPath(rel)
	hops := 0
	for len(pending) > 0 {
		name := pending[0]
		pending = pending[1:]
		switch name {
		case ".":
			continue
		case "..":
			if len(done) == 0 {
				return nil, "", unavailable(corpus.DirOutsideRoot,
					fmt.Errorf("ADR directory %q climbs above the repository root", rel))
			}
			done = done[:len(done)-1]
			continue
		}
		p := where(name)
		e, ok := entry(current(), name)
		if !ok {
			return nil, "", unavailable(corpus.DirNotFound, fmt.Errorf("%s is not in the tree", p))
		}
		switch {
		case e.Mode == filemode.Dir:
			t, err := repo.TreeObject(e.Hash)
			if err != nil {
				return nil, "", unavailable(corpus.DirNotReadable, missing("tree", e.Hash, p, err))
			}
			done = append(done, step{name, t})
		case e.Mode == filemode.Symlink:
			hops++
			if hops > maxSymlinkHops {
				return nil, "", unavailable(corpus.DirNotReadable,
					fmt.Errorf("more than %d symbolic links on the way to %q (a loop?)", maxSymlinkHops, rel))
			}
			target, err := readLink(repo, e.Hash)
			if err != nil {
				return nil, "", unavailable(corpus.DirNotReadable, fmt.Errorf("reading the symbolic link %s: %w", p, err))
			}
			switch {
			case target == "":
				return nil, "", unavailable(corpus.DirNotFound, fmt.Errorf("the symbolic link %s has an empty target", p))
			case path.IsAbs(target):
				return nil, "", unavailable(corpus.DirOutsideRoot,
					fmt.Errorf("the symbolic link %s points at the absolute path %q, outside the tree", p, target))
			}
			pending = append(splitPath(target), pending...)
		case e.Mode == filemode.Submodule:
			return nil, "", unavailable(corpus.DirNotReadable,
				fmt.Errorf("%s is a submodule: its content is in another repository", p))
		case len(pending) == 0:
			return nil, "", unavailable(corpus.DirNotDirectory, fmt.Errorf("%s is a file in the tree, not a directory", p))
		default:
			return nil, "", unavailable(corpus.DirNotReadable, fmt.Errorf("%s is a file in the tree, so it has no %q", p, strings.Join(pending, "/")))
		}
	}
	canon := where("")
	return current(), strings.TrimSuffix(canon, "/"), nil
}

// splitPath splits a "/"-separated path into its components, dropping the
// empty ones that doubled or trailing slashes leave.
func splitPath(p string) []string {
	var out []string
	for _, s := range strings.Split(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// entry returns the first entry of t named name.
func entry(t *object.Tree, name string) (object.TreeEntry, bool) {
	for _, e := range t.Entries {
		if e.Name == name {
			return e, true
		}
	}
	return object.TreeEntry{}, false
}

// readLink returns the target a symlink blob holds.
func readLink(repo *gitrepo.Repository, h plumbing.Hash) (string, error) {
	size, err := blobSize(repo, h)
	if err != nil {
		return "", err
	}
	if size > maxLinkTarget {
		return "", fmt.Errorf("its target has %d bytes, more than %d", size, maxLinkTarget)
	}
	b, err := readBlob(repo, h, maxLinkTarget)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// objectSizer is implemented by go-git's filesystem object storage: it
// reads an object's size from its pack entry without inflating the
// content.
type objectSizer interface {
	EncodedObjectSize(h plumbing.Hash) (int64, error)
}

// storageFS is implemented by go-git's filesystem storage: the .git
// directory as go-git sees it (objects/ in the common directory of a
// linked worktree).
type storageFS interface {
	Filesystem() billy.Filesystem
}

// blobSize is the size of blob h, read before its content so that an
// oversized record is refused without being inflated. An object found
// only through alternates (which EncodedObjectSize does not search) is
// looked up the general way, which may materialise it first.
func blobSize(repo *gitrepo.Repository, h plumbing.Hash) (int64, error) {
	if n, ok, err := looseSize(repo, h); err != nil || ok {
		return n, err
	}
	if s, ok := repo.Storer.(objectSizer); ok {
		n, err := s.EncodedObjectSize(h)
		if err == nil {
			return n, nil
		}
		if !errors.Is(err, plumbing.ErrObjectNotFound) {
			return 0, fmt.Errorf("reading the size of blob %s: %w", h, err)
		}
	}
	obj, err := repo.Storer.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return 0, fmt.Errorf("looking up blob %s: %w", h, err)
	}
	return obj.Size(), nil
}

// looseSize reads the size of blob h from its loose object's header, and
// says whether there is one. EncodedObjectSize would do that too, but
// go-git v5.19.3 leaves the loose file open (encodedObjectSizeFromUnpacked
// closes the inflater, never the file): a descriptor held per blob until
// the collector finalises it, and on Windows a file that git gc cannot
// prune while the server runs.
func looseSize(repo *gitrepo.Repository, h plumbing.Hash) (size int64, ok bool, err error) {
	s, isFS := repo.Storer.(storageFS)
	if !isFS {
		return 0, false, nil
	}
	hex := h.String()
	f, err := s.Filesystem().Open(path.Join("objects", hex[:2], hex[2:]))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, false, nil
		}
		return 0, false, fmt.Errorf("opening loose object %s: %w", h, err)
	}
	defer f.Close()
	r, err := objfile.NewReader(f)
	if err != nil {
		return 0, false, fmt.Errorf("reading loose object %s: %w", h, err)
	}
	defer r.Close()
	_, size, err = r.Header()
	if err != nil {
		return 0, false, fmt.Errorf("reading the header of loose object %s: %w", h, err)
	}
	return size, true, nil
}

// readBlob reads the content of blob h, at most limit+1 bytes of it: one
// byte past the limit is enough to know the blob is too big.
func readBlob(repo *gitrepo.Repository, h plumbing.Hash, limit int64) (data []byte, err error) {
	obj, err := repo.Storer.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, fmt.Errorf("looking up blob %s: %w", h, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("opening blob %s: %w", h, err)
	}
	defer func() {
		if cerr := rd.Close(); cerr != nil && err == nil {
			data, err = nil, fmt.Errorf("closing blob %s: %w", h, cerr)
		}
	}()
	want := max(limit, 0)
	if want < 1<<62 {
		want++
	}
	data, err = io.ReadAll(io.LimitReader(rd, want))
	if err != nil {
		return nil, fmt.Errorf("reading blob %s: %w", h, err)
	}
	return data, nil
}

// missing describes an object that could not be loaded: most often one a
// shallow or partial clone does not have, or that was pruned.
func missing(kind string, h plumbing.Hash, where string, err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return fmt.Errorf("%s object %s of %s is missing from the repository (a shallow or partial clone, or pruned): %w", kind, h, where, err)
	}
	return fmt.Errorf("reading %s object %s of %s: %w", kind, h, where, err)
}

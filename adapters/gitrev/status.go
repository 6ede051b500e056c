package gitrev

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/utils/merkletrie"
	"github.com/go-git/go-git/v5/utils/merkletrie/filesystem"
	mindex "github.com/go-git/go-git/v5/utils/merkletrie/index"
	"github.com/go-git/go-git/v5/utils/merkletrie/noder"

	"github.com/adrkit/adrkit-go/adapters/gitrepo"
)

// uncommitted lists the paths that the index or the working tree of repo
// changes against the tree of head: staged changes (head's tree against
// the index), unstaged ones (the index against the files on disk),
// deleted files, and untracked files that .gitignore (or
// .git/info/exclude) does not ignore. A rename is its two paths. The
// order is the diffs' and paths may repeat.
//
// It is the part of go-git's Worktree.Status that Changes needs, built
// from the same public pieces (merkletrie diffs of tree, index and
// filesystem noders, gitignore matching), so it gives the same answers.
func uncommitted(repo *gitrepo.Repository, head *object.Tree) ([]string, error) {
	idx, err := repo.Storer.Index()
	if err != nil {
		return nil, fmt.Errorf("reading the index: %w", err)
	}
	staged, err := merkletrie.DiffTree(object.NewTreeRootNode(head), mindex.NewRootNode(idx), sameHash)
	if err != nil {
		return nil, fmt.Errorf("comparing HEAD with the index: %w", err)
	}
	subs, err := submodules(repo, idx)
	if err != nil {
		return nil, err
	}
	files := filesystem.NewRootNodeWithOptions(repo.Worktree, subs, filesystem.Options{Index: idx})
	unstaged, err := merkletrie.DiffTree(mindex.NewRootNode(idx), files, sameHash)
	if err != nil {
		return nil, fmt.Errorf("comparing the index with the working tree: %w", err)
	}

	var out []string
	for _, ch := range staged {
		if _, err := ch.Action(); err != nil {
			return nil, fmt.Errorf("comparing HEAD with the index: %w", err)
		}
		out = append(out, changeName(ch))
	}
	ignored := ignoreMatcher(repo)
	for _, ch := range unstaged {
		if _, err := ch.Action(); err != nil {
			return nil, fmt.Errorf("comparing the index with the working tree: %w", err)
		}
		if len(ch.From) == 0 && ignored != nil && ignored.Match(pathNames(ch.To), ch.To.IsDir()) {
			continue // a new file that is ignored
		}
		out = append(out, changeName(ch))
	}
	return out, nil
}

// changeName is the path a change is about: the new one, or the old one
// of a deletion.
func changeName(ch merkletrie.Change) string {
	if name := ch.To.String(); name != "" {
		return name
	}
	return ch.From.String()
}

func pathNames(p noder.Path) []string {
	out := make([]string, len(p))
	for i, n := range p {
		out[i] = n.Name()
	}
	return out
}

// ignoreMatcher matches what the .gitignore files of the working tree
// and .git/info/exclude ignore; nil when nothing is ignored or the
// patterns cannot be read (then nothing is left out, as with go-git).
func ignoreMatcher(repo *gitrepo.Repository) gitignore.Matcher {
	patterns, err := gitignore.ReadPatterns(repo.Worktree, nil)
	if err != nil || len(patterns) == 0 {
		return nil
	}
	return gitignore.NewMatcher(patterns)
}

// emptyNoderHash is the hash the filesystem noder gives a directory: it
// computes none, so such a node never equals another.
var emptyNoderHash = make([]byte, 24)

// sameHash is the noder equality of go-git's status: equal hashes, where
// neither is a directory's placeholder.
func sameHash(a, b noder.Hasher) bool {
	ha, hb := a.Hash(), b.Hash()
	if bytes.Equal(ha, emptyNoderHash) || bytes.Equal(hb, emptyNoderHash) {
		return false
	}
	return bytes.Equal(ha, hb)
}

// errGitmodulesSymlink refuses a .gitmodules that is a symbolic link, as
// go-git and git do: it could make the status read outside the tree.
var errGitmodulesSymlink = errors.New(".gitmodules is a symlink")

// submodules maps the path of each submodule that .gitmodules declares
// to the commit it is at, so that the working tree's comparison takes it
// as one gitlink rather than a directory of files: the commit checked
// out in its repository (under .git/modules) when it is initialised and
// has one, the commit the index records otherwise. Nothing is written:
// go-git's status would initialise a missing submodule repository.
func submodules(repo *gitrepo.Repository, idx *index.Index) (map[string]plumbing.Hash, error) {
	out := map[string]plumbing.Hash{}
	if fi, err := repo.Worktree.Lstat(".gitmodules"); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, errGitmodulesSymlink
	}
	f, err := repo.Worktree.Open(".gitmodules")
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading .gitmodules: %w", err)
	}
	b, err := io.ReadAll(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("reading .gitmodules: %w", err)
	}
	modules := config.NewModules()
	if err := modules.Unmarshal(b); err != nil {
		return nil, fmt.Errorf("reading .gitmodules: %w", err)
	}
	cfg, err := repo.Storer.Config()
	if err != nil {
		return nil, fmt.Errorf("reading the repository's configuration: %w", err)
	}
	for _, m := range modules.Submodules {
		var h plumbing.Hash
		e, err := idx.Entry(m.Path)
		switch {
		case err == nil:
			h = e.Hash
		case !errors.Is(err, index.ErrEntryNotFound):
			return nil, fmt.Errorf("reading submodule %s in the index: %w", m.Path, err)
		}
		if _, initialised := cfg.Submodules[m.Name]; initialised {
			current, err := submoduleHead(repo, m.Name)
			if err != nil {
				return nil, fmt.Errorf("reading submodule %s: %w", m.Path, err)
			}
			if !current.IsZero() {
				h = current
			}
		}
		out[m.Path] = h
	}
	return out, nil
}

// submoduleHead is the commit the repository of submodule name has
// checked out; zero when it has none yet.
func submoduleHead(repo *gitrepo.Repository, name string) (plumbing.Hash, error) {
	ms, ok := repo.Storer.(storage.ModuleStorer)
	if !ok {
		return plumbing.ZeroHash, nil
	}
	s, err := ms.Module(name)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	ref, err := storer.ResolveReference(s, plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return ref.Hash(), nil
}

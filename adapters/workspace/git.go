package workspace

import (
	"errors"
	"fmt"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/adrkit/adrkit-go/adapters/gitrepo"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// openRepo opens the repository at root, a worktree or a linked one.
func openRepo(root string) (*gitrepo.Repository, error) {
	repo, err := gitrepo.Open(root)
	if err != nil {
		return nil, fmt.Errorf("opening the git repository: %w", err)
	}
	return repo, nil
}

// dirEntries lists the names in directory dir ("." for the root) of a
// commit's tree; none when the directory is not there.
func dirEntries(c *object.Commit, dir string) ([]string, error) {
	tree, err := c.Tree()
	if err != nil {
		return nil, err
	}
	if dir != "." && dir != "" {
		tree, err = tree.Tree(dir)
		if errors.Is(err, object.ErrDirectoryNotFound) || errors.Is(err, object.ErrEntryNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
	}
	names := make([]string, 0, len(tree.Entries))
	for _, e := range tree.Entries {
		names = append(names, e.Name)
	}
	return names, nil
}

// BranchNames lists the file names in the ADR directory (dir, relative
// to the root) on every local branch and every remote-tracking branch, so
// that a new record's number can be free everywhere a fetch has seen. A
// branch whose tree lacks the directory contributes nothing; a
// repository without commits contributes nothing either, and so does a
// .git entry that leads to no repository (the working tree is then all
// there is to go by).
func (f *Folder) BranchNames() ([]string, error) {
	repo, err := openRepo(f.root)
	if errors.Is(err, gitrepo.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	refs, err := repo.Storer.IterReferences()
	if err != nil {
		return nil, fmt.Errorf("listing branches: %w", err)
	}
	seen := map[plumbing.Hash]bool{}
	set := map[string]bool{}
	err = refs.ForEach(func(r *plumbing.Reference) error {
		if r.Type() != plumbing.HashReference || !(r.Name().IsBranch() || r.Name().IsRemote()) || seen[r.Hash()] {
			return nil
		}
		seen[r.Hash()] = true
		c, err := repo.CommitObject(r.Hash())
		if err != nil {
			return fmt.Errorf("reading branch %s: %w", r.Name().Short(), err)
		}
		names, err := dirEntries(c, f.rel)
		if err != nil {
			return fmt.Errorf("reading branch %s: %w", r.Name().Short(), err)
		}
		for _, n := range names {
			set[n] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	slices.SortFunc(out, jsstring.Compare)
	return out, nil
}

// FirstCommitDates returns, for each file in the ADR directory on HEAD's
// history, the author date (YYYY-MM-DD, in the author's time zone) of the
// oldest commit that has it. An empty map when there is no history.
func (f *Folder) FirstCommitDates() (map[string]string, error) {
	dates := map[string]string{}
	repo, err := openRepo(f.root)
	if err != nil {
		return dates, err
	}
	head, err := repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return dates, nil
	}
	if err != nil {
		return dates, fmt.Errorf("reading HEAD: %w", err)
	}
	tip, err := repo.CommitObject(head.Hash())
	if err != nil {
		return dates, fmt.Errorf("reading the history: %w", err)
	}
	// Newest committer time first (go-git's LogOrderCommitterTime).
	err = object.NewCommitIterCTime(tip, nil, nil).ForEach(func(c *object.Commit) error {
		names, err := dirEntries(c, f.rel)
		if err != nil {
			return err
		}
		for _, n := range names {
			// The walk goes back in time: the last date seen is the oldest.
			dates[n] = c.Author.When.Format("2006-01-02")
		}
		return nil
	})
	if err != nil && !errors.Is(err, storer.ErrStop) {
		return dates, fmt.Errorf("reading the history: %w", err)
	}
	return dates, nil
}

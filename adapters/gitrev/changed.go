package gitrev

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// ChangeSet is what a change to a repository touched since a revision.
type ChangeSet struct {
	// Since is the commit the revision resolved to, and Base the merge
	// base of it and HEAD: the commit the change is measured from, as
	// "git diff REV..." measures it.
	Since, Base plumbing.Hash
	// Files are the changed paths, repository-relative and "/"-separated,
	// without repeats, in UTF-16 code-unit order: added, modified and
	// deleted files, both sides of a rename.
	Files []string
	// Worktree says whether the working tree's changes are in Files too
	// (false for a bare repository).
	Worktree bool
}

// ErrRevision wraps a revision that does not lead to a commit, or has no
// history in common with HEAD: a mistake in what the caller asked for,
// not in the repository.
var ErrRevision = errors.New("revision")

// Changes lists what changed in the repository at repoPath since
// revision since: the commits of HEAD that the revision does not have
// (the difference between their merge base and HEAD, like
// "git diff since...HEAD"), plus what the working tree has not committed
// yet: staged and unstaged changes, deleted files, and untracked files
// that .gitignore (or .git/info/exclude) does not ignore.
//
// When several merge bases are equally good (criss-cross merges), the
// one with the lowest hash is used, so that the answer does not depend
// on the order go-git finds them in.
func Changes(ctx context.Context, repoPath, since string) (*ChangeSet, error) {
	r := New(repoPath, "", since)
	repo, _, err := r.openRepo()
	if err != nil {
		return nil, err
	}
	from, err := r.resolve(repo)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRevision, err)
	}
	headRef, err := repo.Head()
	if err != nil {
		return nil, fmt.Errorf("reading HEAD: %w", err)
	}
	head, err := repo.CommitObject(headRef.Hash())
	if err != nil {
		return nil, fmt.Errorf("reading HEAD's commit %s: %w", headRef.Hash(), err)
	}
	bases, err := from.MergeBase(head)
	if err != nil {
		return nil, fmt.Errorf("finding the merge base of %q and HEAD: %w", since, err)
	}
	if len(bases) == 0 {
		return nil, fmt.Errorf("%w %q has no history in common with HEAD", ErrRevision, since)
	}
	slices.SortFunc(bases, func(a, b *object.Commit) int { return strings.Compare(a.Hash.String(), b.Hash.String()) })
	base := bases[0]
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("listing changes: %w", err)
	}

	set := map[string]bool{}
	baseTree, err := base.Tree()
	if err != nil {
		return nil, fmt.Errorf("reading the tree of merge base %s: %w", base.Hash, err)
	}
	headTree, err := head.Tree()
	if err != nil {
		return nil, fmt.Errorf("reading the tree of HEAD %s: %w", head.Hash, err)
	}
	diff, err := object.DiffTreeWithOptions(ctx, baseTree, headTree, &object.DiffTreeOptions{})
	if err != nil {
		return nil, fmt.Errorf("comparing merge base %s with HEAD %s: %w", base.Hash, head.Hash, err)
	}
	for _, c := range diff {
		for _, name := range []string{c.From.Name, c.To.Name} {
			if name != "" {
				set[name] = true
			}
		}
	}

	cs := &ChangeSet{Since: from.Hash, Base: base.Hash}
	if repo.Worktree != nil {
		names, err := uncommitted(repo, headTree)
		if err != nil {
			return nil, fmt.Errorf("reading the working tree's status: %w", err)
		}
		for _, name := range names {
			set[name] = true
		}
		cs.Worktree = true
	}
	for name := range set {
		cs.Files = append(cs.Files, name)
	}
	slices.SortFunc(cs.Files, jsstring.Compare)
	return cs, nil
}

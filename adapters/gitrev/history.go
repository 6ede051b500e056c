package gitrev

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/adrkit/adrkit-go/adapters/gitrepo"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
	"github.com/adrkit/adrkit-go/ports"
)

// History is the ports.HistoryReader over a repository: the first-parent
// history of the revision, and the ADR directory in each of its commits,
// read from the object database (never the working tree or the index).
//
// Repository and revision handling are the Reader's (docs/adr/0005): the
// same path checks, the same revision syntax, hash revisions pinned. The
// ADR directory is found in each commit's tree the way the Reader finds
// it in one, tree symlinks included.
//
// Commits are immutable, so what History learns about one (its first
// parent, its time, its ADR directory) is kept for the life of the
// process and shared by every call: a poll that starts near the head
// walks a few map entries, and a replay of a long history decodes each
// commit once. The cache is bounded by maxCachedCommits.
type History struct {
	r *Reader
	// open opens the repository and returns it with its canonical root;
	// the Reader's checks, or an in-memory repository in benchmarks.
	open func() (*gitrepo.Repository, string, error)

	mu sync.Mutex
	// commits caches what a commit says, by commit id.
	commits map[plumbing.Hash]commitInfo
	// dirs caches the ADR directory of a root tree, by root tree id.
	dirs map[plumbing.Hash]dirAt
	// steps caches, for the directory path's components, which
	// directory a subtree leads to, by subtree id and component index:
	// most commits change files outside the ADR directory, so the
	// subtrees on the way to it rarely change.
	steps map[stepKey]dirAt
}

var _ ports.HistoryReader = (*History)(nil)

// maxCachedCommits bounds the commit cache; past it the cache starts
// again (a few hundred bytes per commit, so a few hundred MiB at most).
const maxCachedCommits = 1 << 20

// commitInfo is what the feed needs of one commit.
type commitInfo struct {
	parent plumbing.Hash // first parent; zero for a root commit
	when   ports.Commit
	dir    dirAt
}

// dirAt is the ADR directory in one tree: its tree id and its canonical
// path, or nothing when the tree has no usable directory there.
type dirAt struct {
	tree  plumbing.Hash
	canon string
	ok    bool
	// viaLink marks a result that needs the symlink-following lookup of
	// the whole path (findDir); it is cached as such.
	viaLink bool
}

type stepKey struct {
	tree  plumbing.Hash
	depth int
}

// NewHistory returns the history of revision rev ("" means HEAD) of the
// repository at repoPath, for the ADR directory dir. It performs no I/O;
// the arguments mean what they mean for New.
func NewHistory(repoPath, dir, rev string) *History {
	if rev == "" {
		rev = "HEAD"
	}
	r := New(repoPath, dir, rev)
	return &History{
		r:       r,
		open:    r.openRepo,
		commits: map[plumbing.Hash]commitInfo{},
		dirs:    map[plumbing.Hash]dirAt{},
		steps:   map[stepKey]dirAt{},
	}
}

// OpenHistory opens the repository, resolves the revision and returns a
// view of its first-parent history; see ports.HistoryReader.
func (h *History) OpenHistory(ctx context.Context) (ports.History, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("opening the git history: %w", err)
	}
	repo, root, err := h.open()
	if err != nil {
		return nil, historyError(err)
	}
	rel, err := h.r.relDir(root)
	if err != nil {
		return nil, historyError(err)
	}
	v := &historyView{h: h, repo: repo, rel: rel, comps: splitPath(rel)}
	if unborn(repo, h.r.rev) {
		return v, nil
	}
	c, err := h.r.resolve(repo)
	if err != nil {
		return nil, revisionError(err)
	}
	head, err := v.info(ctx, c.Hash, c)
	if err != nil {
		return nil, err
	}
	v.head, v.hasHead = head.when, true
	return v, nil
}

// unborn reports whether rev is HEAD on a branch without commits: a new
// repository, whose feed is empty rather than unavailable.
func unborn(repo *gitrepo.Repository, rev string) bool {
	if rev != "HEAD" {
		return false
	}
	ref, err := repo.Storer.Reference(plumbing.HEAD)
	if err != nil || ref.Type() != plumbing.SymbolicReference {
		return false
	}
	_, err = repo.Storer.Reference(ref.Target())
	return errors.Is(err, plumbing.ErrReferenceNotFound)
}

// historyError maps the Reader's corpus reasons onto the history's. A
// revision the Reader reports as root-not-found is revision-not-found
// here, or history-incomplete when an object it needs is missing.
func historyError(err error) error {
	var ue *ports.UnavailableError
	if !errors.As(err, &ue) {
		return err
	}
	reason := feed.RootNotFound
	switch ue.Reason {
	case corpus.RootNotDirectory:
		reason = feed.RootNotDirectory
	case corpus.RootNotReadable:
		reason = feed.RootNotReadable
	case corpus.RootNotGit:
		reason = feed.NoRepository
	case corpus.DirOutsideRoot:
		reason = feed.DirOutsideRoot
	}
	return &ports.HistoryUnavailableError{Reason: reason, Err: ue.Err}
}

// revisionError is historyError for a failure to resolve the revision.
func revisionError(err error) error {
	var ue *ports.UnavailableError
	if !errors.As(err, &ue) {
		return err
	}
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return incomplete(ue.Err)
	}
	return &ports.HistoryUnavailableError{Reason: feed.RevisionNotFound, Err: ue.Err}
}

func incomplete(err error) error {
	return &ports.HistoryUnavailableError{Reason: feed.HistoryIncomplete, Err: err}
}

// historyView is one call's ports.History.
type historyView struct {
	h     *History
	repo  *gitrepo.Repository
	rel   string
	comps []string

	head    ports.Commit
	hasHead bool

	// mu serialises use of repo: go-git's storage is not safe for
	// concurrent use.
	mu sync.Mutex
}

// Head is the commit the revision named when the view was opened.
func (v *historyView) Head() (ports.Commit, bool) { return v.head, v.hasHead }

// Dir is the configured ADR directory, cleaned: what feed cursors bind.
func (v *historyView) Dir() string { return v.rel }

// Parent returns c's first parent; see ports.History.
func (v *historyView) Parent(ctx context.Context, c ports.Commit) (ports.Commit, bool, error) {
	h := plumbing.NewHash(c.Hash)
	v.h.mu.Lock()
	info, ok := v.h.commits[h]
	v.h.mu.Unlock()
	if !ok {
		var err error
		if info, err = v.info(ctx, h, nil); err != nil {
			return ports.Commit{}, false, err
		}
	}
	if info.parent.IsZero() {
		return ports.Commit{}, false, nil
	}
	p, err := v.info(ctx, info.parent, nil)
	if err != nil {
		return ports.Commit{}, false, err
	}
	return p.when, true, nil
}

// info returns what commit h says, from the cache or from the object
// database (c, when the caller already decoded it).
func (v *historyView) info(ctx context.Context, h plumbing.Hash, c *object.Commit) (commitInfo, error) {
	v.h.mu.Lock()
	info, ok := v.h.commits[h]
	v.h.mu.Unlock()
	if ok {
		return info, nil
	}
	if err := ctx.Err(); err != nil {
		return commitInfo{}, fmt.Errorf("reading the git history: %w", err)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if c == nil {
		var err error
		if c, err = v.repo.CommitObject(h); err != nil {
			if errors.Is(err, plumbing.ErrObjectNotFound) {
				return commitInfo{}, incomplete(fmt.Errorf("commit %s is missing from the repository (a shallow clone?): %w", h, err))
			}
			return commitInfo{}, fmt.Errorf("reading commit %s: %w", h, err)
		}
	}
	dir, err := v.dirOf(c.TreeHash)
	if err != nil {
		return commitInfo{}, err
	}
	info = commitInfo{dir: dir, when: ports.Commit{Hash: h.String(), Time: c.Committer.When}}
	if len(c.ParentHashes) > 0 {
		info.parent = c.ParentHashes[0]
	}
	if dir.ok {
		info.when.Dir = dir.canon + "\x00" + dir.tree.String()
	}
	v.h.mu.Lock()
	if len(v.h.commits) >= maxCachedCommits {
		v.h.commits = map[plumbing.Hash]commitInfo{}
	}
	v.h.commits[h] = info
	v.h.mu.Unlock()
	return info, nil
}

// dirOf finds the ADR directory in the root tree root. A commit without a
// usable directory there (missing, a file, a symlink out of the tree or
// in a loop, a submodule) simply has no records; only a missing object is
// an error, because a guess would invent changes.
func (v *historyView) dirOf(root plumbing.Hash) (dirAt, error) {
	v.h.mu.Lock()
	d, ok := v.h.dirs[root]
	v.h.mu.Unlock()
	if ok {
		return d, nil
	}
	d, err := v.walkDir(root, 0)
	if err != nil {
		return dirAt{}, err
	}
	if d.viaLink {
		if d, err = v.findDirSlow(root); err != nil {
			return dirAt{}, err
		}
	}
	v.h.mu.Lock()
	if len(v.h.dirs) >= maxCachedCommits {
		v.h.dirs = map[plumbing.Hash]dirAt{}
		v.h.steps = map[stepKey]dirAt{}
	}
	v.h.dirs[root] = d
	v.h.mu.Unlock()
	return d, nil
}

// walkDir follows the directory path from the subtree t at component
// depth, without symlinks; it reports viaLink when one (or a "." or ".."
// component, which relDir never leaves) is on the way.
func (v *historyView) walkDir(t plumbing.Hash, depth int) (dirAt, error) {
	if depth == len(v.comps) {
		return dirAt{tree: t, canon: v.rel, ok: true}, nil
	}
	key := stepKey{t, depth}
	v.h.mu.Lock()
	d, ok := v.h.steps[key]
	v.h.mu.Unlock()
	if ok {
		return d, nil
	}
	tree, err := v.repo.TreeObject(t)
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return dirAt{}, incomplete(missing("tree", t, "the path to the ADR directory", err))
		}
		return dirAt{}, fmt.Errorf("reading tree %s: %w", t, err)
	}
	e, found := entry(tree, v.comps[depth])
	switch {
	case !found:
		d = dirAt{}
	case e.Mode == filemode.Dir:
		if d, err = v.walkDir(e.Hash, depth+1); err != nil {
			return dirAt{}, err
		}
	case e.Mode == filemode.Symlink:
		d = dirAt{viaLink: true}
	default:
		d = dirAt{} // a file or a submodule: no directory here
	}
	v.h.mu.Lock()
	v.h.steps[key] = d
	v.h.mu.Unlock()
	return d, nil
}

// findDirSlow is the Reader's symlink-following lookup over a whole root
// tree.
func (v *historyView) findDirSlow(root plumbing.Hash) (dirAt, error) {
	t, err := v.repo.TreeObject(root)
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return dirAt{}, incomplete(missing("tree", root, "a commit", err))
		}
		return dirAt{}, fmt.Errorf("reading tree %s: %w", root, err)
	}
	dt, canon, err := findDir(v.repo, t, v.rel)
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return dirAt{}, incomplete(err)
		}
		return dirAt{}, nil // no usable directory in this commit
	}
	return dirAt{tree: dt.Hash, canon: canon, ok: true}, nil
}

// Files lists the ADR directory of c; see ports.History.
func (v *historyView) Files(ctx context.Context, c ports.Commit) ([]ports.HistoryFile, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("listing the ADR directory: %w", err)
	}
	info, err := v.info(ctx, plumbing.NewHash(c.Hash), nil)
	if err != nil || !info.dir.ok {
		return nil, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	t, err := v.repo.TreeObject(info.dir.tree)
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, incomplete(missing("tree", info.dir.tree, "the ADR directory of commit "+c.Hash, err))
		}
		return nil, fmt.Errorf("reading tree %s: %w", info.dir.tree, err)
	}
	out := make([]ports.HistoryFile, 0, len(t.Entries))
	seen := make(map[string]bool, len(t.Entries))
	for _, e := range t.Entries {
		if seen[e.Name] || !validName(e.Name) {
			continue
		}
		seen[e.Name] = true
		path := e.Name
		if info.dir.canon != "" {
			path = info.dir.canon + "/" + e.Name
		}
		out = append(out, ports.HistoryFile{
			Entry:  ports.Entry{Name: e.Name, Path: path, Kind: kindOf(e.Mode)},
			Object: e.Hash.String(),
		})
	}
	slices.SortFunc(out, func(a, b ports.HistoryFile) int { return jsstring.Compare(a.Name, b.Name) })
	return out, nil
}

// Read returns the bytes of f; see ports.History.
func (v *historyView) Read(ctx context.Context, f ports.HistoryFile, limit int64) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.Path, err)
	}
	h := plumbing.NewHash(f.Object)
	v.mu.Lock()
	defer v.mu.Unlock()
	size, err := blobSize(v.repo, h)
	if err != nil {
		return nil, blobError(f.Path, h, err)
	}
	if size > limit {
		return nil, readErr(ports.ReadTooLarge, fmt.Errorf("%s has %d bytes, more than %d", f.Path, size, limit))
	}
	data, err := readBlob(v.repo, h, limit)
	if err != nil {
		return nil, blobError(f.Path, h, err)
	}
	return data, nil
}

// blobError makes a missing blob history-incomplete: the record it holds
// cannot be known, so neither can what changed.
func blobError(path string, h plumbing.Hash, err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return incomplete(fmt.Errorf("%s: blob %s is missing from the repository: %w", path, h, err))
	}
	return fmt.Errorf("%s: %w", path, err)
}

package gitrev

import (
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/hash"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/adrkit/adrkit-go/adapters/gitrepo"
	"github.com/adrkit/adrkit-go/domain/corpus"
)

// minShortHash is the shortest abbreviated hash taken as a hash, git's own
// minimum: shorter hex strings are matched as reference names only.
const minShortHash = 4

// resolve returns the commit the revision names now, or the commit it was
// pinned to. Every failure is root-not-found: the configured revision,
// like a configured root path, does not lead to a snapshot.
func (r *Reader) resolve(repo *gitrepo.Repository) (*object.Commit, error) {
	r.mu.Lock()
	pinned := r.pinned
	r.mu.Unlock()
	if !pinned.IsZero() {
		c, err := repo.CommitObject(pinned)
		if err != nil {
			return nil, unavailable(corpus.RootNotFound,
				fmt.Errorf("commit %s, which revision %q resolved to, is no longer in the repository: %w", pinned, r.rev, err))
		}
		return c, nil
	}

	if r.rev == "" {
		return nil, unavailable(corpus.RootNotFound, errors.New("no revision was configured"))
	}
	// go-git, which resolved revisions here before, parsed these forms
	// and then silently ignored them, so "HEAD:docs" or
	// "main@{yesterday}" quietly meant HEAD or main. Neither can occur in
	// a reference name, so refusing them never refuses a real branch or
	// tag.
	if strings.Contains(r.rev, ":") || strings.Contains(r.rev, "@{") {
		return nil, unavailable(corpus.RootNotFound,
			fmt.Errorf("revision %q uses syntax this reader does not support (a reference or hash, then ~n, ^n or ^{/text})", r.rev))
	}

	expr, immutable := r.rev, false
	base, suffix := splitRevision(r.rev)
	if isHex(base) && len(base) >= minShortHash && len(base) <= hash.HexSize && !namesReference(repo, base) {
		h, err := expandHash(repo, base)
		if err != nil {
			return nil, unavailable(corpus.RootNotFound, fmt.Errorf("revision %q: %w", r.rev, err))
		}
		expr, immutable = h.String()+suffix, true
	}

	c, err := resolveRevision(repo, expr)
	if err != nil {
		return nil, unavailable(corpus.RootNotFound, describeResolveError(r.rev, err))
	}
	if immutable {
		r.mu.Lock()
		if r.pinned.IsZero() {
			r.pinned = c.Hash
		}
		r.mu.Unlock()
	}
	return c, nil
}

// errNoParent is a step past the history: HEAD~9 in a shorter history,
// or ^2 of a commit with one parent.
var errNoParent = errors.New("no such parent")

// resolveRevision returns the commit rev names: its base resolved by
// baseCommit, then each step taken in turn.
func resolveRevision(repo *gitrepo.Repository, rev string) (*object.Commit, error) {
	parsed, err := parseRevision(rev)
	if err != nil {
		return nil, err
	}
	c, err := baseCommit(repo, parsed.base)
	if err != nil {
		return nil, err
	}
	for _, s := range parsed.steps {
		switch {
		case s.search != nil:
			if c, err = search(repo, c, s.search, s.negate); err != nil {
				return nil, err
			}
		case s.parent > 0:
			if c, err = parent(repo, c, s.parent); err != nil {
				return nil, err
			}
		default:
			for range s.ancestor {
				if c, err = parent(repo, c, 1); err != nil {
					return nil, err
				}
			}
		}
	}
	return c, nil
}

// baseCommit resolves the start of a revision: a full hash (which the
// caller also makes of every abbreviated one that names no reference)
// names its object, tried before any reference of that name, as git
// does; anything else is a reference name, expanded in git's order
// (as given, refs/, refs/tags/, refs/heads/, refs/remotes/,
// refs/remotes/<name>/HEAD). The object must be a commit or an annotated
// tag of one.
func baseCommit(repo *gitrepo.Repository, name string) (*object.Commit, error) {
	if len(name) == hash.HexSize && isHex(name) {
		if c, ok, err := peel(repo, plumbing.NewHash(name)); ok || err != nil {
			return c, err
		}
	}
	for _, rule := range plumbing.RefRevParseRules {
		ref, err := storer.ResolveReference(repo.Storer, plumbing.ReferenceName(fmt.Sprintf(rule, name)))
		if err != nil {
			continue
		}
		c, ok, err := peel(repo, ref.Hash())
		if !ok && err == nil {
			break
		}
		return c, err
	}
	return nil, plumbing.ErrReferenceNotFound
}

// peel returns the commit h is, or the commit the annotated tag h points
// at; ok is false when h is neither a commit nor a tag. A tag whose
// target is not a readable commit is an error.
func peel(repo *gitrepo.Repository, h plumbing.Hash) (*object.Commit, bool, error) {
	if c, err := repo.CommitObject(h); err == nil {
		return c, true, nil
	}
	tag, err := repo.TagObject(h)
	if err != nil {
		return nil, false, nil
	}
	c, err := tag.Commit()
	if err != nil {
		return nil, true, fmt.Errorf("reading the commit tag %s points at: %w", h, err)
	}
	return c, true, nil
}

// parent returns the nth parent of c (n >= 1).
func parent(repo *gitrepo.Repository, c *object.Commit, n int) (*object.Commit, error) {
	if n > len(c.ParentHashes) {
		return nil, errNoParent
	}
	p, err := repo.CommitObject(c.ParentHashes[n-1])
	if err != nil {
		return nil, fmt.Errorf("reading parent %s of commit %s: %w", c.ParentHashes[n-1], c.Hash, err)
	}
	return p, nil
}

// search returns the first commit, in go-git's pre-order walk of the
// history from c, whose message matches re (or, negate, does not).
func search(repo *gitrepo.Repository, c *object.Commit, re *regexp.Regexp, negate bool) (*object.Commit, error) {
	var found *object.Commit
	err := object.NewCommitPreorderIter(c, nil, nil).ForEach(func(hc *object.Commit) error {
		if re.MatchString(hc.Message) != negate {
			found = hc
			return storer.ErrStop
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("searching the history from %s: %w", c.Hash, err)
	}
	if found == nil {
		return nil, fmt.Errorf("no commit message match regexp: %q", re.String())
	}
	return found, nil
}

// describeResolveError words a resolution failure for diagnostics.
func describeResolveError(rev string, err error) error {
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		return fmt.Errorf("revision %q not found", rev)
	case errors.Is(err, errNoParent):
		return fmt.Errorf("revision %q names a parent or ancestor that the history does not have", rev)
	case errors.Is(err, plumbing.ErrObjectNotFound):
		return fmt.Errorf("revision %q needs a commit that is missing from the repository (a shallow clone?): %w", rev, err)
	}
	return fmt.Errorf("resolving revision %q: %w", rev, err)
}

// splitRevision splits rev into the reference or hash it starts from and
// the navigation that follows (~n, ^n, ^{...}).
func splitRevision(rev string) (base, suffix string) {
	if i := strings.IndexAny(rev, "~^"); i >= 0 {
		return rev[:i], rev[i:]
	}
	return rev, ""
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// namesReference reports whether name is the short or full name of a
// reference, by the rules git uses to expand a revision. A hex
// string that names a reference is treated as the reference: it can move.
func namesReference(repo *gitrepo.Repository, name string) bool {
	for _, rule := range plumbing.RefRevParseRules {
		if _, err := repo.Storer.Reference(plumbing.ReferenceName(fmt.Sprintf(rule, name))); err == nil {
			return true
		}
	}
	return false
}

// hashLister is implemented by go-git's filesystem object storage.
type hashLister interface {
	HashesWithPrefix(prefix []byte) ([]plumbing.Hash, error)
}

// expandHash finds the one commit or tag whose hash starts with prefix.
// Taking the first match would make a pinned answer depend on the order
// the storage lists objects in, so more than one candidate is an error,
// as it is for git.
func expandHash(repo *gitrepo.Repository, prefix string) (plumbing.Hash, error) {
	prefix = strings.ToLower(prefix)
	if len(prefix) == hash.HexSize {
		return plumbing.NewHash(prefix), nil
	}
	hl, ok := repo.Storer.(hashLister)
	if !ok {
		return plumbing.ZeroHash, fmt.Errorf("this repository's storage cannot expand the abbreviated hash %q", prefix)
	}
	// HashesWithPrefix matches whole bytes; the odd last digit is checked
	// on the hex form.
	raw, err := hex.DecodeString(prefix[:len(prefix)&^1])
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("decoding the abbreviated hash %q: %w", prefix, err)
	}
	hashes, err := hl.HashesWithPrefix(raw)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("expanding the abbreviated hash %q: %w", prefix, err)
	}
	var found []plumbing.Hash
	for _, h := range hashes {
		if strings.HasPrefix(h.String(), prefix) && committish(repo, h) {
			found = append(found, h)
		}
	}
	switch len(found) {
	case 0:
		return plumbing.ZeroHash, fmt.Errorf("no commit or tag has a hash starting with %q", prefix)
	case 1:
		return found[0], nil
	}
	names := make([]string, len(found))
	for i, h := range found {
		names[i] = h.String()
	}
	// The storage lists objects in directory order; the message should
	// not depend on it.
	slices.Sort(names)
	return plumbing.ZeroHash, fmt.Errorf("the abbreviated hash %q is ambiguous: %s", prefix, strings.Join(names, ", "))
}

// committish reports whether h is a commit or a tag of one.
func committish(repo *gitrepo.Repository, h plumbing.Hash) bool {
	if _, err := repo.CommitObject(h); err == nil {
		return true
	}
	tag, err := repo.TagObject(h)
	if err != nil {
		return false
	}
	_, err = tag.Commit()
	return err == nil
}

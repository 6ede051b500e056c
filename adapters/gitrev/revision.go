package gitrev

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/hash"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/adrkit/adrkit-go/domain/corpus"
)

// minShortHash is the shortest abbreviated hash taken as a hash, git's own
// minimum: shorter hex strings are matched as reference names only.
const minShortHash = 4

// resolve returns the commit the revision names now, or the commit it was
// pinned to. Every failure is root-not-found: the configured revision,
// like a configured root path, does not lead to a snapshot.
func (r *Reader) resolve(repo *git.Repository) (*object.Commit, error) {
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
	// go-git parses these forms but ResolveRevision silently ignores
	// them, so "HEAD:docs" or "main@{yesterday}" would quietly mean HEAD
	// or main. Neither can occur in a reference name, so refusing them
	// never refuses a real branch or tag.
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

	h, err := repo.ResolveRevision(plumbing.Revision(expr))
	if err != nil {
		return nil, unavailable(corpus.RootNotFound, describeResolveError(r.rev, err))
	}
	c, err := repo.CommitObject(*h)
	if err != nil {
		return nil, unavailable(corpus.RootNotFound,
			fmt.Errorf("revision %q resolved to commit %s, which cannot be read: %w", r.rev, h, err))
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

// describeResolveError words a go-git resolution failure for diagnostics.
func describeResolveError(rev string, err error) error {
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		return fmt.Errorf("revision %q not found", rev)
	case errors.Is(err, io.EOF):
		// go-git's parent iterator runs dry: HEAD~9 in a shorter
		// history, or ^2 of a commit with one parent.
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
// reference, by the rules git and go-git use to expand a revision. A hex
// string that names a reference is treated as the reference: it can move.
func namesReference(repo *git.Repository, name string) bool {
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
// go-git itself takes the first match, whichever it is; a pinned answer
// must not depend on that, so more than one candidate is an error, as it
// is for git.
func expandHash(repo *git.Repository, prefix string) (plumbing.Hash, error) {
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
func committish(repo *git.Repository, h plumbing.Hash) bool {
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

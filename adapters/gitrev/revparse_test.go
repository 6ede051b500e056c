package gitrev

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/adrkit/adrkit-go/adapters/gitrepo"
)

func TestParseRevision(t *testing.T) {
	tests := []struct {
		rev   string
		base  string
		steps string // each step: ~n, ^n, /re or !re (negated); ^0 for a no-op
	}{
		{"HEAD", "HEAD", ""},
		{"main", "main", ""},
		{"refs/heads/feature/x", "refs/heads/feature/x", ""},
		{"v1.0.0-rc.1", "v1.0.0-rc.1", ""},
		{"naïve_ünïcode,ok", "naïve_ünïcode,ok", ""},
		{"@", "HEAD", ""},
		{"@~2", "HEAD", "~2"},
		{"HEAD~", "HEAD", "~1"},
		{"HEAD~0", "HEAD", "^0"},
		{"HEAD~12", "HEAD", "~12"},
		{"HEAD^", "HEAD", "^1"},
		{"HEAD^0", "HEAD", "^0"},
		{"HEAD^2", "HEAD", "^2"},
		{"HEAD^^~3^2", "HEAD", "^1 ^1 ~3 ^2"},
		{"HEAD^{/fix: the bug}", "HEAD", "/fix: the bug"},
		{"HEAD^{/a/b}~1", "HEAD", "/a/b ~1"},
		{"HEAD^{/!-wip}", "HEAD", "!wip"},
		{"HEAD^{/!!bang}", "HEAD", "/!bang"},
		{"v2^{}", "v2", ""},
		{"v2^{commit}~1", "v2", "~1"},
		{"v2^{tree}", "v2", ""},
		{"HEAD^{/}", "HEAD", ""},
	}
	for _, tc := range tests {
		t.Run(tc.rev, func(t *testing.T) {
			r, err := parseRevision(tc.rev)
			if err != nil {
				t.Fatal(err)
			}
			var steps []string
			for _, s := range r.steps {
				switch {
				case s.search != nil && s.negate:
					steps = append(steps, "!"+s.search.String())
				case s.search != nil:
					steps = append(steps, "/"+s.search.String())
				case s.ancestor > 0:
					steps = append(steps, "~"+strconv.Itoa(s.ancestor))
				default:
					steps = append(steps, "^"+strconv.Itoa(s.parent))
				}
			}
			if r.base != tc.base || strings.Join(steps, " ") != tc.steps {
				t.Errorf("parsed %q %q, want %q %q", r.base, strings.Join(steps, " "), tc.base, tc.steps)
			}
		})
	}
}

func TestParseRevisionRefuses(t *testing.T) {
	for _, rev := range []string{
		"~1", "^", "^{/x}", // no reference
		"main@", "@main", "a@b", "@@", // "@" is HEAD on its own only
		"HEAD~1x", "HEAD^3", "HEAD^{/x", "HEAD^{bogus}", "HEAD^{/!x}", "HEAD^{/(}",
		"HEAD~99999999999999999999",
		"a b", "a\tb", "a\\b", "a?", "a*", "a[b", "a\x01b",
		".hidden", "/abs", "dir/", "end.", "a/.b", "a..b", "a//b", "x.lock", "x.lock/y",
	} {
		t.Run(rev, func(t *testing.T) {
			if r, err := parseRevision(rev); !errors.Is(err, errSyntax) {
				t.Errorf("parsed as %+v, %v; want a syntax error", r, err)
			}
		})
	}
}

// Every revision go-git resolved, this package resolves to the same
// commit, and what go-git refused is refused.
func TestResolveRevisionAsGoGit(t *testing.T) {
	h := newHistory(t, false)
	h.SetRef(plumbing.NewRemoteReferenceName("origin", "main"), h.c[3])
	h.SetRef(plumbing.NewRemoteReferenceName("origin", "HEAD"), h.c[2])
	merge := h.MergeOn("main", "merge feature\n", h.feature, filesOf(4)...)
	ours, err := gitrepo.Open(h.Root())
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := git.PlainOpen(h.Root())
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range []string{
		"HEAD", "@", "main", "heads/main", "refs/heads/main", "feature", "v1.0.0", "tags/v1.0.0",
		"v2.0.0", "v2.0.0^{}", "v2.0.0^{commit}", "origin/main", "remotes/origin/main", "origin",
		"HEAD~1", "HEAD^", "HEAD^1", "HEAD^2", "HEAD^2~1", "HEAD^0", "HEAD~0", "@~2", "main~3^",
		"HEAD^{/commit 0002}", "HEAD^{/!-commit}", "HEAD^{/^feature$}", "v2.0.0^{/0001}~0",
		h.c[2].String(), h.tagObject.String(), merge.String() + "^2",
		"HEAD~9", "HEAD^^2", "nope", "refs/nope", "HEAD^{/never said}", "feature^2",
		strings.Repeat("0", 40), "HEAD^{bogus}", "a..b", "HEAD^3",
	} {
		t.Run(rev, func(t *testing.T) {
			want, wantErr := theirs.ResolveRevision(plumbing.Revision(rev))
			got, err := resolveRevision(ours, rev)
			switch {
			case wantErr != nil && err == nil:
				t.Errorf("resolved to %s; go-git: %v", got.Hash, wantErr)
			case wantErr == nil && err != nil:
				t.Errorf("%v; go-git resolved it to %s", err, want)
			case err == nil && got.Hash != *want:
				t.Errorf("resolved to %s; go-git to %s", got.Hash, want)
			}
		})
	}
}

// Where go-git differed from git, git's rule holds, as revision.go says:
// hex of fewer than four digits, or hex that names a reference, is a
// reference name and never a hash prefix.
func TestShortHexIsAReferenceName(t *testing.T) {
	h := newHistory(t, false)
	repo, err := gitrepo.Open(h.Root())
	if err != nil {
		t.Fatal(err)
	}
	three := h.c[2].String()[:3]
	if c, err := resolveRevision(repo, three); !errors.Is(err, plumbing.ErrReferenceNotFound) {
		t.Errorf("%s resolved to %v, %v; a three-digit prefix is not a hash", three, c, err)
	}
	// A branch named like the start of another commit's hash.
	four := h.c[2].String()[:4]
	h.SetRef(plumbing.NewBranchReferenceName(four), h.c[1])
	r := New(h.Root(), "docs/adr", four)
	equalNames(t, "a branch named like a hash prefix", topNames(t, r), upTo(1))
}

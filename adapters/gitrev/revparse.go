package gitrev

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// revision is a parsed revision: where it starts and how it moves from
// there. It is the syntax go-git's ResolveRevision accepted, which this
// package used before it stopped importing go-git's root package (see
// the package gitrepo): a reference name or a hash, or "@" for HEAD, then
// any number of ~n, ^n (n at most 2), ^{/regexp} and ^{type} steps.
type revision struct {
	base  string
	steps []revStep
}

// revStep is one navigation step. Exactly one of its forms is set.
type revStep struct {
	// parent is n of ^n: the nth parent, the commit itself for 0.
	parent int
	// ancestor is n of ~n: the first parent, n times.
	ancestor int
	// search is the regexp of ^{/regexp}: the newest commit reachable
	// whose message matches it (or, negate, does not).
	search *regexp.Regexp
	negate bool
}

// errSyntax marks a revision that cannot be parsed.
var errSyntax = errors.New("invalid revision")

func syntaxError(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errSyntax}, a...)...)
}

// parseRevision parses rev. The @{...} and <rev>:<path> forms are
// refused by the caller before parsing, as they were when go-git parsed
// them and then ignored them.
func parseRevision(rev string) (revision, error) {
	var r revision
	i := strings.IndexAny(rev, "~^@:")
	if i < 0 {
		i = len(rev)
	}
	r.base, rev = rev[:i], rev[i:]
	switch {
	case r.base == "" && strings.HasPrefix(rev, "@"):
		r.base, rev = "HEAD", rev[1:]
	case r.base == "":
		return r, syntaxError("%q must follow a reference or a hash", rev[:1])
	default:
		if err := checkRefFormat(r.base); err != nil {
			return r, err
		}
	}
	for rev != "" {
		var step revStep
		var err error
		switch rev[0] {
		case '~':
			step.ancestor, rev, err = count(rev[1:])
		case '^':
			if strings.HasPrefix(rev, "^{") {
				var ignored bool
				step, rev, ignored, err = parseBraces(rev[2:])
				if err == nil && ignored {
					continue
				}
				break
			}
			step.parent, rev, err = count(rev[1:])
			if err == nil && step.parent > 2 {
				err = syntaxError("^%d: the parent after \"^\" must be 0, 1 or 2", step.parent)
			}
		default:
			err = syntaxError("%q: the reference must come once, at the beginning", rev)
		}
		if err != nil {
			return r, err
		}
		r.steps = append(r.steps, step)
	}
	return r, nil
}

// count reads the decimal number that may follow ~ or ^ (1 when there is
// none) and returns it with the rest of s.
func count(s string) (int, string, error) {
	end := 0
	for end < len(s) && '0' <= s[end] && s[end] <= '9' {
		end++
	}
	if end == 0 {
		return 1, s, nil
	}
	n, err := strconv.Atoi(s[:end])
	if err != nil {
		return 0, s, syntaxError("%q is not a usable count", s[:end])
	}
	return n, s[end:], nil
}

// parseBraces parses what follows "^{": "/regexp}" (its "/!-" prefix
// negates, "/!!" stands for a literal "!"), or an object type ("commit",
// "tree", "blob", "tag", "object", or nothing), which is ignored:
// every revision resolves to a commit here, as it did with go-git.
func parseBraces(s string) (step revStep, rest string, ignored bool, err error) {
	body, rest, ok := strings.Cut(s, "}")
	if !ok {
		return step, s, false, syntaxError(`missing "}" after "^{"`)
	}
	switch body {
	case "", "commit", "tree", "blob", "tag", "object":
		return step, rest, true, nil
	}
	if !strings.HasPrefix(body, "/") {
		return step, rest, false, syntaxError("%q is not a valid ^{...} form", body)
	}
	re := strings.TrimLeft(body, "/")
	switch {
	case re == "":
		return step, rest, true, nil
	case strings.HasPrefix(re, "!-"):
		step.negate, re = true, re[2:]
	case strings.HasPrefix(re, "!!"):
		re = re[1:]
	case strings.HasPrefix(re, "!"):
		return step, rest, false, syntaxError(`^{/!...} is reserved except for "/!-" and "/!!"`)
	}
	if step.search, err = regexp.Compile(re); err != nil {
		return step, rest, false, syntaxError("^{/%s}: %w", re, err)
	}
	return step, rest, false, nil
}

// checkRefFormat applies the rules of git check-ref-format that go-git's
// parser applied to the reference part of a revision.
func checkRefFormat(ref string) error {
	for _, c := range ref {
		if c == '\\' || c == '?' || c == '*' || c == '[' || unicode.IsSpace(c) || unicode.IsControl(c) {
			return syntaxError("%q must not contain %q", ref, c)
		}
	}
	switch {
	case strings.HasPrefix(ref, ".") || strings.HasPrefix(ref, "/"):
		return syntaxError("%q must not start with %q", ref, ref[:1])
	case strings.HasSuffix(ref, "/") || strings.HasSuffix(ref, "."):
		return syntaxError("%q must not end with %q", ref, ref[len(ref)-1:])
	case strings.Contains(ref, "/."), strings.Contains(ref, ".."), strings.Contains(ref, "//"):
		return syntaxError(`%q must not contain "/.", ".." or "//"`, ref)
	case strings.HasSuffix(ref, ".lock") || strings.Contains(ref, ".lock/"):
		return syntaxError(`%q: no component may end with ".lock"`, ref)
	}
	return nil
}

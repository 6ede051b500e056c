package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// Input limits of the contract (mcp-server.md §1.4). Lengths count UTF-16
// code units, as the reference's schema library does.
const (
	maxCursorLen = 4096
	maxQueryLen  = 256
	maxRefLen    = 128
	maxTagLen    = 64
	maxFileLen   = 1024

	minLimit = 1
	maxLimit = 100

	maxStatusItems = 6
	maxTagItems    = 32
	maxScopeItems  = 3
	maxFileItems   = 256
)

// issue is one reason an argument set was refused. Path is the argument
// (with element index, "files.2"), or "" for an issue about the whole set.
type issue struct {
	path string
	msg  string
}

func (i issue) String() string {
	if i.path == "" {
		return i.msg
	}
	return i.path + ": " + i.msg
}

// The element and value rules below return plain messages (our wording);
// callers attach the argument path. They run on well-typed values only:
// type mismatches are reported by the JSON layer before a rule sees them.

func checkQuery(q string) []string {
	n := jsstring.Len(q)
	switch {
	case n == 0:
		return []string{"must not be empty"}
	case n > maxQueryLen:
		return []string{fmt.Sprintf("must be at most %d characters (UTF-16 code units), got %d", maxQueryLen, n)}
	case jsstring.TrimSpace(q) == "":
		return []string{"must not be blank (it holds only whitespace)"}
	}
	return nil
}

func checkRef(r string) []string {
	var out []string
	if !adr.ValidRef(r) {
		out = append(out, "must be an ADR id such as \"0042\" (four or more digits, or a 26-character ULID), optionally prefixed with a lower-case log name as in \"payments:0042\", got "+show(r))
	}
	if n := jsstring.Len(r); n > maxRefLen {
		out = append(out, fmt.Sprintf("must be at most %d characters (UTF-16 code units), got %d", maxRefLen, n))
	}
	return out
}

func checkCursor(c string) []string {
	if n := jsstring.Len(c); n > maxCursorLen {
		return []string{fmt.Sprintf("must be at most %d characters (UTF-16 code units), got %d", maxCursorLen, n)}
	}
	return nil
}

func checkTag(t string) []string {
	n := jsstring.Len(t)
	switch {
	case n == 0:
		return []string{"must not be empty"}
	case n > maxTagLen:
		return []string{fmt.Sprintf("must be at most %d characters (UTF-16 code units), got %d", maxTagLen, n)}
	}
	return nil
}

func checkFile(f string) []string {
	n := jsstring.Len(f)
	switch {
	case n == 0:
		return []string{"must not be empty"}
	case n > maxFileLen:
		return []string{fmt.Sprintf("must be at most %d characters (UTF-16 code units), got %d", maxFileLen, n)}
	case !safePath(f):
		return []string{"must be a repository-relative POSIX path without a backslash, a leading \"/\", a drive prefix such as \"C:\" or a \"..\" segment, got " + show(f)}
	}
	return nil
}

// checkArgFile is checkFile for a command-line argument: any path but
// the empty one, which names no file.
func checkArgFile(f string) []string {
	if f == "" {
		return []string{"must not be empty"}
	}
	return nil
}

// safePath is the contract's "safe POSIX path": "." and empty segments
// are fine, a ".." segment is not, whatever follows it.
func safePath(f string) bool {
	if strings.ContainsRune(f, '\\') || strings.HasPrefix(f, "/") {
		return false
	}
	if len(f) >= 2 && f[1] == ':' && isASCIILetter(f[0]) {
		return false
	}
	for seg := range strings.SplitSeq(f, "/") {
		if seg == ".." {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

var (
	statusList = joinEnum(adr.Statuses)
	scopeList  = joinEnum(adr.Scopes)
)

func joinEnum[T ~string](vals []T) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = strconv.Quote(string(v))
	}
	return strings.Join(parts, ", ")
}

func checkStatus(s string) []string {
	if slices.Contains(adr.Statuses, adr.Status(s)) {
		return nil
	}
	return []string{"must be one of " + statusList + ", got " + show(s)}
}

func checkScope(s string) []string {
	if slices.Contains(adr.Scopes, adr.Scope(s)) {
		return nil
	}
	return []string{"must be one of " + scopeList + ", got " + show(s)}
}

func checkCount(n, lo, hi int) []string {
	if n < lo || n > hi {
		return []string{fmt.Sprintf("must hold %d to %d values, got %d", lo, hi, n)}
	}
	return nil
}

// checkUnique compares values as the reference does, by their JSON
// encoding; for strings that is equality of the decoded text.
func checkUnique(vals []string) []string {
	seen := make(map[string]bool, len(vals))
	for _, v := range vals {
		if seen[v] {
			return []string{"values must be unique, but " + show(v) + " is repeated"}
		}
		seen[v] = true
	}
	return nil
}

// show quotes a value for a message, shortened so that a huge argument
// does not flood the answer.
func show(s string) string {
	const max = 40
	if jsstring.Len(s) > max {
		s = jsstring.Truncate(s, max) + "…"
	}
	return string(jsvalue.AppendString(nil, s))
}

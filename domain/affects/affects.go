// Package affects resolves a record's affects matchers against a list of
// repository-relative file paths.
//
// Only path matchers can fire in this server: package, entity, resource,
// api and data matchers need snapshots (changed dependencies, a catalog)
// that get_decision_context never has, so they are reported as inert on
// every call instead.
package affects

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/glob"
	"github.com/adrkit/adrkit-go/domain/jsstring"
	"github.com/adrkit/adrkit-go/domain/semver"
)

// Rule ids of the derived findings.
const (
	RuleBadPattern   = "affects-bad-pattern"
	RuleUnresolvable = "affects-unresolvable"
	RuleUnknownType  = "affects-unknown-type"
)

// Resolution is what one record's matchers did for one file list.
type Resolution struct {
	// Fired lists the matchers that matched, de-duplicated by (type,
	// pattern) and ordered by type then pattern in ICU root collation.
	Fired []adr.FiredMatcher
	// Suppressed is true when a negated matcher matched: the record is
	// then not a match at all.
	Suppressed bool
	// Findings are the derived findings (affects-bad-pattern,
	// affects-unresolvable), one per offending matcher, emitted whether or
	// not anything matched.
	Findings []adr.Finding
}

// Matched reports whether the record is a context match.
func (r Resolution) Matched() bool { return len(r.Fired) > 0 && !r.Suppressed }

// Resolve evaluates rec's matchers against files. To resolve many
// records against the same files, use a Resolver.
func Resolve(rec *adr.Record, files []string) Resolution {
	return NewResolver(files).Resolve(rec)
}

// Resolver resolves records against one file list, as
// get_decision_context does for every record of a call: the files are
// normalised once, and each distinct path pattern is matched and each
// package pattern checked once however many records repeat it, so a call
// costs one glob evaluation per distinct pattern rather than per record
// (package patterns are checked once per process: see
// cachedPackageProblem).
// A Resolver is not safe for concurrent use.
type Resolver struct {
	files []string
	norm  []candidate // files normalised, computed on first use
	paths map[string]pathOutcome
}

// pathOutcome is what one path pattern does against the files: a problem
// that makes it inert (a finding), or whether it matched.
type pathOutcome struct {
	problem string
	matched bool
}

// NewResolver returns a Resolver for files.
func NewResolver(files []string) *Resolver {
	return &Resolver{files: files, paths: map[string]pathOutcome{}}
}

// Resolve evaluates rec's matchers against the Resolver's files.
func (rs *Resolver) Resolve(rec *adr.Record) Resolution {
	var res Resolution
	if rec == nil || rec.Frontmatter == nil {
		return res
	}
	r := resolver{rec: rec, rs: rs}
	for _, m := range rec.Frontmatter.Affects {
		if m.Repo != "" {
			// Qualified by another log: not this server's business.
			continue
		}
		if !r.evaluate(m, &res) {
			continue
		}
		if m.Negate {
			res.Suppressed = true
			continue
		}
		// A record has a handful of matchers: a linear check beats a map.
		fm := adr.FiredMatcher{Type: m.Type, Pattern: m.Pattern}
		if !slices.Contains(res.Fired, fm) {
			res.Fired = append(res.Fired, fm)
		}
	}
	SortFired(res.Fired)
	return res
}

type resolver struct {
	rec *adr.Record
	rs  *Resolver
}

type candidate struct {
	path string
	// dot is true when a segment starts with "." (other than "." and "..").
	dot bool
}

// evaluate reports whether m matched, appending its finding if it has one.
func (r *resolver) evaluate(m adr.Matcher, res *Resolution) bool {
	switch m.Type {
	case adr.MatcherPath:
		return r.path(m, res)
	case adr.MatcherPackage:
		if msg := cachedPackageProblem(m.Pattern); msg != "" {
			r.finding(res, m, RuleBadPattern, adr.SeverityWarn, msg)
			return false
		}
		r.finding(res, m, RuleUnresolvable, adr.SeverityInfo, fmt.Sprintf(
			"package matcher %s cannot be checked here: it needs a snapshot of changed dependencies, which get_decision_context does not have", quote(m.Pattern)))
	case adr.MatcherEntity:
		r.finding(res, m, RuleUnresolvable, adr.SeverityInfo, fmt.Sprintf(
			"entity matcher %s cannot be checked here: it needs a catalog snapshot, which get_decision_context does not have", quote(m.Pattern)))
	case adr.MatcherResource, adr.MatcherAPI, adr.MatcherData:
		r.finding(res, m, RuleUnresolvable, adr.SeverityInfo, fmt.Sprintf(
			"%s matcher %s cannot be checked here: this server has no %s snapshot to match it against", m.Type, quote(m.Pattern), m.Type))
	default:
		r.finding(res, m, RuleUnknownType, adr.SeverityWarn, fmt.Sprintf(
			"affects matcher type %s is not known to this server; the matcher was ignored", quote(string(m.Type))))
	}
	return false
}

func (r *resolver) path(m adr.Matcher, res *Resolution) bool {
	out, ok := r.rs.paths[m.Pattern]
	if !ok {
		out = r.rs.matchPath(m.Pattern)
		r.rs.paths[m.Pattern] = out
	}
	if out.problem != "" {
		r.finding(res, m, RuleBadPattern, adr.SeverityWarn, out.problem)
		return false
	}
	return out.matched
}

// matchPath decides what path pattern does against the files.
func (rs *Resolver) matchPath(pattern string) pathOutcome {
	if strings.HasPrefix(pattern, "/") {
		return pathOutcome{problem: fmt.Sprintf(
			"path matcher %s starts with \"/\"; affects paths are relative to the repository root, so it can never match", quote(pattern))}
	}
	g, err := compile(pattern)
	if err != nil {
		msg := fmt.Sprintf("path matcher %s is not a glob this server can compile, so it can never match", quote(pattern))
		if errors.Is(err, glob.ErrTooLong) {
			msg = fmt.Sprintf("path matcher is %d UTF-16 code units long; globs are limited to %d, so it can never match",
				jsstring.Len(pattern), glob.MaxPatternLength)
		}
		return pathOutcome{problem: msg}
	}
	// A file inside a dot directory (or a dotfile) only matches a pattern
	// that spells such a segment itself: "**/*" must not reach
	// ".github/...", while ".github/**" and "**/.env" do.
	allowsDot := hasDotSegment(pattern)
	for _, c := range rs.candidates() {
		if (!c.dot || allowsDot) && g.Match(c.path) {
			return pathOutcome{matched: true}
		}
	}
	return pathOutcome{}
}

func (rs *Resolver) candidates() []candidate {
	if rs.norm == nil {
		rs.norm = make([]candidate, len(rs.files))
		for i, f := range rs.files {
			p := NormalizePath(f)
			rs.norm[i] = candidate{path: p, dot: hasDotSegment(p)}
		}
	}
	return rs.norm
}

func (r *resolver) finding(res *Resolution, m adr.Matcher, rule string, sev adr.Severity, msg string) {
	res.Findings = append(res.Findings, adr.Finding{
		Rule:     rule,
		Severity: sev,
		Message:  msg,
		ID:       r.rec.Frontmatter.ID,
		Path:     r.rec.SourcePath,
		Field:    "affects." + string(m.Type),
		Pattern:  m.Pattern,
	})
}

// NormalizePath is how a supplied file path is prepared for matching:
// backslashes become slashes, then one leading "./" is dropped.
func NormalizePath(f string) string {
	return strings.TrimPrefix(strings.ReplaceAll(f, `\`, "/"), "./")
}

// hasDotSegment reports a "/"-separated segment that starts with "." and
// is neither "." nor "..".
func hasDotSegment(s string) bool {
	for seg := range strings.SplitSeq(s, "/") {
		if strings.HasPrefix(seg, ".") && seg != "." && seg != ".." {
			return true
		}
	}
	return false
}

// packageProblem explains why a package pattern is malformed, or returns
// "". The pattern is "name" or "name@range", split at the last "@" so
// that scoped names ("@scope/pkg@^2") work.
func packageProblem(p string) string {
	name, rng, hasRange := p, "", false
	if k := strings.LastIndexByte(p, '@'); k > 0 {
		name, rng, hasRange = p[:k], jsstring.TrimSpace(p[k+1:]), true
	}
	switch {
	case jsstring.TrimSpace(name) == "":
		return fmt.Sprintf("package matcher %s has no package name before the \"@\"", quote(p))
	case hasRange && rng == "":
		return fmt.Sprintf("package matcher %s has nothing after the \"@\"; give a semver range or drop the \"@\"", quote(p))
	case hasRange && !semver.ValidRange(rng):
		return fmt.Sprintf("package matcher %s has %s after the \"@\", which is not a valid semver range", quote(p), quote(rng))
	}
	return ""
}

// quote renders a pattern for a message, shortening very long ones (the
// finding's pattern member carries it in full).
func quote(s string) string {
	const max = 200
	if jsstring.Len(s) > max {
		s = jsstring.Truncate(s, max) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// SortFired orders fired matchers by type, then pattern, in ICU root
// collation (what the reference's localeCompare gives): "_x/**" before
// "src/*.ts" before "src/**" before "Src/**". The sort is stable, so
// patterns that collate equal keep their first-occurrence order.
func SortFired(fired []adr.FiredMatcher) {
	if len(fired) < 2 {
		return
	}
	c := collators.Get().(*collate.Collator)
	defer collators.Put(c)
	slices.SortStableFunc(fired, func(a, b adr.FiredMatcher) int {
		if n := c.CompareString(string(a.Type), string(b.Type)); n != 0 {
			return n
		}
		return c.CompareString(a.Pattern, b.Pattern)
	})
}

// A Collator keeps scratch buffers, so each goroutine borrows its own.
var collators = sync.Pool{New: func() any { return collate.New(language.Und) }}

// The compile cache: Resolve runs for every record on every call, and the
// same patterns recur across records and calls. It is bounded in entries
// and in total pattern length (a long pattern compiles to a large
// program) by clearing it when full, which only ever costs recompiling.
const (
	cacheLimit       = 4096
	cacheWeightLimit = 1 << 19
)

type compiled struct {
	g   *glob.Glob
	err error
}

var cache = struct {
	sync.Mutex
	m      map[string]compiled
	weight int
}{m: map[string]compiled{}}

func compile(pattern string) (*glob.Glob, error) {
	cache.Lock()
	c, ok := cache.m[pattern]
	cache.Unlock()
	if ok {
		return c.g, c.err
	}
	g, err := glob.Compile(pattern)
	cache.Lock()
	if len(cache.m) >= cacheLimit || cache.weight+len(pattern) > cacheWeightLimit {
		clear(cache.m)
		cache.weight = 0
	}
	if len(pattern) <= cacheWeightLimit {
		cache.m[pattern] = compiled{g: g, err: err}
		cache.weight += len(pattern)
	}
	cache.Unlock()
	return g, err
}

// The package-pattern cache: checking a range runs node-semver's regular
// expressions, and the same few patterns recur across records and calls.
// Bounded like the compile cache.
var pkgProblems = struct {
	sync.Mutex
	m      map[string]string
	weight int
}{m: map[string]string{}}

// cachedPackageProblem is packageProblem, remembered.
func cachedPackageProblem(pattern string) string {
	pkgProblems.Lock()
	msg, ok := pkgProblems.m[pattern]
	pkgProblems.Unlock()
	if ok {
		return msg
	}
	msg = packageProblem(pattern)
	pkgProblems.Lock()
	if len(pkgProblems.m) >= cacheLimit || pkgProblems.weight+len(pattern) > cacheWeightLimit {
		clear(pkgProblems.m)
		pkgProblems.weight = 0
	}
	if len(pattern) <= cacheWeightLimit {
		pkgProblems.m[pattern] = msg
		pkgProblems.weight += len(pattern)
	}
	pkgProblems.Unlock()
	return msg
}

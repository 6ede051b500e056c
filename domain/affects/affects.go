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

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/glob"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/js/semver"
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

// Resolver resolves records against one file list, as
// get_decision_context does for every record of a call: the files are
// normalised once, and each distinct path pattern is matched once
// however many records repeat it, so a call costs one glob evaluation per
// distinct pattern rather than per record. What a pattern alone decides
// (Compile) comes from the compile function it was given, which a caller
// may memoise across calls. A Resolver is not safe for concurrent use.
type Resolver struct {
	files   []string
	compile CompileFunc
	norm    []candidate // files normalised, computed on first use
	paths   map[string]pathOutcome
	coll    *collate.Collator // made on first use: see sortFired
}

// pathOutcome is what one path pattern does against the files: a problem
// that makes it inert (a finding), or whether it matched.
type pathOutcome struct {
	problem string
	matched bool
}

// NewResolver returns a Resolver for files that learns what a pattern
// alone decides from compile (nil: Compile itself).
func NewResolver(files []string, compile CompileFunc) *Resolver {
	if compile == nil {
		compile = Compile
	}
	// Sized for a corpus's worth of distinct patterns, so that a call
	// seldom grows it.
	return &Resolver{files: files, compile: compile, paths: make(map[string]pathOutcome, 64)}
}

// CompileFunc is Compile, or a memo of it.
type CompileFunc func(typ adr.MatcherType, pattern string) Compiled

// Compiled is what one matcher decides on its pattern alone, whatever
// the files: for a path pattern, its compiled glob or why it can never
// match; for any other type, the finding it raises on every call.
type Compiled struct {
	glob *glob.Glob
	// allowsDot: a file inside a dot directory (or a dotfile) only
	// matches a pattern that spells such a segment itself: "**/*" must
	// not reach ".github/...", while ".github/**" and "**/.env" do.
	allowsDot bool
	// finding, when its rule is set, is the finding the matcher raises.
	finding inert
}

// Compile works out what a matcher of type typ with pattern decides on
// its own. It is a pure function of its arguments: compiling a glob and
// checking a package range cost far more than matching, so a caller that
// resolves the same patterns call after call keeps its results (the app
// does, per Service).
func Compile(typ adr.MatcherType, pattern string) Compiled {
	if typ != adr.MatcherPath {
		return Compiled{finding: inertFinding(typ, pattern)}
	}
	if strings.HasPrefix(pattern, "/") {
		return Compiled{finding: inert{RuleBadPattern, adr.SeverityWarn, fmt.Sprintf(
			"path matcher %s starts with \"/\"; affects paths are relative to the repository root, so it can never match", quote(pattern))}}
	}
	g, err := glob.Compile(pattern)
	if err != nil {
		msg := fmt.Sprintf("path matcher %s is not a glob this server can compile, so it can never match", quote(pattern))
		if errors.Is(err, glob.ErrTooLong) {
			msg = fmt.Sprintf("path matcher is %d UTF-16 code units long; globs are limited to %d, so it can never match",
				jsstring.Len(pattern), glob.MaxPatternLength)
		}
		return Compiled{finding: inert{RuleBadPattern, adr.SeverityWarn, msg}}
	}
	return Compiled{glob: g, allowsDot: hasDotSegment(pattern)}
}

// Source is the JavaScript regular expression a path pattern translates
// to (glob.Glob.Source), so that a browser can evaluate the pattern as
// explain does; ok is false when the matcher can never match.
func (c Compiled) Source() (src string, ok bool) {
	if c.glob == nil {
		return "", false
	}
	return c.glob.Source(), true
}

// AllowsDot reports whether the pattern spells a dot segment itself, so
// that it may match a path inside a dot directory.
func (c Compiled) AllowsDot() bool { return c.allowsDot }

// Problem is why the matcher can never fire ("" when it can).
func (c Compiled) Problem() string { return c.finding.message }

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
	rs.sortFired(res.Fired)
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
	if m.Type == adr.MatcherPath {
		return r.path(m, res)
	}
	if in := r.rs.compile(m.Type, m.Pattern).finding; in.rule != "" {
		r.finding(res, m, in.rule, in.severity, in.message)
	}
	return false
}

// inert is the finding of a matcher that cannot fire in this server: a
// malformed package pattern, one that needs a snapshot this server does
// not have, a type it does not know. It depends on the matcher alone.
type inert struct {
	rule     string
	severity adr.Severity
	message  string
}

// inertFinding says why a matcher of a type other than path cannot fire.
func inertFinding(typ adr.MatcherType, pattern string) inert {
	switch typ {
	case adr.MatcherPackage:
		if msg := packageProblem(pattern); msg != "" {
			return inert{RuleBadPattern, adr.SeverityWarn, msg}
		}
		return inert{RuleUnresolvable, adr.SeverityInfo, fmt.Sprintf(
			"package matcher %s cannot be checked here: it needs a snapshot of changed dependencies, which get_decision_context does not have", quote(pattern))}
	case adr.MatcherEntity:
		return inert{RuleUnresolvable, adr.SeverityInfo, fmt.Sprintf(
			"entity matcher %s cannot be checked here: it needs a catalog snapshot, which get_decision_context does not have", quote(pattern))}
	case adr.MatcherResource, adr.MatcherAPI, adr.MatcherData:
		return inert{RuleUnresolvable, adr.SeverityInfo, fmt.Sprintf(
			"%s matcher %s cannot be checked here: this server has no %s snapshot to match it against", typ, quote(pattern), typ)}
	}
	return inert{RuleUnknownType, adr.SeverityWarn, fmt.Sprintf(
		"affects matcher type %s is not known to this server; the matcher was ignored", quote(string(typ)))}
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
	c := rs.compile(adr.MatcherPath, pattern)
	if c.glob == nil {
		return pathOutcome{problem: c.finding.message}
	}
	for _, f := range rs.candidates() {
		if (!f.dot || c.allowsDot) && c.glob.Match(f.path) {
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
		Field:    fieldOf(m.Type),
		Pattern:  m.Pattern,
	})
}

// fieldOf is a finding's field for a matcher of type t: "affects.<t>",
// without building the string again for every finding of a known type.
func fieldOf(t adr.MatcherType) string {
	switch t {
	case adr.MatcherPath:
		return "affects.path"
	case adr.MatcherPackage:
		return "affects.package"
	case adr.MatcherEntity:
		return "affects.entity"
	case adr.MatcherResource:
		return "affects.resource"
	case adr.MatcherAPI:
		return "affects.api"
	case adr.MatcherData:
		return "affects.data"
	}
	return "affects." + string(t)
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

// sortFired orders fired matchers by type, then pattern, in ICU root
// collation (what the reference's localeCompare gives): "_x/**" before
// "src/*.ts" before "src/**" before "Src/**". The sort is stable, so
// patterns that collate equal keep their first-occurrence order. The
// Resolver's collator is made on first use: a Collator keeps scratch
// buffers, so it is made once per call rather than once per record, and
// never shared between goroutines.
func (rs *Resolver) sortFired(fired []adr.FiredMatcher) {
	if len(fired) < 2 {
		return
	}
	if rs.coll == nil {
		rs.coll = collate.New(language.Und)
	}
	c := rs.coll
	slices.SortStableFunc(fired, func(a, b adr.FiredMatcher) int {
		if n := c.CompareString(string(a.Type), string(b.Type)); n != 0 {
			return n
		}
		return c.CompareString(a.Pattern, b.Pattern)
	})
}

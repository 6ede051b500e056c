// Package semver validates node-semver ranges (package matcher patterns).
//
// Validity is whatever node-semver 7.8.5's validRange(range, {loose:
// false}) accepts, quirks included: a range is first rewritten (build
// metadata stripped, hyphen ranges, tilde, caret and x-ranges desugared
// into comparators) and is valid when every resulting comparator parses.
// Reproducing the rewriting rather than a grammar is what makes the odd
// cases agree: "||" alone is valid (two empty sets mean "any"), "=>1" is
// not, and a component above 2^53-1 is rejected only after the rewrite
// has added one to it.
package semver

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// ValidRange reports whether r is a range node-semver's validRange accepts
// (loose = false).
func ValidRange(r string) bool {
	compileRegexps()
	raw := collapseSpace(jsstring.TrimSpace(r))
	for _, part := range strings.Split(raw, "||") {
		if !validSet(jsstring.TrimSpace(part)) {
			return false
		}
	}
	return true
}

// The grammar, written as node-semver writes it (JavaScript's \s is
// spelled out, since RE2's is ASCII-only) in its length-bounded form.
const (
	jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`
	sp      = `[` + jsSpace + `]`
	sp01    = sp + `{0,1}`
	sp11    = sp + `{1,1}`

	numID      = `0|[1-9]\d{0,256}`
	numIDLoose = `\d{1,256}`
	nonNumID   = `\d{0,256}[a-zA-Z-][a-zA-Z0-9-]{0,250}`

	mainVersion      = `(` + numID + `)\.(` + numID + `)\.(` + numID + `)`
	mainVersionLoose = `(` + numIDLoose + `)\.(` + numIDLoose + `)\.(` + numIDLoose + `)`

	preID       = `(?:` + nonNumID + `|` + numID + `)`
	preIDLoose  = `(?:` + nonNumID + `|` + numIDLoose + `)`
	prerelease  = `(?:-(` + preID + `(?:\.` + preID + `)*))`
	prerelLoose = `(?:-?(` + preIDLoose + `(?:\.` + preIDLoose + `)*))`

	buildID = `[a-zA-Z0-9-]{1,250}`
	build   = `(?:\+(` + buildID + `(?:\.` + buildID + `)*))`

	fullPlain  = `v?` + mainVersion + prerelease + `?` + build + `?`
	loosePlain = `[v=` + jsSpace + `]*` + mainVersionLoose + prerelLoose + `?` + build + `?`

	gtlt        = `((?:<|>)?=?)`
	xrID        = numID + `|x|X|\*`
	xrangePlain = `[v=` + jsSpace + `]*(` + xrID + `)(?:\.(` + xrID + `)(?:\.(` + xrID + `)(?:` + prerelease + `)?` + build + `?)?)?`

	loneTilde = `(?:~>?)`
	loneCaret = `(?:\^)`
)

// The regular expressions are compiled on first use, not at start-up:
// their length-bounded repetitions make them large (about 16 ms and
// 17 MB to compile), and most runs never meet a package matcher.
var (
	compileOnce sync.Once

	reBuildStrip, reBuild, reHyphen, reComparatorTrim, reTildeTrim, reCaretTrim, reTilde, reCaret, reXRange, reStar, reGTE0, reComparator, reFull *regexp.Regexp
)

// compileRegexps compiles the grammar's expressions once.
func compileRegexps() {
	compileOnce.Do(func() {
		// The unbounded build pattern is the one applied to the whole range.
		reBuildStrip = regexp.MustCompile(`(?:\+([a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)*))`)
		reBuild = regexp.MustCompile(build)
		reHyphen = regexp.MustCompile(`^` + sp01 + `(` + xrangePlain + `)` + sp11 + `-` + sp11 + `(` + xrangePlain + `)` + sp01 + `$`)
		reComparatorTrim = regexp.MustCompile(`(` + sp01 + `)` + gtlt + sp01 + `(` + loosePlain + `|` + xrangePlain + `)`)
		reTildeTrim = regexp.MustCompile(`(` + sp01 + `)` + loneTilde + sp11)
		reCaretTrim = regexp.MustCompile(`(` + sp01 + `)` + loneCaret + sp11)
		reTilde = regexp.MustCompile(`^` + loneTilde + xrangePlain + `$`)
		reCaret = regexp.MustCompile(`^` + loneCaret + xrangePlain + `$`)
		reXRange = regexp.MustCompile(`^` + gtlt + sp01 + xrangePlain + `$`)
		reStar = regexp.MustCompile(`(<|>)?=?` + sp01 + `\*`)
		reGTE0 = regexp.MustCompile(`^` + sp01 + `>=` + sp01 + `0\.0\.0` + sp01 + `$`)
		reComparator = regexp.MustCompile(`^` + gtlt + sp01 + `(` + fullPlain + `)$|^$`)
		reFull = regexp.MustCompile(`^` + fullPlain + `$`)
	})
}

// maxVersionLength and maxSafeInteger are node-semver's limits on a
// version: its length, and each numeric component (2^53-1).
const (
	maxVersionLength = 256
	maxSafeInteger   = 9007199254740991
)

// validSet checks one "||"-separated comparator set.
func validSet(r string) bool {
	r = reBuildStrip.ReplaceAllString(r, "")
	r = replaceFirst(reHyphen, r, hyphenReplace)
	r = replaceAll(reComparatorTrim, r, func(g []string) string { return g[1] + g[2] + g[3] })
	r = replaceAll(reTildeTrim, r, func(g []string) string { return g[1] + "~" })
	r = replaceAll(reCaretTrim, r, func(g []string) string { return g[1] + "^" })
	parts := strings.Split(r, " ")
	for i, c := range parts {
		parts[i] = parseComparator(c)
	}
	for _, c := range splitSpace(strings.Join(parts, " ")) {
		c = replaceFirst(reGTE0, jsstring.TrimSpace(c), func([]string) string { return "" })
		if !validComparator(c) {
			return false
		}
	}
	return true
}

// parseComparator desugars carets, tildes, x-ranges and stars.
func parseComparator(c string) string {
	c = replaceFirst(reBuild, c, func([]string) string { return "" })
	c = eachWord(jsstring.TrimSpace(c), func(w string) string { return replaceFirst(reCaret, w, caretReplace) })
	c = eachWord(jsstring.TrimSpace(c), func(w string) string { return replaceFirst(reTilde, w, tildeReplace) })
	c = eachWord(c, func(w string) string {
		w = jsstring.TrimSpace(w)
		return replaceFirst(reXRange, w, func(g []string) string { return xrangeReplace(w, g) })
	})
	return replaceFirst(reStar, jsstring.TrimSpace(c), func([]string) string { return "" })
}

func validComparator(c string) bool {
	c = strings.Join(splitSpace(jsstring.TrimSpace(c)), " ")
	m := reComparator.FindStringSubmatchIndex(c)
	if m == nil {
		return false
	}
	if m[4] < 0 || m[4] == m[5] {
		return true // "" or a bare operator: any version
	}
	return validVersion(c[m[4]:m[5]])
}

func validVersion(v string) bool {
	if jsstring.Len(v) > maxVersionLength {
		return false
	}
	g := reFull.FindStringSubmatch(jsstring.TrimSpace(v))
	if g == nil {
		return false
	}
	for _, n := range g[1:4] {
		if exceedsSafeInteger(n) {
			return false
		}
	}
	return true
}

func exceedsSafeInteger(digits string) bool {
	if len(digits) > 16 {
		return true
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	return err != nil || n > maxSafeInteger
}

// isX is node-semver's wildcard test (an absent part counts).
func isX(id string) bool { return id == "" || id == "x" || id == "X" || id == "*" }

// plusOne is JavaScript's `+id + 1` rendered as a string.
func plusOne(id string) string {
	f, err := strconv.ParseFloat(id, 64)
	if err != nil {
		return "NaN"
	}
	f++
	if f >= 1e21 {
		return strconv.FormatFloat(f, 'e', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func caretReplace(g []string) string {
	maj, mnr, pat, pre := g[1], g[2], g[3], g[4]
	switch {
	case isX(maj):
		return ""
	case isX(mnr):
		return ">=" + maj + ".0.0 <" + plusOne(maj) + ".0.0-0"
	case isX(pat):
		if maj == "0" {
			return ">=" + maj + "." + mnr + ".0 <" + maj + "." + plusOne(mnr) + ".0-0"
		}
		return ">=" + maj + "." + mnr + ".0 <" + plusOne(maj) + ".0.0-0"
	}
	from := ">=" + maj + "." + mnr + "." + pat
	if pre != "" {
		from += "-" + pre
	}
	switch {
	case maj == "0" && mnr == "0":
		return from + " <" + maj + "." + mnr + "." + plusOne(pat) + "-0"
	case maj == "0":
		return from + " <" + maj + "." + plusOne(mnr) + ".0-0"
	}
	return from + " <" + plusOne(maj) + ".0.0-0"
}

func tildeReplace(g []string) string {
	maj, mnr, pat, pre := g[1], g[2], g[3], g[4]
	switch {
	case isX(maj):
		return ""
	case isX(mnr):
		return ">=" + maj + ".0.0 <" + plusOne(maj) + ".0.0-0"
	case isX(pat):
		return ">=" + maj + "." + mnr + ".0 <" + maj + "." + plusOne(mnr) + ".0-0"
	}
	from := ">=" + maj + "." + mnr + "." + pat
	if pre != "" {
		from += "-" + pre
	}
	return from + " <" + maj + "." + plusOne(mnr) + ".0-0"
}

func xrangeReplace(whole string, g []string) string {
	op, maj, mnr, pat := g[1], g[2], g[3], g[4]
	if (isX(maj) && !isX(mnr)) || (isX(mnr) && pat != "" && !isX(pat)) {
		return whole
	}
	xM := isX(maj)
	xm := xM || isX(mnr)
	xp := xm || isX(pat)
	if op == "=" && xp {
		op = ""
	}
	switch {
	case xM:
		if op == ">" || op == "<" {
			return "<0.0.0-0"
		}
		return "*"
	case op != "" && xp:
		if xm {
			mnr = "0"
		}
		pat = "0"
		switch op {
		case ">":
			op = ">="
			if xm {
				maj, mnr = plusOne(maj), "0"
			} else {
				mnr = plusOne(mnr)
			}
		case "<=":
			op = "<"
			if xm {
				maj = plusOne(maj)
			} else {
				mnr = plusOne(mnr)
			}
		}
		pre := ""
		if op == "<" {
			pre = "-0"
		}
		return op + maj + "." + mnr + "." + pat + pre
	case xm:
		return ">=" + maj + ".0.0 <" + plusOne(maj) + ".0.0-0"
	case xp:
		return ">=" + maj + "." + mnr + ".0 <" + maj + "." + plusOne(mnr) + ".0-0"
	}
	return g[0]
}

func hyphenReplace(g []string) string {
	from, fM, fm, fp := g[1], g[2], g[3], g[4]
	to, tM, tm, tp, tpr := g[7], g[8], g[9], g[10], g[11]
	switch {
	case isX(fM):
		from = ""
	case isX(fm):
		from = ">=" + fM + ".0.0"
	case isX(fp):
		from = ">=" + fM + "." + fm + ".0"
	default:
		from = ">=" + from
	}
	switch {
	case isX(tM):
		to = ""
	case isX(tm):
		to = "<" + plusOne(tM) + ".0.0-0"
	case isX(tp):
		to = "<" + tM + "." + plusOne(tm) + ".0-0"
	case tpr != "":
		to = "<=" + tM + "." + tm + "." + tp + "-" + tpr
	default:
		to = "<=" + to
	}
	return jsstring.TrimSpace(from + " " + to)
}

// replaceFirst is String.prototype.replace with a non-global regex.
func replaceFirst(re *regexp.Regexp, s string, f func([]string) string) string {
	m := re.FindStringSubmatchIndex(s)
	if m == nil {
		return s
	}
	return s[:m[0]] + f(groups(s, m)) + s[m[1]:]
}

// replaceAll is String.prototype.replace with a global regex (none of the
// patterns used can match the empty string).
func replaceAll(re *regexp.Regexp, s string, f func([]string) string) string {
	all := re.FindAllStringSubmatchIndex(s, -1)
	if all == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range all {
		b.WriteString(s[last:m[0]])
		b.WriteString(f(groups(s, m)))
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// groups returns the submatches, "" for groups that did not take part
// (JavaScript's undefined, which every use above treats like "").
func groups(s string, m []int) []string {
	g := make([]string, len(m)/2)
	for i := range g {
		if m[2*i] >= 0 {
			g[i] = s[m[2*i]:m[2*i+1]]
		}
	}
	return g
}

// collapseSpace replaces each run of JavaScript whitespace by one space.
func collapseSpace(s string) string {
	var b strings.Builder
	inSpace := false
	for _, r := range s {
		if jsstring.IsSpace(r) {
			if !inSpace {
				b.WriteByte(' ')
			}
			inSpace = true
			continue
		}
		inSpace = false
		b.WriteRune(r)
	}
	return b.String()
}

// splitSpace is s.split(/\s+/) in JavaScript: empty fields at either end
// are kept, and "" splits into [""].
func splitSpace(s string) []string {
	var out []string
	start := 0
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !jsstring.IsSpace(r) {
			i += size
			continue
		}
		out = append(out, s[start:i])
		for i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !jsstring.IsSpace(r) {
				break
			}
			i += size
		}
		start = i
	}
	return append(out, s[start:])
}

// eachWord maps f over the /\s+/-separated words of s and joins them with
// single spaces.
func eachWord(s string, f func(string) string) string {
	words := splitSpace(s)
	for i, w := range words {
		words[i] = f(w)
	}
	return strings.Join(words, " ")
}

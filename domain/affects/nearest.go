package affects

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// Nearest proposes a path pattern close to pattern that matches at least
// one of files, for a pattern that matches none: lint's
// affects-matches-nothing names it. The literal segments the pattern
// starts with (up to the first that holds glob syntax) are walked down
// the files' directories, and a segment no file has is replaced by the
// name at that place nearest to it: the same name in other case, else one
// a couple of edits away ("servics" for "services"). The rest of the
// pattern is kept as written. "" when no segment was near enough, or the
// corrected pattern matches nothing either.
func Nearest(pattern string, files []string, compile CompileFunc) string {
	if compile == nil {
		compile = Compile
	}
	segs := strings.Split(pattern, "/")
	paths := make([][]string, 0, len(files))
	for _, f := range files {
		paths = append(paths, strings.Split(NormalizePath(f), "/"))
	}
	changed := false
	for i, seg := range segs {
		if strings.ContainsAny(seg, `*?[]{}()!+@\`) || seg == "" {
			break
		}
		var names []string
		for _, p := range paths {
			if len(p) > i && !slices.Contains(names, p[i]) {
				names = append(names, p[i])
			}
		}
		best := nearestName(seg, names)
		if best == "" {
			return ""
		}
		if best != seg {
			segs[i], changed = best, true
		}
		paths = slices.DeleteFunc(paths, func(p []string) bool { return len(p) <= i || p[i] != best })
	}
	if !changed {
		return ""
	}
	out := strings.Join(segs, "/")
	c := compile(adr.MatcherPath, out)
	if c.glob == nil {
		return ""
	}
	for _, f := range files {
		if p := NormalizePath(f); (!hasDotSegment(p) || c.allowsDot) && c.glob.Match(p) {
			return out
		}
	}
	return ""
}

// nearestName is seg itself when names hold it, else the name equal to it
// but for case, else the one fewest edits away (at most two, and at most
// a third of seg's length), ties going to the first in code-unit order;
// "" when none is near.
func nearestName(seg string, names []string) string {
	if slices.Contains(names, seg) {
		return seg
	}
	slices.SortFunc(names, jsstring.Compare)
	best, bestDist := "", min(2, utf8.RuneCountInString(seg)/3)+1
	for _, n := range names {
		d := editDistance(strings.ToLower(seg), strings.ToLower(n))
		if d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// editDistance is the number of single-rune insertions, deletions,
// substitutions and swaps of neighbours that turn a into b (the optimal
// string alignment distance): "db.og" is one edit from "db.go".
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	rows := make([][]int, len(ra)+1)
	for i := range rows {
		rows[i] = make([]int, len(rb)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			rows[i][j] = min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				rows[i][j] = min(rows[i][j], rows[i-2][j-2]+1)
			}
		}
	}
	return rows[len(ra)][len(rb)]
}

// Package mdlink finds the inline links of a Markdown file and points
// the ones to a renamed file at its new name: what "adrkit renumber"
// does to the links a rename would break. Pure: bytes in, bytes out.
package mdlink

import (
	"net/url"
	"path"
	"strings"

	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// inline is an inline link or image destination: "](dest" with an
// optional "<" around it, up to a space, ")" or ">".
var inline = lazyregexp.New(`\]\(\s*<?([^)\s>]+)`)

// fence opens or closes a fenced code block.
var fence = lazyregexp.New("^ {0,3}(```|~~~)")

// Retarget returns src, the Markdown file at file (repository-relative,
// "/"-separated), with every inline link whose destination resolves to
// the repository path from pointed at to instead, and the 1-based lines
// changed. Only the destination's last segment changes, and the anchor or
// query after it stays ("0003-x.md#context" → "0004-x.md#context"); links
// in fenced code, to other files, or with a scheme (https:) stay, as
// does every other byte. from and to must be in the same directory.
func Retarget(file string, src []byte, from, to string) ([]byte, []int) {
	oldName, newName := path.Base(from), path.Base(to)
	if !strings.Contains(string(src), oldName) {
		return src, nil
	}
	lines := strings.SplitAfter(string(src), "\n")
	var changed []int
	open := ""
	for i, l := range lines {
		if m := fence.FindStringSubmatch(l); m != nil {
			switch {
			case open == "":
				open = m[1]
			case m[1] == open:
				open = ""
			}
			continue
		}
		if open != "" || !strings.Contains(l, oldName) {
			continue
		}
		locs := inline.FindAllStringSubmatchIndex(l, -1)
		var b strings.Builder
		kept := 0
		for _, loc := range locs {
			dest := l[loc[2]:loc[3]]
			if !pointsAt(file, dest, from) {
				continue
			}
			target, rest := dest, ""
			if j := strings.IndexAny(dest, "#?"); j >= 0 {
				target, rest = dest[:j], dest[j:]
			}
			slash := strings.LastIndexByte(target, '/')
			b.WriteString(l[kept:loc[2]])
			b.WriteString(target[:slash+1] + url.PathEscape(newName) + rest)
			kept = loc[3]
		}
		if kept > 0 {
			b.WriteString(l[kept:])
			lines[i] = b.String()
			changed = append(changed, i+1)
		}
	}
	if len(changed) == 0 {
		return src, nil
	}
	return []byte(strings.Join(lines, "")), changed
}

// pointsAt reports whether link destination dest, in the file at file,
// resolves to the repository path target.
func pointsAt(file, dest, target string) bool {
	if strings.Contains(dest, ":") || strings.HasPrefix(dest, "/") || strings.HasPrefix(dest, "#") {
		return false
	}
	if j := strings.IndexAny(dest, "#?"); j >= 0 {
		dest = dest[:j]
	}
	if u, err := url.PathUnescape(dest); err == nil {
		dest = u
	}
	return path.Join(path.Dir(file), dest) == path.Clean(target)
}

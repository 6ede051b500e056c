package render

// The text of a cell fitted to a width: wrapped between words, or cut
// with an ellipsis, counting the columns a terminal gives each character.

import (
	"strings"

	"golang.org/x/text/width"
)

// wrapWords breaks text into lines of at most limit columns between
// words; text that fits, or has no space, is one line.
func wrapWords(text string, limit int) []string {
	if displayWidth(text) <= limit || !strings.Contains(text, " ") {
		return []string{text}
	}
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case displayWidth(line)+1+displayWidth(word) <= limit:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// shorten cuts text to at most limit columns, at the last space before
// the limit when there is one, and marks the cut with an ellipsis.
func shorten(text string, limit int) string {
	if displayWidth(text) <= limit || limit < 2 {
		return text
	}
	cut, used := 0, 0
	lastSpace := -1
	for i, r := range text {
		w := displayWidth(string(r))
		if used+w > limit-1 {
			break
		}
		if r == ' ' {
			lastSpace = i
		}
		used += w
		cut = i + len(string(r))
	}
	if lastSpace > 0 {
		cut = lastSpace
	}
	return strings.TrimRight(text[:cut], " ") + "…"
}

// longestWord is the width of the widest word of text.
func longestWord(text string) int {
	n := 0
	for _, word := range strings.Fields(text) {
		n = max(n, displayWidth(word))
	}
	return n
}

// cutEnd cuts text to at most limit columns, an ellipsis in place of
// what is left out at its end.
func cutEnd(text string, limit int) string {
	if displayWidth(text) <= limit {
		return text
	}
	used, cut := 0, 0
	for i, r := range text {
		w := displayWidth(string(r))
		if used+w > limit-1 {
			break
		}
		used += w
		cut = i + len(string(r))
	}
	return text[:cut] + "…"
}

// cutStart cuts text to at most limit columns, an ellipsis in place of
// what is left out at its start, at a "/" when one is left.
func cutStart(text string, limit int) string {
	if displayWidth(text) <= limit {
		return text
	}
	runes := []rune(text)
	used, from := 0, len(runes)
	for from > 0 {
		w := displayWidth(string(runes[from-1]))
		if used+w > limit-1 {
			break
		}
		used += w
		from--
	}
	tail := string(runes[from:])
	if i := strings.IndexByte(tail, '/'); i >= 0 && i < len(tail)-1 {
		tail = tail[i:] // a path cut between its directories
	}
	return "…" + tail
}

// displayWidth is the number of terminal columns text takes: East Asian
// wide and full-width characters take two, everything else one.
func displayWidth(text string) int {
	n := 0
	for _, r := range text {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

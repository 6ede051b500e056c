package render

import (
	"strings"

	"golang.org/x/text/width"
)

// cell is one table cell: its text and how to colour it once padded.
// Colour is applied after padding so escape codes never skew alignment.
type cell struct {
	text  string
	paint func(string) string
}

// plainCell is a cell without colour. It takes answer text (app.Text)
// as it takes any other string.
func plainCell[T ~string](text T) cell { return cell{text: oneLine(string(text))} }

// paintedCell is a cell coloured by paint.
func paintedCell[T ~string](text T, paint func(string) string) cell {
	return cell{text: oneLine(string(text)), paint: paint}
}

// table lays rows out in aligned columns separated by two spaces, with an
// optional header row. The last column is never padded, so lines carry no
// trailing blanks.
//
// With a width (a terminal's columns, Style.Width) a table that would be
// wider is fitted: the columns whose text has spaces give up room, widest
// first, and their cells wrap onto more lines between words. A word is
// never cut: a column never gets narrower than its longest word (or its
// header), so a table of long paths may still be wider than the screen.
// Without a width (output to a file or a pipe) nothing is wrapped.
type table struct {
	indent string
	header []cell
	rows   [][]cell
	// notes holds, per row index, a line shown under that row, indented
	// and outside the columns (search's snippet of the matching text).
	notes map[int]cell
	width int
}

func (t *table) add(cells ...cell) { t.rows = append(t.rows, cells) }

// note puts a line under the last row added.
func (t *table) note(c cell) {
	if t.notes == nil {
		t.notes = map[int]cell{}
	}
	t.notes[len(t.rows)-1] = c
}

// String renders the table; an empty table renders as "".
func (t *table) String() string {
	all := t.rows
	if t.header != nil {
		all = append([][]cell{t.header}, t.rows...)
	}
	var widths []int
	for _, row := range all {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], displayWidth(c.text))
		}
	}
	if t.width > 0 {
		widths = t.fit(all, widths)
	}
	var b strings.Builder
	for n, row := range all {
		for _, line := range wrapRow(row, widths) {
			b.WriteString(t.layout(line, widths))
		}
		rowIndex := n
		if t.header != nil {
			rowIndex--
		}
		if note, ok := t.notes[rowIndex]; ok && rowIndex >= 0 && note.text != "" {
			b.WriteString(t.noteLine(note))
		}
	}
	return b.String()
}

// layout writes one physical line of cells, padded to widths.
func (t *table) layout(row []cell, widths []int) string {
	line := t.indent
	for i, c := range row {
		text := c.text
		if i < len(row)-1 {
			text += strings.Repeat(" ", max(0, widths[i]-displayWidth(c.text)))
		}
		if c.paint != nil && c.text != "" {
			// Paint the text only, not the padding after it.
			text = c.paint(c.text) + text[len(c.text):]
		}
		if i > 0 {
			line += "  "
		}
		line += text
	}
	return strings.TrimRight(line, " ") + "\n"
}

// noteLine is a note under a row, shortened to the width when there is
// one, at a word where it can be.
func (t *table) noteLine(note cell) string {
	prefix := t.indent + "  "
	text := note.text
	if t.width > 0 {
		text = shorten(text, t.width-displayWidth(prefix))
	}
	if note.paint != nil {
		text = note.paint(text)
	}
	return prefix + text + "\n"
}

// minTextColumn is the narrowest a column of words is made.
const minTextColumn = 16

// fit narrows the columns that can wrap until the table fits t.width or
// none can give more.
func (t *table) fit(all [][]cell, widths []int) []int {
	total := displayWidth(t.indent) + 2*(len(widths)-1)
	for _, w := range widths {
		total += w
	}
	if total <= t.width {
		return widths
	}
	floor := make([]int, len(widths))
	for _, row := range all {
		for i, c := range row {
			for _, word := range strings.Fields(c.text) {
				floor[i] = max(floor[i], displayWidth(word))
			}
		}
	}
	for i := range floor {
		// A column of text keeps room for a few words a line, or it
		// reads as one word a line; a table that still does not fit
		// lets the terminal wrap its lines.
		floor[i] = max(floor[i], min(widths[i], minTextColumn))
	}
	fitted := append([]int(nil), widths...)
	for over := total - t.width; over > 0; over-- {
		widest := -1
		for i, w := range fitted {
			if w > floor[i] && (widest < 0 || w > fitted[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		fitted[widest]--
	}
	return fitted
}

// wrapRow splits a row into physical lines: each cell wrapped between
// words to its column's width (a word longer than the width stays
// whole on a line of its own).
func wrapRow(row []cell, widths []int) [][]cell {
	wrapped := make([][]string, len(row))
	lines := 1
	for i, c := range row {
		wrapped[i] = wrapWords(c.text, widths[i])
		lines = max(lines, len(wrapped[i]))
	}
	out := make([][]cell, lines)
	for l := range out {
		out[l] = make([]cell, len(row))
		for i, c := range row {
			text := ""
			if l < len(wrapped[i]) {
				text = wrapped[i][l]
			}
			out[l][i] = cell{text: text, paint: c.paint}
		}
	}
	return out
}

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

package render

import (
	"slices"
	"strings"
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
// wider is fitted, and no line is longer than the width: the columns of
// words (text with spaces) wrap between words, the columns in yield are
// cut with an ellipsis and then dropped, in an order that keeps a title
// readable (fit). Without a width (output to a file or a pipe) nothing is
// wrapped, cut or dropped.
type table struct {
	indent string
	header []cell
	rows   [][]cell
	// notes holds, per row index, a line shown under that row, indented
	// and outside the columns (search's snippet of the matching text).
	notes map[int]cell
	width int
	// yield are the columns that give way to the others, the first
	// first: paths, which are cut at their start (their end names the
	// file), and other columns a reader can do without.
	yield []int
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
	hidden := make([]bool, len(widths))
	if t.width > 0 {
		widths, hidden = t.fit(all, widths)
	}
	var b strings.Builder
	for n, row := range all {
		for _, line := range t.wrapRow(row, widths, hidden) {
			b.WriteString(t.layout(line, widths, hidden))
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

// layout writes one physical line of the cells shown, padded to widths.
func (t *table) layout(row []cell, widths []int, hidden []bool) string {
	last := len(row) - 1
	for last > 0 && hidden[last] {
		last--
	}
	line := t.indent
	first := true
	for i, c := range row {
		if hidden[i] {
			continue
		}
		text := c.text
		if i < last {
			text += strings.Repeat(" ", max(0, widths[i]-displayWidth(c.text)))
		}
		if c.paint != nil && c.text != "" {
			// Paint the text only, not the padding after it.
			text = c.paint(c.text) + text[len(c.text):]
		}
		if !first {
			line += "  "
		}
		first = false
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
		text = cutEnd(shorten(text, t.width-displayWidth(prefix)), t.width-displayWidth(prefix))
	}
	if note.paint != nil {
		text = note.paint(text)
	}
	return prefix + text + "\n"
}

// The widths a column gives way to, in fit's order.
const (
	// roomyText is the narrowest a column of words is made before the
	// yielding columns give anything: a title reads as a line or two.
	roomyText = 24
	// minCut is the narrowest a yielding column is cut to before it is
	// dropped: less of a path names nothing.
	minCut = 20
	// minTextColumn is the narrowest a column of words is made while
	// yielding columns remain to drop: a few words a line, not one.
	minTextColumn = 16
)

// fit makes the table fit t.width, in this order until it does: the
// columns of words wrap down to roomyText columns, the yielding columns
// are cut down to minCut, the columns of words wrap down to
// minTextColumn; then the next yielding column is dropped and all of it
// is tried again. With every yielding column dropped, any column gives
// what it must, widest first: words are cut rather than a line run past
// the width. It returns the widths and the columns dropped.
func (t *table) fit(all [][]cell, natural []int) ([]int, []bool) {
	words := make([]int, len(natural)) // the longest word of each column
	spaced := make([]bool, len(natural))
	for _, row := range all {
		for i, c := range row {
			spaced[i] = spaced[i] || strings.Contains(c.text, " ")
			words[i] = max(words[i], longestWord(c.text))
		}
	}
	hidden := make([]bool, len(natural))
	for dropped := 0; ; dropped++ {
		fitted := slices.Clone(natural)
		over := t.overBy(fitted, hidden)
		give := func(floor func(i int) int) {
			over = shrink(fitted, over, func(i int) int {
				if hidden[i] {
					return fitted[i]
				}
				return floor(i)
			})
		}
		textDownTo := func(w int) {
			give(func(i int) int {
				if !spaced[i] || slices.Contains(t.yield, i) {
					return fitted[i]
				}
				return max(words[i], min(natural[i], w))
			})
		}
		textDownTo(roomyText)
		give(func(i int) int {
			if slices.Contains(t.yield, i) {
				return min(natural[i], minCut)
			}
			return fitted[i]
		})
		textDownTo(minTextColumn)
		if over <= 0 {
			return fitted, hidden
		}
		if dropped == len(t.yield) {
			give(func(int) int { return 1 })
			return fitted, hidden
		}
		if c := t.yield[dropped]; c < len(hidden) {
			hidden[c] = true // a table may go without a column it can yield
		}
	}
}

// overBy is how many columns the table's lines would be wider than
// t.width, with widths and without the hidden columns.
func (t *table) overBy(widths []int, hidden []bool) int {
	total, shown := displayWidth(t.indent), 0
	for i, w := range widths {
		if hidden[i] {
			continue
		}
		total += w
		shown++
	}
	return total + 2*max(0, shown-1) - t.width
}

// shrink narrows the widest column above its floor, one column at a
// time, until over is spent or no column can give more, and returns what
// is left of over.
func shrink(widths []int, over int, floor func(int) int) int {
	for ; over > 0; over-- {
		widest := -1
		for i, w := range widths {
			if w > floor(i) && (widest < 0 || w > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		widths[widest]--
	}
	return over
}

// wrapRow splits a row into physical lines: each cell wrapped between
// words to its column's width, and what is still wider cut with an
// ellipsis (a yielding column at its start); a cell with a word wider
// than its column is cut on one line rather than wrapped a few letters a
// line.
func (t *table) wrapRow(row []cell, widths []int, hidden []bool) [][]cell {
	wrapped := make([][]string, len(row))
	lines := 1
	for i, c := range row {
		if hidden[i] {
			continue
		}
		wrapped[i] = []string{c.text}
		if longestWord(c.text) <= widths[i] {
			wrapped[i] = wrapWords(c.text, widths[i])
		}
		for l, text := range wrapped[i] {
			if t.width > 0 && slices.Contains(t.yield, i) {
				wrapped[i][l] = cutStart(text, widths[i])
			} else if t.width > 0 {
				wrapped[i][l] = cutEnd(text, widths[i])
			}
		}
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

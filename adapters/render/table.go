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
type table struct {
	indent string
	header []cell
	rows   [][]cell
}

func (t *table) add(cells ...cell) { t.rows = append(t.rows, cells) }

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
	var b strings.Builder
	for _, row := range all {
		line := t.indent
		for i, c := range row {
			text := c.text
			if i < len(row)-1 {
				text += strings.Repeat(" ", widths[i]-displayWidth(c.text))
			}
			if c.paint != nil {
				// Paint the text only, not the padding after it.
				text = c.paint(c.text) + text[len(c.text):]
			}
			if i > 0 {
				line += "  "
			}
			line += text
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	return b.String()
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

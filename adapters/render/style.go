package render

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// ColorMode is the --color setting.
type ColorMode string

// The three colour modes.
const (
	ColorAuto   ColorMode = "auto"
	ColorAlways ColorMode = "always"
	ColorNever  ColorMode = "never"
)

// ParseColorMode reads a --color value.
func ParseColorMode(s string) (ColorMode, error) {
	switch m := ColorMode(s); m {
	case ColorAuto, ColorAlways, ColorNever:
		return m, nil
	}
	return "", fmt.Errorf("--color must be auto, always or never, got %q", s)
}

// UseColor decides whether output gets colour. "always" and "never" are
// what they say; "auto" colours only a terminal, and only when NO_COLOR
// is unset or empty (https://no-color.org) and TERM is not "dumb". An
// explicit --color always wins over NO_COLOR, as that convention asks.
func UseColor(mode ColorMode, terminal bool, getenv func(string) (string, bool)) bool {
	switch mode {
	case ColorAlways:
		return true
	case ColorNever:
		return false
	}
	if !terminal {
		return false
	}
	if v, ok := getenv("NO_COLOR"); ok && v != "" {
		return false
	}
	if v, _ := getenv("TERM"); v == "dumb" {
		return false
	}
	return true
}

// IsTerminal reports whether w is a character device (a terminal), the
// only kind of output "auto" colours. Anything that is not an *os.File
// (a buffer, a pipe wrapper) is not a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Style applies ANSI colour when it is on and leaves text untouched
// otherwise, so renderers never test for colour themselves.
type Style struct {
	on bool
	// width is the terminal's columns tables are fitted to; 0 (output to
	// a file or a pipe) leaves them as wide as their text.
	width int
}

// NewStyle returns a Style that colours when on is true.
func NewStyle(on bool) Style { return Style{on: on} }

// WithWidth is s fitting tables to columns terminal columns (0: never).
func (s Style) WithWidth(columns int) Style {
	s.width = max(columns, 0)
	return s
}

// The SGR codes used; the palette is deliberately small so that it reads
// on light and dark terminals alike.
const (
	sgrBold   = "1"
	sgrDim    = "2"
	sgrRed    = "31"
	sgrGreen  = "32"
	sgrYellow = "33"
	sgrBlue   = "34"
	sgrCyan   = "36"
)

func (s Style) wrap(code, text string) string {
	if !s.on || text == "" {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

// Bold emphasises headings and paths.
func (s Style) Bold(text string) string { return s.wrap(sgrBold, text) }

// Dim de-emphasises secondary text.
func (s Style) Dim(text string) string { return s.wrap(sgrDim, text) }

// Severity colours a severity word: errors red, warnings yellow, info blue.
func (s Style) Severity(sev adr.Severity, text string) string {
	switch sev {
	case adr.SeverityError:
		return s.wrap(sgrBold+";"+sgrRed, text)
	case adr.SeverityWarn:
		return s.wrap(sgrYellow, text)
	}
	return s.wrap(sgrBlue, text)
}

// Status colours a status word: accepted green, live proposals yellow,
// rejected red, history dim.
func (s Style) Status(st adr.Status, text string) string {
	switch st {
	case adr.StatusAccepted:
		return s.wrap(sgrGreen, text)
	case adr.StatusDraft, adr.StatusProposed:
		return s.wrap(sgrYellow, text)
	case adr.StatusRejected:
		return s.wrap(sgrRed, text)
	case adr.StatusSuperseded, adr.StatusDeprecated:
		return s.wrap(sgrDim, text)
	}
	return s.wrap(sgrCyan, text)
}

// Good colours a reassuring summary.
func (s Style) Good(text string) string { return s.wrap(sgrGreen, text) }

// Bad colours a failing summary.
func (s Style) Bad(text string) string { return s.wrap(sgrBold+";"+sgrRed, text) }

// oneLine flattens text for a table cell or a single output line: line
// breaks and tabs become spaces, so one record stays one row.
func oneLine(text string) string {
	if !strings.ContainsAny(text, "\r\n\t\u2028\u2029") {
		return text
	}
	return strings.Join(strings.FieldsFunc(text, func(r rune) bool {
		return r == '\r' || r == '\n' || r == '\t' || r == '\u2028' || r == '\u2029'
	}), " ")
}

package render

import (
	"io"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/app"
)

// writeFileEdits lists each changed file and the lines of it that change,
// old ones marked "-" and new ones "+", each with its line number.
func writeFileEdits(b *strings.Builder, files []app.FileEdit, st Style) {
	for _, f := range files {
		name := f.Path
		if f.RenameTo != "" {
			name += " → " + f.RenameTo
		}
		b.WriteString("  " + st.Bold(name) + "\n")
		for _, c := range f.Lines {
			for _, l := range c.Old {
				b.WriteString("    " + st.Bad("- ") + strconv.Itoa(c.Line) + ": " + l + "\n")
			}
			for i, l := range c.New {
				b.WriteString("    " + st.Good("+ ") + strconv.Itoa(c.Line+i) + ": " + l + "\n")
			}
		}
		if f.Error != "" {
			b.WriteString("    " + st.Bad("not written: ") + f.Error + "\n")
		}
	}
}

// WriteStatus renders what "adrkit status" changed, or would change.
func WriteStatus(w io.Writer, res *app.StatusResult, st Style) error {
	var b strings.Builder
	what := res.ID + " " + string(res.Status)
	if res.By != "" {
		what += " by " + res.By
	}
	switch {
	case len(res.Files) == 0:
		b.WriteString(res.ID + " is " + string(res.Status) + " already: nothing to change.\n")
		return writeString(w, b.String())
	case res.DryRun:
		b.WriteString(st.Bold("adrkit status "+what) + ", dry run: nothing is written\n")
	default:
		b.WriteString(st.Bold("adrkit status "+what) + "\n")
	}
	writeFileEdits(&b, res.Files, st)
	b.WriteString(editSummary(len(res.Files), res.DryRun, res.Failed()) + "\n")
	return writeString(w, b.String())
}

// editSummary is the last line of an edit: how many files changed.
func editSummary(n int, dryRun, failed bool) string {
	files := counted(n, "file", "files")
	switch {
	case dryRun:
		return files + " would change. Run it without --dry-run to write."
	case failed:
		return files + " to change; not every one was written."
	}
	return files + " changed. Next: adrkit lint."
}

// WriteRenumber renders what "adrkit renumber" changed, or would change.
func WriteRenumber(w io.Writer, res *app.RenumberResult, st Style) error {
	var b strings.Builder
	head := "adrkit renumber " + res.ID + " → " + res.NewID
	if res.DryRun {
		head += ", dry run: nothing is written"
	}
	b.WriteString(st.Bold(head) + "\n")
	writeFileEdits(&b, res.Files, st)
	b.WriteString(editSummary(len(res.Files), res.DryRun, res.Failed()) + "\n")
	return writeString(w, b.String())
}

// Package index is "adrkit index": a Markdown index of the decisions,
// grouped by status and linked, kept between two marker comments in a
// file whose other text belongs to people. Pure: the caller reads the
// records and the file, and writes the result.
package index

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// The marker lines between which the index is written. Everything
// outside them is the file owner's and is never changed.
const (
	Begin = "<!-- adrkit:index:begin -->"
	End   = "<!-- adrkit:index:end -->"
)

// groups are the status groups in the order the index shows them: what
// governs first, then what is under way, then history.
var groups = []struct {
	status  adr.Status
	heading string
}{
	{adr.StatusAccepted, "Accepted"},
	{adr.StatusProposed, "Proposed"},
	{adr.StatusDraft, "Draft"},
	{adr.StatusDeprecated, "Deprecated"},
	{adr.StatusSuperseded, "Superseded"},
	{adr.StatusRejected, "Rejected"},
}

// Block is the index of records, markers included, ended by newline,
// for a file in directory dir (repository-relative, "/"-separated, "."
// for the root): every link is relative to dir. records are the valid
// records of the corpus; byID finds a superseded record's successor
// (the first record with that id, as the corpus orders them).
func Block(records []*adr.Record, byID map[string][]*adr.Record, dir, newline string) string {
	var b strings.Builder
	line := func(s string) { b.WriteString(s + newline) }
	line(Begin)
	line("<!-- Written by adrkit index from the records; changes between these markers are replaced. -->")
	sorted := slices.Clone(records)
	slices.SortStableFunc(sorted, func(a, b *adr.Record) int {
		if c := jsstring.Compare(a.Frontmatter.ID, b.Frontmatter.ID); c != 0 {
			return c
		}
		return jsstring.Compare(a.SourcePath, b.SourcePath)
	})
	if len(sorted) == 0 {
		line("")
		line("No decisions are recorded yet.")
	}
	for _, g := range groups {
		var in []*adr.Record
		for _, r := range sorted {
			if r.Frontmatter.Status == g.status {
				in = append(in, r)
			}
		}
		if len(in) == 0 {
			continue
		}
		line("")
		line("### " + g.heading)
		line("")
		for _, r := range in {
			fm := r.Frontmatter
			item := "- " + link(fm.ID+". "+fm.Title, r.SourcePath, dir)
			if fm.Date != "" {
				item += " (" + fm.Date + ")"
			}
			if fm.Status == adr.StatusSuperseded && fm.SupersededBy != "" {
				item += ", superseded by "
				if next := byID[fm.SupersededBy]; len(next) > 0 {
					item += link(next[0].Frontmatter.ID+". "+next[0].Frontmatter.Title, next[0].SourcePath, dir)
				} else {
					item += escape(fm.SupersededBy)
				}
			}
			line(item)
		}
	}
	line("")
	line(End)
	return b.String()
}

// link is a Markdown link with text to the record at target, relative to
// dir.
func link(text, target, dir string) string {
	dest := Rel(dir, target)
	if strings.ContainsAny(dest, " ()<>") {
		dest = "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(dest) + ">"
	}
	return "[" + escape(text) + "](" + dest + ")"
}

// escape keeps a title's characters from being read as Markdown.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Rel is the "/"-separated path of target relative to directory dir,
// both repository-relative and clean ("." for the root).
func Rel(dir, target string) string {
	dir, target = path.Clean(dir), path.Clean(target)
	var dparts, tparts []string
	if dir != "." {
		dparts = strings.Split(dir, "/")
	}
	tparts = strings.Split(target, "/")
	i := 0
	for i < len(dparts) && i < len(tparts)-1 && dparts[i] == tparts[i] {
		i++
	}
	up := strings.Repeat("../", len(dparts)-i)
	return up + strings.Join(tparts[i:], "/")
}

// ErrMarkers wraps markers a file holds in a shape Splice cannot place
// the index in: one without the other, the end before the beginning, or
// more than one pair. Nothing is written then.
var ErrMarkers = errors.New("the index markers")

// Splice returns text with block in place of what lies between the
// markers (the marker lines included). Without markers the block is
// appended at the end, after a blank line (text that does not end a line
// gets one first). The newline of the block should be the file's own.
func Splice(text, block string) (string, error) {
	begin := markerLines(text, Begin)
	end := markerLines(text, End)
	switch {
	case len(begin) == 0 && len(end) == 0:
		if text == "" {
			return block, nil
		}
		nl := Newline(text)
		if !strings.HasSuffix(text, "\n") {
			text += nl
		}
		return text + nl + block, nil
	case len(begin) != 1 || len(end) != 1:
		return "", fmt.Errorf("%w: %d %s and %d %s lines; there must be one of each, or none", ErrMarkers, len(begin), Begin, len(end), End)
	case end[0][0] < begin[0][0]:
		return "", fmt.Errorf("%w: %s comes before %s", ErrMarkers, End, Begin)
	}
	return text[:begin[0][0]] + block + text[end[0][1]:], nil
}

// markerLines returns the byte ranges of the lines that hold marker
// alone (spaces around it allowed), each with its line ending.
func markerLines(text, marker string) [][2]int {
	var out [][2]int
	for at := 0; at < len(text); {
		nl := strings.IndexByte(text[at:], '\n')
		end := len(text)
		if nl >= 0 {
			end = at + nl + 1
		}
		if strings.TrimSpace(text[at:end]) == marker {
			out = append(out, [2]int{at, end})
		}
		at = end
	}
	return out
}

// Newline is the line ending text uses: "\r\n" when its first line ends
// so, else "\n".
func Newline(text string) string {
	if i := strings.IndexByte(text, '\n'); i > 0 && text[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

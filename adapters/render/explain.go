package render

import (
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/markers"
)

// stateWords says, for a person, why a file was not read for markers.
var stateWords = map[markers.State]string{
	markers.Absent:     "no such file",
	markers.Unreadable: "not a regular file reached without a symbolic link, or not readable",
	markers.OutOfTree:  "not a path inside the repository",
	markers.Skipped:    "past the " + strconv.Itoa(markers.BatchFileCap) + "-file limit",
}

// markerNotes says what the markers of an explain answer could not do:
// files that were not read, or only in part, declarations left out, and
// markers that bind to nothing or to history (their findings). "" when
// rep is nil or there is nothing to say.
func markerNotes(st Style, findings []adr.Finding, rep *app.MarkerReport) string {
	if rep == nil {
		return ""
	}
	var b strings.Builder
	var unread, partial []string
	for _, f := range rep.Files {
		switch {
		case f.State != markers.Scanned:
			unread = append(unread, strconv.Quote(f.Path)+" ("+stateWords[f.State]+")")
		case f.Truncated:
			size := ""
			if f.FileBytes >= 0 {
				size = " of " + strconv.FormatInt(f.FileBytes, 10)
			}
			partial = append(partial, strconv.Quote(f.Path)+" ("+strconv.Itoa(f.ScannedBytes)+size+" bytes)")
		}
		if f.Omitted > 0 {
			b.WriteString(st.Dim(strconv.Quote(f.Path)+" declares more decisions than the "+strconv.Itoa(markers.FileCap)+
				" read; "+strconv.Itoa(f.Omitted)+" more were left out.") + "\n")
		}
	}
	if rep.BatchOmitted > 0 {
		b.WriteString(st.Dim("The files declare more decisions than the "+strconv.Itoa(markers.BatchCap)+" read in all; "+
			strconv.Itoa(rep.BatchOmitted)+" more were left out.") + "\n")
	}
	if len(unread) > 0 {
		b.WriteString(st.Dim("Not read for @adr markers: "+strings.Join(unread, ", ")+".") + "\n")
	}
	if len(partial) > 0 {
		b.WriteString(st.Dim("Markers belong at the top of a file, so only the head of a long file is looked at: "+
			strings.Join(partial, ", ")+".") + "\n")
	}
	for _, f := range findings {
		switch f.Rule {
		case markers.RuleDangling, markers.RuleUnresolvable, markers.RuleStale:
			sev := f.Severity
			b.WriteString(st.Severity(sev, string(sev)) + " " + f.Rule + ": " + f.Message + "\n")
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\n" + b.String()
}

// ExplainJSON is what explain --json prints: the get_decision_context
// answer (with declaredBy on the records a file declared) and what the
// files' heads declared.
type ExplainJSON struct {
	CorpusHealth *app.CorpusHealth `json:"corpusHealth,omitempty"`
	Result       any               `json:"result"`
	Markers      *MarkersJSON      `json:"markers,omitempty"`
	// Withheld is true when the corpus has an error finding, so that the
	// buckets are empty whatever covers the files (app.Matches.Withheld).
	Withheld bool `json:"withheld,omitempty"`
}

// MarkersJSON is the markers member of explain --json (docs/cli.md).
type MarkersJSON struct {
	WindowBytes      int              `json:"windowBytes"`
	DeclarationLimit int              `json:"declarationLimit"`
	Files            []MarkerFileJSON `json:"files"`
	BatchOmitted     int              `json:"batchOmitted"`
}

// MarkerFileJSON is one file of MarkersJSON.
type MarkerFileJSON struct {
	Path  string        `json:"path"`
	State markers.State `json:"state"`
	// ScannedBytes and FileBytes are absent for a file that was not
	// read: nothing was measured.
	ScannedBytes        *int           `json:"scannedBytes,omitempty"`
	FileBytes           *int64         `json:"fileBytes,omitempty"`
	Truncated           bool           `json:"truncated"`
	TotalDeclarations   int            `json:"totalDeclarations"`
	OmittedDeclarations int            `json:"omittedDeclarations"`
	Declared            []DeclaredJSON `json:"declared"`
}

// DeclaredJSON is one declaration of a file.
type DeclaredJSON struct {
	Ref  string `json:"ref"`
	Line int    `json:"line"`
}

// NewMarkersJSON lays out a marker report for JSON.
func NewMarkersJSON(rep *app.MarkerReport) *MarkersJSON {
	if rep == nil {
		return nil
	}
	out := &MarkersJSON{
		WindowBytes: markers.WindowBytes, DeclarationLimit: markers.FileCap,
		Files: make([]MarkerFileJSON, len(rep.Files)), BatchOmitted: rep.BatchOmitted,
	}
	for i, f := range rep.Files {
		j := MarkerFileJSON{
			Path: f.Path, State: f.State, Truncated: f.Truncated,
			TotalDeclarations: len(f.Declarations) + f.Omitted, OmittedDeclarations: f.Omitted,
			Declared: make([]DeclaredJSON, len(f.Declarations)),
		}
		if f.State == markers.Scanned {
			n := f.ScannedBytes
			j.ScannedBytes = &n
			if f.FileBytes >= 0 {
				size := f.FileBytes
				j.FileBytes = &size
			}
		}
		for k, d := range f.Declarations {
			j.Declared[k] = DeclaredJSON{Ref: d.Ref, Line: d.Line}
		}
		out.Files[i] = j
	}
	return out
}

package render

import (
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/lineage"
	"github.com/adrkit/adrkit-go/domain/markers"
)

// CheckJSONSchemaVersion is the version of check --format json's shape
// (docs/cli.md): additions keep it, any other change bumps it.
const CheckJSONSchemaVersion = 1

type jsonCheckReport struct {
	SchemaVersion int              `json:"schemaVersion"`
	Tool          jsonTool         `json:"tool"`
	Source        jsonSource       `json:"source"`
	Change        jsonChange       `json:"change"`
	AsOf          string           `json:"asOf"`
	Summary       jsonCheckSummary `json:"summary"`
	Files         []jsonCheckFile  `json:"files"`
	Holds         []jsonCheckHold  `json:"holds"`
	Findings      []jsonCheckFind  `json:"findings"`
}

// jsonChange says what the change was measured against: the revision
// given and the merge base (null when the files were named), whether the
// findings were compared with the corpus before the change, and which
// changed files are record files.
type jsonChange struct {
	Since          *string  `json:"since"`
	Base           *string  `json:"base"`
	BaseCompared   bool     `json:"baseCompared"`
	ChangedRecords []string `json:"changedRecords"`
}

type jsonCheckSummary struct {
	Files    int    `json:"files"`
	Governed int    `json:"governed"`
	Holds    int    `json:"holds"`
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
	Info     int    `json:"info"`
	FailOn   FailOn `json:"failOn"`
	Failed   bool   `json:"failed"`
}

type jsonCheckFile struct {
	Path            string             `json:"path"`
	Markers         jsonFileMarkers    `json:"markers"`
	Governing       []app.ContextEntry `json:"governing"`
	ActiveProposals []app.ContextEntry `json:"activeProposals"`
	History         []app.ContextEntry `json:"history"`
}

type jsonFileMarkers struct {
	State     markers.State  `json:"state"`
	Truncated bool           `json:"truncated"`
	Declared  []DeclaredJSON `json:"declared"`
	Omitted   int            `json:"omittedDeclarations"`
}

type jsonCheckHold struct {
	ID     app.Text       `json:"id"`
	Title  app.Text       `json:"title"`
	Path   app.Text       `json:"sourcePath"`
	Reason lineage.Reason `json:"reason"`
	At     string         `json:"at"`
	Refs   []string       `json:"refs"`
	Action string         `json:"action"`
	Files  []string       `json:"files"`
}

// jsonCheckFind is a finding with why check reports it.
type jsonCheckFind struct {
	jsonFinding
	Cause app.Cause `json:"cause"`
	Fails bool      `json:"fails"`
}

func checkJSON(rep *app.CheckReport, opts CheckOptions) jsonCheckReport {
	out := jsonCheckReport{
		SchemaVersion: CheckJSONSchemaVersion,
		Tool:          jsonTool{Name: opts.Tool.Name, Version: opts.Tool.Version},
		Source:        opts.Source.json(),
		Change: jsonChange{Since: optional(opts.Since), Base: optional(opts.Base),
			BaseCompared: rep.BaseKnown, ChangedRecords: rep.ChangedRecords},
		AsOf: rep.Lint.AsOf,
		Summary: jsonCheckSummary{
			Files: len(rep.Files), Holds: len(rep.Holds),
			Errors: rep.Count(adr.SeverityError), Warnings: rep.Count(adr.SeverityWarn), Info: rep.Count(adr.SeverityInfo),
			FailOn: opts.FailOn, Failed: opts.FailOn.Failed(rep),
		},
		Files:    make([]jsonCheckFile, len(rep.Files)),
		Holds:    make([]jsonCheckHold, len(rep.Holds)),
		Findings: make([]jsonCheckFind, len(rep.Findings)),
	}
	for i, f := range rep.Files {
		if len(f.Governing) > 0 {
			out.Summary.Governed++
		}
		m := jsonFileMarkers{State: f.Markers.State, Truncated: f.Markers.Truncated, Omitted: f.Markers.Omitted,
			Declared: make([]DeclaredJSON, len(f.Markers.Declarations))}
		for k, d := range f.Markers.Declarations {
			m.Declared[k] = DeclaredJSON{Ref: d.Ref, Line: d.Line}
		}
		out.Files[i] = jsonCheckFile{Path: f.Path, Markers: m, Governing: f.Governing, ActiveProposals: f.ActiveProposals, History: f.History}
	}
	for i, h := range rep.Holds {
		out.Holds[i] = jsonCheckHold{ID: h.Decision.ID, Title: h.Decision.Title, Path: h.Decision.SourcePath,
			Reason: h.Reason, At: h.At, Refs: h.Refs, Action: h.Action, Files: h.Files}
	}
	for i, f := range rep.Findings {
		out.Findings[i] = jsonCheckFind{jsonFinding: newJSONFinding(f.Finding), Cause: f.Cause, Fails: f.Fails}
	}
	return out
}

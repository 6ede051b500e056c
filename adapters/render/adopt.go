package render

import (
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/migrate"
)

// WriteMigrate renders a migrate run: a table of every Markdown file
// with what the plan does with it, then each file's relations and
// warnings, then a summary line.
func WriteMigrate(w io.Writer, rep *app.MigrateReport, src Source, st Style) error {
	var b strings.Builder
	head := "adrkit migrate: " + src.String()
	if rep.DryRun {
		head += ", dry run: nothing is written"
	}
	b.WriteString(st.Bold(head) + "\n\n")
	t := table{width: st.width, indent: "  ", yield: []int{5, 2}, header: header(st, "ACTION", "FILE", "FORMAT", "ID", "STATUS", "DATE")}
	for _, f := range rep.Plan.Files {
		name := path.Base(f.Path)
		if f.RenameTo != "" {
			name += " → " + path.Base(f.RenameTo)
		}
		action := string(f.Action)
		if msg := rep.WriteErrors[f.Path]; msg != "" {
			action = "error"
		}
		status := plainCell("-")
		if f.Status != "" {
			status = statusCell(st, f.Status)
		}
		t.add(paintedCell(action, actionPaint(st, action)), plainCell(name), plainCell(dash(string(f.Format))),
			plainCell(dash(f.ID)), status, plainCell(dash(f.Date)))
	}
	b.WriteString(t.String())
	var notes strings.Builder
	for _, f := range rep.Plan.Files {
		var lines []string
		if f.Reason != "" && f.Action == migrate.ActionFail {
			lines = append(lines, st.Bad("not migrated: ")+f.Reason)
		}
		if f.Reason != "" && f.Action == migrate.ActionSkip {
			// Said in the text too, so that a user whose file was left
			// alone learns why without --json.
			lines = append(lines, st.Dim("skipped: ")+f.Reason)
		}
		if msg := rep.WriteErrors[f.Path]; msg != "" {
			lines = append(lines, st.Bad("not written: ")+msg)
		}
		if r := relations(f); r != "" {
			lines = append(lines, r)
		}
		if len(f.Deciders) > 0 {
			lines = append(lines, "deciders "+strings.Join(f.Deciders, ", "))
		}
		for _, warn := range f.Warnings {
			lines = append(lines, st.Severity(adr.SeverityWarn, "warning: ")+warn)
		}
		if len(lines) == 0 {
			continue
		}
		notes.WriteString("  " + st.Bold(path.Base(f.Path)) + "\n")
		for _, l := range lines {
			notes.WriteString("    " + l + "\n")
		}
	}
	if notes.Len() > 0 {
		b.WriteString("\n" + notes.String())
	}
	b.WriteString("\n" + migrateSummary(rep) + "\n")
	return writeString(w, b.String())
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func actionPaint(st Style, action string) func(string) string {
	switch action {
	case string(migrate.ActionFail), "error":
		return st.Bad
	case string(migrate.ActionMigrate):
		return st.Good
	}
	return st.Dim
}

// relations phrases a plan's relations: "supersededBy 0005; supersedes
// 0002; relatesTo 0004".
func relations(f migrate.FilePlan) string {
	var parts []string
	if f.SupersededBy != "" {
		parts = append(parts, "supersededBy "+f.SupersededBy)
	}
	if len(f.Supersedes) > 0 {
		parts = append(parts, "supersedes "+strings.Join(f.Supersedes, ", "))
	}
	if len(f.RelatesTo) > 0 {
		parts = append(parts, "relatesTo "+strings.Join(f.RelatesTo, ", "))
	}
	return strings.Join(parts, "; ")
}

// migrateSummary is the last line of a migrate run.
func migrateSummary(rep *app.MigrateReport) string {
	p := rep.Plan
	verb := "migrated"
	if rep.DryRun {
		verb = "to migrate"
	}
	s := counted(len(p.Files), "Markdown file", "Markdown files") + ": " +
		strconv.Itoa(p.Count(migrate.ActionMigrate)-len(rep.WriteErrors)) + " " + verb + ", " +
		strconv.Itoa(p.Count(migrate.ActionUnchanged)) + " already records, " +
		strconv.Itoa(p.Count(migrate.ActionSkip)) + " not decisions, " +
		strconv.Itoa(p.Count(migrate.ActionFail)+len(rep.WriteErrors)) + " failed."
	switch {
	case rep.DryRun && p.Count(migrate.ActionMigrate) > 0:
		s += " Run it without --dry-run to write."
	case !rep.DryRun && p.Count(migrate.ActionMigrate) > len(rep.WriteErrors):
		s += " Next: adrkit lint."
	}
	return s
}

// MigrateJSONSchemaVersion is the version of the JSON migrate report's
// shape (docs/cli.md): additions keep it, any other change bumps it.
const MigrateJSONSchemaVersion = 1

type jsonMigrate struct {
	SchemaVersion int                `json:"schemaVersion"`
	Source        jsonSource         `json:"source"`
	DryRun        bool               `json:"dryRun"`
	Summary       jsonMigrateSummary `json:"summary"`
	Files         []jsonMigrateFile  `json:"files"`
}

type jsonMigrateSummary struct {
	Migrate   int  `json:"migrate"`
	Unchanged int  `json:"unchanged"`
	Skip      int  `json:"skip"`
	Fail      int  `json:"fail"`
	Failed    bool `json:"failed"`
}

type jsonMigrateFile struct {
	migrate.FilePlan
	// WriteError says why a planned write did not happen.
	WriteError string `json:"writeError,omitempty"`
}

// WriteMigrateJSON renders a migrate run as JSON: the plan of every file
// (action, format, id, status, relations, warnings), and a summary.
func WriteMigrateJSON(w io.Writer, rep *app.MigrateReport, src Source) error {
	p := rep.Plan
	out := jsonMigrate{
		SchemaVersion: MigrateJSONSchemaVersion,
		Source:        jsonSource{Dir: src.Dir},
		DryRun:        rep.DryRun,
		Summary: jsonMigrateSummary{
			Migrate: p.Count(migrate.ActionMigrate) - len(rep.WriteErrors), Unchanged: p.Count(migrate.ActionUnchanged),
			Skip: p.Count(migrate.ActionSkip), Fail: p.Count(migrate.ActionFail) + len(rep.WriteErrors), Failed: rep.Failed(),
		},
		Files: make([]jsonMigrateFile, len(p.Files)),
	}
	for i, f := range p.Files {
		out.Files[i] = jsonMigrateFile{FilePlan: f, WriteError: rep.WriteErrors[f.Path]}
	}
	return WriteJSON(w, out)
}

// WriteNew renders what "adrkit new" wrote.
func WriteNew(w io.Writer, res *app.NewResult, st Style) error {
	if res.DryRun {
		s := "Would write " + st.Bold(res.Path) + " (" + res.ID + ", " + string(res.Status) + "); nothing was written:\n\n" + res.Content
		if res.Superseded != "" {
			s += "\nWould mark " + res.Superseded + " (" + res.Supersedes + ") superseded by " + res.ID + ".\n"
		}
		return writeString(w, s+pendingText(res))
	}
	s := "Wrote " + st.Bold(res.Path) + " (" + res.ID + ", " + string(res.Status) + ").\n"
	if res.Superseded != "" {
		s += "Marked " + res.Superseded + " (" + res.Supersedes + ") superseded by " + res.ID + ".\n"
	}
	return writeString(w, s+pendingText(res))
}

// pendingText says that the record a proposal would replace still
// governs, and how the replacement completes.
func pendingText(res *app.NewResult) string {
	if res.Pending == "" {
		return ""
	}
	return res.Supersedes + " (" + res.Pending + ") still governs; accepting " + res.ID + " marks it superseded: adrkit status " +
		res.ID + " accepted --deciders @handle\n"
}

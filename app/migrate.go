package app

import (
	"context"
	"fmt"
	"path"

	"github.com/adrkit/adrkit-go/domain/migrate"
	"github.com/adrkit/adrkit-go/ports"
)

// MigrateInput configures one migrate run.
type MigrateInput struct {
	Options migrate.Options
	// DryRun plans without writing anything.
	DryRun bool
}

// MigrateReport is what a migrate run planned and did.
type MigrateReport struct {
	Plan   *migrate.Plan
	DryRun bool
	// WriteErrors are the files the plan migrates whose writing failed,
	// by display path; the other files were still written.
	WriteErrors map[string]string
}

// Failed reports a run that left a decision unmigrated: a file the plan
// could not migrate, or a write that failed.
func (r *MigrateReport) Failed() bool {
	return r.Plan.Count(migrate.ActionFail) > 0 || len(r.WriteErrors) > 0
}

// Migrate plans the migration of folder and, unless in.DryRun, writes
// it: each migrated file is replaced atomically, then renamed when the
// plan says so. A write that fails is reported and the others go on. A
// decision that names no date of its own is dated by its first commit,
// when the history knows it.
func Migrate(ctx context.Context, folder ports.FolderWriter, in MigrateInput) (*MigrateReport, error) {
	files, err := folder.MarkdownFiles(ctx)
	if err != nil {
		return nil, err
	}
	plan := migrate.Build(files, in.Options)
	if needsHistory(plan) {
		// The history is read only when some decision has no date: on a
		// large repository walking it is the slowest part of a run.
		if dates, err := folder.FirstCommitDates(); err == nil && len(dates) > 0 {
			for i := range files {
				files[i].HistoryDate = dates[files[i].Name]
			}
			plan = migrate.Build(files, in.Options)
		}
	}
	rep := &MigrateReport{Plan: plan, DryRun: in.DryRun, WriteErrors: map[string]string{}}
	if in.DryRun {
		return rep, nil
	}
	read := map[string][]byte{}
	for _, f := range files {
		read[f.Name] = f.Content
	}
	for _, f := range plan.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f.Action != migrate.ActionMigrate {
			continue
		}
		name := path.Base(f.Path)
		if err := folder.Replace(name, read[name], f.Content); err != nil {
			rep.WriteErrors[f.Path] = err.Error()
			continue
		}
		if f.RenameTo != "" {
			if err := folder.Rename(name, path.Base(f.RenameTo)); err != nil {
				rep.WriteErrors[f.Path] = fmt.Sprintf("written, but not renamed: %v", err)
			}
		}
	}
	return rep, nil
}

// needsHistory reports a plan with a decision dated PlaceholderDate: one
// to migrate, or one that fails (a name discovery does not read, without
// --rename), whose plan shows its date too.
func needsHistory(p *migrate.Plan) bool {
	for _, f := range p.Files {
		if (f.Action == migrate.ActionMigrate || f.Action == migrate.ActionFail) && f.Date == migrate.PlaceholderDate {
			return true
		}
	}
	return false
}

package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/domain/hostconfig"
	"github.com/adrkit/adrkit-go/domain/migrate"
	"github.com/adrkit/adrkit-go/ports"
)

// InitInput is one "adrkit init".
type InitInput struct {
	Hosts  []agenthost.Host
	Launch hostconfig.Launch
	// DryRun decides everything and writes nothing.
	DryRun bool
	// Date is today, YYYY-MM-DD, for the first record.
	Date string
}

// InitReport is what init did (or, with DryRun, would do).
type InitReport struct {
	Files []hostconfig.Result `json:"files"`
	// Record is the first decision record, written because the ADR
	// directory had none; nil when it had records already.
	Record *NewResult `json:"record,omitempty"`
	DryRun bool       `json:"dryRun"`
}

// Changed reports whether anything was (or would be) written.
func (r *InitReport) Changed() bool {
	if r.Record != nil {
		return true
	}
	for _, f := range r.Files {
		if f.Outcome == hostconfig.Create || f.Outcome == hostconfig.Update {
			return true
		}
	}
	return false
}

// Manual reports whether some file needs the user's hand.
func (r *InitReport) Manual() bool {
	for _, f := range r.Files {
		if f.Outcome == hostconfig.Manual {
			return true
		}
	}
	return false
}

// FirstRecordTitle is the title of the record init writes into an empty
// ADR directory.
const FirstRecordTitle = "Record architecture decisions"

// firstRecordBody is that record's body: it says what the log is for and
// how an agent or a person uses it, which is also what init set up.
const firstRecordBody = `
# {{title}}

## Context

Decisions about this repository's architecture are made in conversations,
pull requests and people's heads, and then forgotten. Coding agents working here
cannot see any of those, so they propose again what was already decided,
or rejected.

## Decision

We keep one Markdown file per decision in this directory, with typed
frontmatter that adrkit reads: an id, a title, a status, the date, and
` + "`affects`" + ` patterns naming the files a decision governs.

- A new decision starts as ` + "`proposed`" + `: ` + "`adrkit new \"Title\" --status proposed`" + `.
- A decision that replaces another says so: ` + "`adrkit new \"Title\" --supersedes NNNN`" + `.
- ` + "`adrkit lint`" + ` runs in CI; ` + "`adrkit explain PATH`" + ` tells who governs a file.

Coding agents get the same answers over MCP and, before they edit a governed
file, from the hooks ` + "`adrkit init`" + ` wired.

## Consequences

Decisions are reviewed like code and found by path. Rejected alternatives stay
on record, so they are not proposed again without new facts.
`

// Init wires a repository for the hosts: each target file is created,
// merged or left alone (with a snippet), and when folder has no record
// yet the first one is written. Files are decided before anything is
// written, so a refused input writes nothing.
func Init(ctx context.Context, files ports.RepoFiles, folder ports.FolderWriter, in InitInput) (*InitReport, error) {
	rep := &InitReport{DryRun: in.DryRun}
	for _, t := range hostconfig.Targets(in.Hosts) {
		current, exists, err := readRepoFile(files, t.Path)
		if err != nil {
			return nil, err
		}
		rep.Files = append(rep.Files, hostconfig.Merge(t, in.Launch, current, exists))
	}
	empty, err := hasNoRecord(folder)
	if err != nil {
		return nil, err
	}
	if !in.DryRun {
		for _, f := range rep.Files {
			if f.Outcome == hostconfig.Create || f.Outcome == hostconfig.Update {
				if err := files.Write(f.Path, f.Content); err != nil {
					return rep, err
				}
			}
		}
	}
	if !empty {
		return rep, nil
	}
	target := folder
	if in.DryRun {
		target = &dryFolder{FolderWriter: folder}
	}
	res, err := NewRecord(ctx, target, NewInput{Title: FirstRecordTitle, Status: adr.StatusProposed, Template: firstRecordBody, Date: in.Date})
	if err != nil {
		return rep, fmt.Errorf("writing the first decision record: %w", err)
	}
	rep.Record = res
	return rep, nil
}

// hasNoRecord reports whether the ADR directory holds no file named like
// a record.
func hasNoRecord(folder ports.FolderWriter) (bool, error) {
	names, err := folder.Names()
	if err != nil {
		return false, err
	}
	for _, n := range names {
		if _, ok := migrate.FileNumber(n); ok && strings.HasSuffix(strings.ToLower(n), ".md") {
			return false, nil
		}
	}
	return true, nil
}

// dryFolder is a folder whose writes are only remembered.
type dryFolder struct {
	ports.FolderWriter
}

// Create pretends to write.
func (*dryFolder) Create(string, []byte) error { return nil }

// Replace pretends to write.
func (*dryFolder) Replace(string, []byte, []byte) error { return nil }

// readRepoFile reads the whole file p; exists is false when there is
// none.
func readRepoFile(files ports.RepoFiles, p string) (content []byte, exists bool, err error) {
	content, _, err = files.Read(p, -1)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return content, err == nil, err
}

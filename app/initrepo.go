package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/domain/hostconfig"
	"github.com/adrkit/adrkit-go/domain/migrate"
)

// RepoFiles is the repository's working tree as "adrkit init" reads and
// writes it: paths relative to the root, "/"-separated.
type RepoFiles interface {
	// Read returns a file's bytes; exists is false when there is none.
	Read(rel string) (content []byte, exists bool, err error)
	// Write replaces (or creates) a file atomically, making its
	// directories.
	Write(rel string, content []byte) error
}

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
func Init(ctx context.Context, files RepoFiles, folder NewFolder, in InitInput) (*InitReport, error) {
	rep := &InitReport{DryRun: in.DryRun}
	for _, t := range hostconfig.Targets(in.Hosts) {
		current, exists, err := files.Read(t.Path)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", t.Path, err)
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
					return rep, fmt.Errorf("writing %s: %w", f.Path, err)
				}
			}
		}
	}
	if !empty {
		return rep, nil
	}
	target := folder
	if in.DryRun {
		target = &dryFolder{NewFolder: folder}
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
func hasNoRecord(folder NewFolder) (bool, error) {
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
	NewFolder
}

// Create pretends to write.
func (*dryFolder) Create(string, []byte) error { return nil }

// Replace pretends to write.
func (*dryFolder) Replace(string, []byte) error { return nil }

// EmptyFolder is an ADR directory that does not exist yet, as a dry run
// sees it: no names anywhere, nothing to read.
type EmptyFolder struct {
	// Dir is the directory relative to the root.
	Dir string
}

// Names lists nothing.
func (EmptyFolder) Names() ([]string, error) { return nil, nil }

// BranchNames lists nothing.
func (EmptyFolder) BranchNames() ([]string, error) { return nil, nil }

// MarkdownFiles lists nothing.
func (EmptyFolder) MarkdownFiles(context.Context) ([]migrate.File, error) { return nil, nil }

// Create refuses: the directory does not exist.
func (e EmptyFolder) Create(string, []byte) error {
	return fmt.Errorf("the ADR directory %s does not exist", e.Dir)
}

// Replace refuses: the directory does not exist.
func (e EmptyFolder) Replace(string, []byte) error { return e.Create("", nil) }

// DisplayPath is name inside Dir.
func (e EmptyFolder) DisplayPath(name string) string {
	if e.Dir == "" || e.Dir == "." {
		return name
	}
	return strings.TrimSuffix(e.Dir, "/") + "/" + name
}

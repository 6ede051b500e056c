package app

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/migrate"
	"github.com/adrkit/adrkit-go/ports"
)

// Errors of the editing commands, each a different exit for the command
// line.
var (
	// ErrEditInput wraps a refused request: an unknown status, a
	// malformed id, superseded without a replacement, accepted without a
	// decider. Nothing is written.
	ErrEditInput = errors.New("invalid request")
	// ErrEditConflict wraps a state of the directory that stops the edit:
	// no record with the id (as show and chain find none: the same exit
	// on the command line), two records with it, a result that would not
	// be valid. Nothing is written.
	ErrEditConflict = errors.New("cannot edit the records")
)

// FileEdit is one file an edit changes: the lines of it that change, and
// for a rename its new path.
type FileEdit struct {
	Path string `json:"path"`
	// RenameTo is the file's new path, when it is renamed.
	RenameTo string                   `json:"renameTo,omitempty"`
	Lines    []frontmatter.LineChange `json:"lines"`
	// Error says why the file was not written (the others were).
	Error string `json:"error,omitempty"`

	name    string // in the folder; "" for a file outside it
	old     []byte // the bytes read, which only these may replace
	content []byte
}

// StatusInput is one "adrkit status".
type StatusInput struct {
	ID     string
	Status adr.Status
	// By is the id of the replacing record, for StatusSuperseded.
	By string
	// Deciders, when given, replace the record's deciders: accepted needs
	// at least one.
	Deciders []string
	DryRun   bool
}

// StatusResult is what a status change changed, or would change.
type StatusResult struct {
	ID     string     `json:"id"`
	Status adr.Status `json:"status"`
	By     string     `json:"by,omitempty"`
	DryRun bool       `json:"dryRun"`
	// Files are the files changed, in code-unit order of their paths; none
	// when the record had that status already.
	Files []FileEdit `json:"files"`
}

// Failed reports a run where a file could not be written.
func (r *StatusResult) Failed() bool {
	return slices.ContainsFunc(r.Files, func(f FileEdit) bool { return f.Error != "" })
}

// folderRecord is a valid record of the ADR directory and its text.
type folderRecord struct {
	name, path, text string
	rec              *adr.Record
}

// readFolderRecords parses every Markdown file at the top level of the
// directory and keeps the valid records.
func readFolderRecords(ctx context.Context, folder ports.FolderWriter) ([]folderRecord, error) {
	files, err := folder.MarkdownFiles(ctx)
	if err != nil {
		return nil, err
	}
	var out []folderRecord
	for _, f := range files {
		text := jsstring.DecodeUTF8(f.Content)
		if rec, _ := frontmatter.ParseRecord(f.Path, text); rec != nil {
			out = append(out, folderRecord{name: path.Base(f.Name), path: f.Path, text: string(f.Content), rec: rec})
		}
	}
	return out, nil
}

// oneRecord returns the record with id: none, or two, are a conflict.
func oneRecord(recs []folderRecord, id, what string) (*folderRecord, error) {
	var found []*folderRecord
	for i := range recs {
		if recs[i].rec.Frontmatter.ID == id {
			found = append(found, &recs[i])
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("%w: no valid record has the id %s%s", ErrEditConflict, id, what)
	case 1:
		return found[0], nil
	}
	paths := make([]string, len(found))
	for i, f := range found {
		paths[i] = f.path
	}
	return nil, fmt.Errorf("%w: %d records have the id %s (%s); renumber one first: adrkit renumber %s --next",
		ErrEditConflict, len(found), id, strings.Join(paths, ", "), id)
}

// editSet gathers the field edits of several records, each applied to
// the record's text in turn.
type editSet struct {
	order []*folderRecord
	edits map[*folderRecord][]frontmatter.FieldEdit
}

func (s *editSet) add(r *folderRecord, key string, value any) {
	if s.edits == nil {
		s.edits = map[*folderRecord][]frontmatter.FieldEdit{}
	}
	if _, ok := s.edits[r]; !ok {
		s.order = append(s.order, r)
	}
	s.edits[r] = append(s.edits[r], frontmatter.FieldEdit{Key: key, Value: value})
}

// build applies the edits to each record, checking each result, and
// returns the files that change, in code-unit order of their paths.
// Nothing is written.
func (s *editSet) build() ([]FileEdit, error) {
	var out []FileEdit
	for _, r := range s.order {
		text, lines, err := frontmatter.EditFields(r.path, r.text, s.edits[r])
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrEditConflict, err)
		}
		if len(lines) == 0 {
			continue
		}
		out = append(out, FileEdit{Path: r.path, Lines: lines, name: r.name, old: []byte(r.text), content: []byte(text)})
	}
	slices.SortFunc(out, func(a, b FileEdit) int { return jsstring.Compare(a.Path, b.Path) })
	return out, nil
}

// writeEdits replaces each changed file; a failure is recorded on the
// file and the others are still written.
func writeEdits(folder ports.FolderWriter, files []FileEdit) {
	for i := range files {
		if err := folder.Replace(files[i].name, files[i].old, files[i].content); err != nil {
			files[i].Error = err.Error()
		}
	}
}

// without returns list without id, and whether it held it.
func without(list []string, id string) ([]string, bool) {
	if !slices.Contains(list, id) {
		return list, false
	}
	return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return s == id }), true
}

// SetStatus changes the status of the record in.ID, changing only its
// status line (and its deciders, when given), and the relation lines that
// must follow: superseded sets supersededBy on it and adds it to the
// replacing record's supersedes; a record that stops being superseded
// loses its supersededBy, and the record that replaced it stops listing
// it; accepted completes the replacement of every record its supersedes
// names, which governed until now (ADR 0045), marking each superseded by
// it in the same run. Every result is checked to be a valid record equal
// to the old one but for those fields before anything is written; each
// file is replaced atomically.
func SetStatus(ctx context.Context, folder ports.FolderWriter, in StatusInput) (*StatusResult, error) {
	if !slices.Contains(adr.Statuses, in.Status) {
		return nil, fmt.Errorf("%w: the status must be one of %s, got %q", ErrEditInput, strings.Join(stringsOf(adr.Statuses), ", "), in.Status)
	}
	if !adr.ValidID(in.ID) {
		return nil, fmt.Errorf("%w: %q is not a record id such as 0007", ErrEditInput, in.ID)
	}
	switch {
	case in.Status == adr.StatusSuperseded && in.By == "":
		return nil, fmt.Errorf("%w: superseded needs the replacing record: add --by ID", ErrEditInput)
	case in.Status != adr.StatusSuperseded && in.By != "":
		return nil, fmt.Errorf("%w: --by names the replacing record, and applies only to superseded", ErrEditInput)
	case in.By != "" && !adr.ValidID(in.By):
		return nil, fmt.Errorf("%w: --by takes a record id such as 0007, got %q", ErrEditInput, in.By)
	case in.By == in.ID && in.By != "":
		return nil, fmt.Errorf("%w: a record cannot supersede itself", ErrEditInput)
	}
	for _, d := range in.Deciders {
		if !migrate.IsIdentity(d) {
			return nil, fmt.Errorf("%w: decider %q is not an @handle, team:slug or email address", ErrEditInput, d)
		}
	}
	recs, err := readFolderRecords(ctx, folder)
	if err != nil {
		return nil, err
	}
	target, err := oneRecord(recs, in.ID, "")
	if err != nil {
		return nil, err
	}
	var set editSet
	set.add(target, "status", string(in.Status))
	fm := target.rec.Frontmatter
	if len(in.Deciders) > 0 {
		set.add(target, "deciders", in.Deciders)
	}
	if in.Status == adr.StatusAccepted {
		if err := accepting(recs, target, in, &set); err != nil {
			return nil, err
		}
	}
	if in.By != "" {
		by, err := oneRecord(recs, in.By, " (--by)")
		if err != nil {
			return nil, err
		}
		set.add(target, "supersededBy", in.By)
		if !slices.Contains(by.rec.Frontmatter.Supersedes, in.ID) {
			set.add(by, "supersedes", append(slices.Clone(by.rec.Frontmatter.Supersedes), in.ID))
		}
	} else if fm.SupersededBy != "" {
		set.add(target, "supersededBy", nil)
	}
	// The record that replaced it before, when that changes.
	if old := fm.SupersededBy; old != "" && old != in.By {
		if prev, err := oneRecord(recs, old, ""); err == nil {
			if list, had := without(prev.rec.Frontmatter.Supersedes, in.ID); had {
				set.add(prev, "supersedes", list)
			}
		}
	}
	files, err := set.build()
	if err != nil {
		return nil, err
	}
	res := &StatusResult{ID: in.ID, Status: in.Status, By: in.By, DryRun: in.DryRun, Files: files}
	if res.Files == nil {
		res.Files = []FileEdit{}
	}
	if !in.DryRun {
		writeEdits(folder, res.Files)
	}
	return res, nil
}

// accepting adds to set what accepting target needs: deciders, and the
// replacement of each record its supersedes names, which a proposal only
// announced (ADR 0045). A missing decider is refused naming the flag
// that supplies one.
func accepting(recs []folderRecord, target *folderRecord, in StatusInput, set *editSet) error {
	fm := target.rec.Frontmatter
	imported := fm.Provenance != nil && fm.Provenance.ImportedFrom != nil
	if len(in.Deciders) == 0 && len(fm.Deciders) == 0 && !imported {
		return fmt.Errorf("%w: an accepted decision names who decided: add --deciders @handle (several: --deciders @a,team:b)", ErrEditInput)
	}
	if p := fm.Provenance; p != nil && (p.AuthoredBy == "agent" || p.AuthoredBy == "agent-drafted") && p.RatifiedBy == "" {
		// No option writes a nested field: say which line to add.
		return fmt.Errorf("%w: an agent wrote %s, so a person must ratify it before it is accepted: add ratifiedBy: \"@handle\" "+
			"under provenance in %s, then run this again", ErrEditInput, in.ID, target.path)
	}
	for _, ref := range fm.Supersedes {
		if adr.ParseRef(ref).Federated() {
			continue // another log's record: not ours to mark
		}
		old, err := oneRecord(recs, ref, " (in the supersedes of "+in.ID+")")
		if err != nil {
			return err
		}
		switch ofm := old.rec.Frontmatter; {
		case ofm.SupersededBy == in.ID:
		case ofm.SupersededBy != "":
			return fmt.Errorf("%w: %s lists %s in its supersedes, but %s is already superseded by %s: remove it from %s's supersedes, "+
				"or mark it with adrkit status %s superseded --by %s", ErrEditConflict, in.ID, ref, old.path, ofm.SupersededBy, in.ID, ref, in.ID)
		default:
			set.add(old, "status", string(adr.StatusSuperseded))
			set.add(old, "supersededBy", in.ID)
		}
	}
	return nil
}

package app

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/domain/mdlink"
	"github.com/adrkit/adrkit-go/domain/migrate"
	"github.com/adrkit/adrkit-go/domain/scaffold"
	"github.com/adrkit/adrkit-go/ports"
)

// RenumberInput is one "adrkit renumber".
type RenumberInput struct {
	ID string
	// NewID is the id to give; with Next, the next number free in the
	// working tree and on every branch is taken instead.
	NewID  string
	Next   bool
	DryRun bool
}

// RenumberResult is what a renumbering changed, or would change.
type RenumberResult struct {
	ID     string `json:"id"`
	NewID  string `json:"newId"`
	DryRun bool   `json:"dryRun"`
	// Files are the files changed: the record (renamed), the records
	// whose relations name it, the files whose @adr markers do.
	Files []FileEdit `json:"files"`
}

// Failed reports a run where a file could not be written or renamed.
func (r *RenumberResult) Failed() bool {
	return slices.ContainsFunc(r.Files, func(f FileEdit) bool { return f.Error != "" })
}

// Renumber gives the record in.ID a new id: its file is renamed (the
// number its name starts with replaced), its id line rewritten, every
// relation in another record that names it (supersedes, supersededBy,
// relatesTo, conflictsWith), every @adr marker in a tracked file that
// declares it and every Markdown link to its old file name rewritten,
// and nothing else. Every record edit is checked before anything is
// written. A new id another file holds, in the working tree or on a
// branch, is refused.
func Renumber(ctx context.Context, folder ports.FolderWriter, repo ports.RepoFiles, in RenumberInput) (*RenumberResult, error) {
	switch {
	case !adr.ValidID(in.ID):
		return nil, fmt.Errorf("%w: %q is not a record id such as 0007", ErrEditInput, in.ID)
	case in.Next == (in.NewID != ""):
		return nil, fmt.Errorf("%w: name the new id, or ask for the next free one with --next", ErrEditInput)
	case in.NewID != "" && !adr.ValidID(in.NewID):
		return nil, fmt.Errorf("%w: the new id must be a record id such as 0007, got %q", ErrEditInput, in.NewID)
	case in.NewID == in.ID:
		return nil, fmt.Errorf("%w: %s is the record's id already", ErrEditInput, in.ID)
	}
	recs, err := readFolderRecords(ctx, folder)
	if err != nil {
		return nil, err
	}
	target, err := oneRecord(recs, in.ID, "")
	if err != nil {
		return nil, err
	}
	names, branch, err := takenNames(folder)
	if err != nil {
		return nil, err
	}
	newID := in.NewID
	if in.Next {
		newID = scaffold.NextNumber(append(slices.Clone(names), branch...))
	} else if err := idFree(recs, names, branch, newID); err != nil {
		return nil, err
	}
	newName := renumberedName(target.name, in.ID, newID)
	if newName != target.name && slices.Contains(names, newName) {
		return nil, fmt.Errorf("%w: %s exists already", ErrEditConflict, folder.DisplayPath(newName))
	}

	var set editSet
	set.add(target, "id", newID)
	for i := range recs {
		r := &recs[i]
		if r == target {
			continue
		}
		fm := r.rec.Frontmatter
		if fm.SupersededBy == in.ID {
			set.add(r, "supersededBy", newID)
		}
		for _, rel := range []struct {
			key  string
			list []string
		}{{"supersedes", fm.Supersedes}, {"relatesTo", fm.RelatesTo}, {"conflictsWith", fm.ConflictsWith}} {
			if slices.Contains(rel.list, in.ID) {
				set.add(r, rel.key, replaced(rel.list, in.ID, newID))
			}
		}
	}
	files, err := set.build()
	if err != nil {
		return nil, err
	}
	for i := range files {
		if files[i].Path == target.path && newName != target.name {
			files[i].RenameTo = folder.DisplayPath(newName)
		}
	}
	files, err = repoEdits(ctx, folder, repo, files, in.ID, newID, target.path, folder.DisplayPath(newName))
	if err != nil {
		return nil, err
	}
	res := &RenumberResult{ID: in.ID, NewID: newID, DryRun: in.DryRun, Files: files}
	if in.DryRun {
		return res, nil
	}
	for i := range res.Files {
		f := &res.Files[i]
		var err error
		if f.name != "" {
			err = folder.Replace(f.name, f.old, f.content)
		} else {
			err = repo.Write(f.Path, f.content)
		}
		if err != nil {
			f.Error = err.Error()
			continue
		}
		if f.RenameTo != "" {
			if err := folder.Rename(f.name, path.Base(f.RenameTo)); err != nil {
				f.Error = "written, but not renamed: " + err.Error()
			}
		}
	}
	return res, nil
}

// idFree refuses a new id that a record holds, or whose number a file
// name starts with in the working tree or on a branch.
func idFree(recs []folderRecord, names, branch []string, id string) error {
	for _, r := range recs {
		if r.rec.Frontmatter.ID == id {
			return fmt.Errorf("%w: %s holds the id %s; choose another, or take the next free one with --next", ErrEditConflict, r.path, id)
		}
	}
	for _, list := range []struct {
		names []string
		where string
	}{{names, "in the working tree"}, {branch, "on a branch"}} {
		for _, n := range list.names {
			if num, ok := migrate.FileNumber(n); ok && sameNumber(num, id) {
				return fmt.Errorf("%w: %s %s starts with %s; choose another, or take the next free one with --next", ErrEditConflict, n, list.where, id)
			}
		}
	}
	return nil
}

// sameNumber reports whether two digit strings are one number.
func sameNumber(a, b string) bool {
	return strings.TrimLeft(a, "0") == strings.TrimLeft(b, "0")
}

// renumberedName is the record's file name for its new id: the number
// the name starts with replaced by the new id, when it is the old id's
// number; otherwise the name is kept.
func renumberedName(name, oldID, newID string) string {
	n := fileNumber(name)
	if n == "" || !sameNumber(n, oldID) {
		return name
	}
	return newID + name[len(n):]
}

// replaced is list with every old replaced by new.
func replaced(list []string, old, new string) []string {
	out := slices.Clone(list)
	for i, s := range out {
		if s == old {
			out[i] = new
		}
	}
	return out
}

// maxLinkFile is the largest Markdown file renumber reads whole for
// links: larger ones are generated, not written by people.
const maxLinkFile = 1 << 20

// repoEdits adds to the record edits the other lines a renumbering
// changes: @adr markers that declare record from, in every tracked file
// and every Markdown file of the ADR directory, and Markdown links to
// the record's old file name (oldPath), pointed at newPath. A file the
// record edits change already gets these on top; any other file's head
// is read first, and only a file that needs it is read whole.
func repoEdits(ctx context.Context, folder ports.FolderWriter, repo ports.RepoFiles, records []FileEdit, from, to, oldPath, newPath string) ([]FileEdit, error) {
	tracked, err := repo.TrackedFiles()
	if err != nil {
		return nil, err
	}
	adrFiles, err := folder.MarkdownFiles(ctx)
	if err != nil {
		return nil, err
	}
	edited := map[string]int{}
	for i, f := range records {
		edited[f.Path] = i
	}
	inDir := map[string][]byte{}
	paths := slices.Clone(tracked)
	for _, f := range adrFiles {
		inDir[f.Path] = f.Content
		paths = append(paths, f.Path)
	}
	slices.SortFunc(paths, jsstring.Compare)
	paths = slices.Compact(paths)
	out := slices.Clone(records)
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		markdown := isMarkdownPath(p)
		var src []byte
		i, isRecord := edited[p]
		switch content, ok := inDir[p]; {
		case isRecord:
			src = out[i].content
		case ok:
			src = content
		default:
			head, more, err := repo.Read(p, markers.WindowBytes)
			if err != nil {
				continue // gone or not regular in the working tree: nothing to rewrite
			}
			declares := slices.ContainsFunc(markers.ScanHead(p, head, more).Declarations, func(d markers.Declaration) bool {
				return d.Log == "" && d.ID == from
			})
			if !declares && !(markdown && (more || strings.Contains(string(head), path.Base(oldPath)))) {
				continue
			}
			src = head
			if more {
				limit := maxLinkFile
				if declares {
					limit = -1 // a marker to rewrite: the whole file, whatever its size
				}
				whole, longer, err := repo.Read(p, limit)
				if err != nil || longer {
					continue // never write back part of a file
				}
				src = whole
			}
		}
		updated, lines := markers.Rewrite(p, src, from, to)
		if markdown {
			var linked []int
			updated, linked = mdlink.Retarget(p, updated, oldPath, newPath)
			lines = append(lines, linked...)
			slices.Sort(lines)
			lines = slices.Compact(lines)
		}
		if len(lines) == 0 {
			continue
		}
		oldLines, newLines := splitLines(string(src)), splitLines(string(updated))
		var changes []frontmatter.LineChange
		for _, n := range lines {
			changes = append(changes, frontmatter.LineChange{Line: n, Old: []string{oldLines[n-1]}, New: []string{newLines[n-1]}})
		}
		if isRecord {
			out[i].content = updated
			out[i].Lines = append(out[i].Lines, changes...)
			continue
		}
		f := FileEdit{Path: p, Lines: changes, content: updated}
		if _, ok := inDir[p]; ok {
			f.name = path.Base(p)
		}
		out = append(out, f)
	}
	slices.SortStableFunc(out, func(a, b FileEdit) int { return jsstring.Compare(a.Path, b.Path) })
	return out, nil
}

// isMarkdownPath reports a Markdown file by its extension, in any case.
func isMarkdownPath(p string) bool {
	lower := strings.ToLower(p)
	return strings.HasSuffix(lower, ".md") || strings.HasSuffix(lower, ".markdown")
}

// splitLines splits text at CRLF, CR and LF, as the marker scan counts
// lines.
func splitLines(text string) []string {
	return strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(text), "\n")
}

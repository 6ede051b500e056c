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
	"github.com/adrkit/adrkit-go/domain/lineage"
	"github.com/adrkit/adrkit-go/domain/migrate"
	"github.com/adrkit/adrkit-go/domain/scaffold"
	"github.com/adrkit/adrkit-go/ports"
)

// takenNames reads the names of the working tree and of every branch.
func takenNames(folder ports.FolderWriter) (names, branch []string, err error) {
	if names, err = folder.Names(); err != nil {
		return nil, nil, err
	}
	if branch, err = folder.BranchNames(); err != nil {
		return nil, nil, err
	}
	return names, branch, nil
}

// Errors of NewRecord, each a different exit for the command line.
var (
	// ErrNewInput wraps a refused input (title, status, deciders, ref).
	ErrNewInput = errors.New("invalid input")
	// ErrNewConflict wraps a state of the directory that stops the write:
	// the file exists, the record to supersede is missing or ambiguous.
	ErrNewConflict = errors.New("cannot write the record")
)

// NewInput is one "adrkit new".
type NewInput struct {
	Title    string
	Status   adr.Status
	Deciders []string
	// Supersedes is the id of a record the new one replaces.
	Supersedes string
	// Template is the body to use instead of the default, with its
	// placeholders not yet filled; "" for the default.
	Template string
	// Date is today, YYYY-MM-DD.
	Date string
	// DryRun builds and checks everything and writes nothing.
	DryRun bool
}

// NewResult is what NewRecord wrote.
type NewResult struct {
	ID      string     `json:"id"`
	Path    string     `json:"path"`
	Title   string     `json:"title"`
	Status  adr.Status `json:"status"`
	Date    string     `json:"date"`
	Content string     `json:"-"`
	// Superseded is the path of the record marked superseded, if any.
	Superseded string `json:"superseded,omitempty"`
	// Supersedes is the id of the record the new one replaces or, while
	// it is a draft or a proposal, would replace.
	Supersedes string `json:"supersedes,omitempty"`
	// Pending is the path of the record the new one would replace once
	// accepted: it was left as it is, and still governs (ADR 0045).
	Pending string `json:"pending,omitempty"`
	// DryRun says nothing was written: the result is what would be.
	DryRun bool `json:"dryRun,omitempty"`
}

// NewStatuses are the statuses a new record may start with: superseded
// needs a replacement, which a new record cannot have yet.
var NewStatuses = []adr.Status{adr.StatusDraft, adr.StatusProposed, adr.StatusAccepted, adr.StatusRejected, adr.StatusDeprecated}

// NewRecord writes a new record: the next number free in the working
// tree and on every branch, minimal valid frontmatter and a short body.
// With Supersedes the new record lists that record and starts with its
// affects; a draft or a proposal leaves it as it is (it governs until the
// new record is accepted: SetStatus completes the replacement, ADR
// 0045), any other status also marks it superseded, changing only its
// status and supersededBy lines. Both files are built and checked before
// anything is written; the new file is created first (so an existing one
// stops the run with nothing written) and the old record replaced last.
func NewRecord(ctx context.Context, folder ports.FolderWriter, in NewInput) (*NewResult, error) {
	if err := checkNewInput(in); err != nil {
		return nil, err
	}
	names, branch, err := takenNames(folder)
	if err != nil {
		return nil, err
	}
	id := scaffold.NextNumber(append(slices.Clone(names), branch...))
	fm := &adr.Frontmatter{ID: id, Title: in.Title, Status: in.Status, Date: in.Date, Deciders: in.Deciders}
	var oldName, oldText, marked string
	if in.Supersedes != "" {
		oldName, oldText, err = findRecord(ctx, folder, in.Supersedes)
		if err != nil {
			return nil, err
		}
		fm.Supersedes = []string{in.Supersedes}
		if !lineage.Pending(in.Status) {
			marked, _, err = frontmatter.EditFields(folder.DisplayPath(oldName), oldText, []frontmatter.FieldEdit{
				{Key: "status", Value: string(adr.StatusSuperseded)}, {Key: "supersededBy", Value: id},
			})
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrNewConflict, err)
			}
		}
	}
	block, err := frontmatter.Marshal(fm, "\n", "")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNewInput, err)
	}
	head := string(block)
	if oldText != "" {
		if head, err = frontmatter.CopyAffects(head, oldText); err != nil {
			return nil, fmt.Errorf("%w: copying the affects of %s: %v", ErrNewConflict, folder.DisplayPath(oldName), err)
		}
	}
	body := scaffold.Body(in.Title)
	if in.Template != "" {
		body = scaffold.Fill(in.Template, id, in.Title, in.Date, string(in.Status))
		if !strings.HasPrefix(body, "\n") {
			body = "\n" + body
		}
	}
	name := scaffold.FileName(id, in.Title)
	content := scaffold.WithAffectsHint(head) + body
	if rec, findings := frontmatter.ParseRecord(folder.DisplayPath(name), content); rec == nil {
		return nil, fmt.Errorf("%w: the record would not be valid: %s", ErrNewInput, findings[0].Message)
	}
	res := &NewResult{ID: id, Path: folder.DisplayPath(name), Title: in.Title, Status: in.Status, Date: in.Date, Content: content}
	if oldName != "" {
		res.Supersedes = in.Supersedes
		if marked == "" {
			res.Pending = folder.DisplayPath(oldName)
		}
	}
	if in.DryRun {
		if slices.Contains(names, name) {
			return nil, fmt.Errorf("%w: %s exists", ErrNewConflict, res.Path)
		}
		if marked != "" {
			res.Superseded = folder.DisplayPath(oldName)
		}
		res.DryRun = true
		return res, nil
	}
	if err := folder.Create(name, []byte(content)); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNewConflict, err)
	}
	if marked != "" {
		if err := folder.Replace(oldName, []byte(oldText), []byte(marked)); err != nil {
			return res, fmt.Errorf("%s was written, but %s could not be marked superseded: %w", res.Path, folder.DisplayPath(oldName), err)
		}
		res.Superseded = folder.DisplayPath(oldName)
	}
	return res, nil
}

// checkNewInput refuses what cannot make a valid record.
func checkNewInput(in NewInput) error {
	if !slices.Contains(NewStatuses, in.Status) {
		return fmt.Errorf("%w: the status must be one of draft, proposed, accepted, rejected or deprecated (superseded comes from a newer record's --supersedes), got %q", ErrNewInput, in.Status)
	}
	if n := jsstring.Len(in.Title); n < 3 || n > 120 || strings.TrimSpace(in.Title) != in.Title || strings.ContainsAny(in.Title, "\r\n") {
		return fmt.Errorf("%w: the title must be one line of 3 to 120 characters without spaces around it, got %q", ErrNewInput, in.Title)
	}
	for _, d := range in.Deciders {
		if !migrate.IsIdentity(d) {
			return fmt.Errorf("%w: decider %q is not an @handle, team:slug or email address", ErrNewInput, d)
		}
	}
	if in.Status == adr.StatusAccepted && len(in.Deciders) == 0 {
		return fmt.Errorf("%w: an accepted decision names its deciders: add --deciders", ErrNewInput)
	}
	if in.Supersedes != "" && !adr.ValidID(in.Supersedes) {
		return fmt.Errorf("%w: --supersedes takes a record id such as 0007, got %q", ErrNewInput, in.Supersedes)
	}
	if in.Supersedes != "" && in.Status == adr.StatusRejected {
		return fmt.Errorf("%w: a rejected record replaces nothing: leave out --supersedes", ErrNewInput)
	}
	return nil
}

// findRecord returns the one valid record with id in the working tree.
func findRecord(ctx context.Context, folder ports.FolderWriter, id string) (string, string, error) {
	files, err := folder.MarkdownFiles(ctx)
	if err != nil {
		return "", "", err
	}
	var found []migrate.File
	for _, f := range files {
		rec, _ := frontmatter.ParseRecord(f.Path, jsstring.DecodeUTF8(f.Content))
		if rec != nil && rec.Frontmatter.ID == id {
			if rec.Frontmatter.Status == adr.StatusSuperseded {
				return "", "", fmt.Errorf("%w: %s is already superseded by %s", ErrNewConflict, f.Path, rec.Frontmatter.SupersededBy)
			}
			found = append(found, f)
		}
	}
	switch len(found) {
	case 0:
		return "", "", fmt.Errorf("%w: no valid record has the id %s", ErrNewConflict, id)
	case 1:
		return path.Base(found[0].Name), string(found[0].Content), nil
	}
	return "", "", fmt.Errorf("%w: %d records have the id %s", ErrNewConflict, len(found), id)
}

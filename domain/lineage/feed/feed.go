// Package feed is the pure part of the decision change feed: what changed
// between two snapshots of the ADR directory, record by record, in a fixed
// order; the feed's cursor; and the reasons a history cannot be read.
//
// A snapshot holds the candidate files of the directory (the names record
// discovery accepts) and, for each, the record it holds when it is a valid
// record. Only valid records are records: a file that stops being a valid
// record leaves the feed as "removed" and one that becomes valid enters it
// as "added", each with a cause saying which (docs/adr/0006).
package feed

import (
	"slices"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// Kind is what happened to a record in one commit.
type Kind string

// The five kinds, in their tie-break order within one commit and id: a
// record that leaves comes before one that arrives, a move before what
// changed inside the file.
const (
	Removed       Kind = "removed"
	Added         Kind = "added"
	Renamed       Kind = "renamed"
	StatusChanged Kind = "status-changed"
	Edited        Kind = "edited"
)

// Kinds lists every kind in tie-break order.
var Kinds = []Kind{Removed, Added, Renamed, StatusChanged, Edited}

// Cause says why a record was added or removed.
type Cause string

// Causes of added and removed.
const (
	// FileCreated: the file did not exist before (added).
	FileCreated Cause = "file-created"
	// FileDeleted: the file no longer exists (removed).
	FileDeleted Cause = "file-deleted"
	// BecameValid: the file existed but was not a valid record (added).
	BecameValid Cause = "became-valid"
	// BecameInvalid: the file still exists but is no longer a valid
	// record, so no tool can return it (removed).
	BecameInvalid Cause = "became-invalid"
	// IDChanged: the same file holds a record with another id (both).
	IDChanged Cause = "id-changed"
)

// Record is what a feed needs of a valid record.
type Record struct {
	ID     string
	Title  string
	Status adr.Status
}

// File is one candidate file of a snapshot.
type File struct {
	// Path is the display path (relative to the repository root).
	Path string
	// Object identifies the content: equal objects mean equal bytes.
	Object string
	// Record is nil when the file is not a valid record.
	Record *Record
}

// Change is one record-level change of one commit.
type Change struct {
	Kind Kind
	ID   string
	// Title and Status are the record's after the change; before it for
	// Removed.
	Title      string
	Status     adr.Status
	SourcePath string
	// FromPath is the path before a rename; empty otherwise.
	FromPath string
	// Before and After are the statuses of a status change; empty
	// otherwise.
	Before, After adr.Status
	// Cause is set on Added and Removed only.
	Cause Cause
}

// Diff lists the record-level changes from before to after (the candidate
// files of the ADR directory in a commit's first parent and in the
// commit), in Compare order.
//
// Records are matched by id. A record at the same path on both sides is
// status-changed when its status differs, edited when only its bytes do.
// Otherwise, when exactly one record with the id left a path and exactly
// one arrived at another, it was renamed (and may be status-changed or
// edited as well, as a second change). Anything else with the id is
// removed or added, with the cause read from what the path holds on the
// other side.
func Diff(before, after []File) []Change {
	bPath, bID := index(before)
	aPath, aID := index(after)
	ids := make([]string, 0, len(bID)+len(aID))
	for id := range bID {
		ids = append(ids, id)
	}
	for id := range aID {
		if _, ok := bID[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, jsstring.Compare)

	var out []Change
	for _, id := range ids {
		bs, as := bID[id], aID[id]
		var leftB, leftA []File
		for _, b := range bs {
			if a, ok := find(as, b.Path); ok {
				out = appendContent(out, b, a)
			} else {
				leftB = append(leftB, b)
			}
		}
		for _, a := range as {
			if _, ok := find(bs, a.Path); !ok {
				leftA = append(leftA, a)
			}
		}
		if len(leftB) == 1 && len(leftA) == 1 {
			b, a := leftB[0], leftA[0]
			out = append(out, changeOf(Renamed, a))
			out[len(out)-1].FromPath = b.Path
			out = appendContent(out, b, a)
			continue
		}
		for _, b := range leftB {
			c := changeOf(Removed, b)
			switch o, ok := aPath[b.Path]; {
			case !ok:
				c.Cause = FileDeleted
			case o.Record == nil:
				c.Cause = BecameInvalid
			default:
				c.Cause = IDChanged
			}
			out = append(out, c)
		}
		for _, a := range leftA {
			c := changeOf(Added, a)
			switch o, ok := bPath[a.Path]; {
			case !ok:
				c.Cause = FileCreated
			case o.Record == nil:
				c.Cause = BecameValid
			default:
				c.Cause = IDChanged
			}
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, Compare)
	return out
}

// appendContent appends what changed inside a record that is on both
// sides (b before, a after): its status, or else its bytes.
func appendContent(out []Change, b, a File) []Change {
	switch {
	case b.Record.Status != a.Record.Status:
		c := changeOf(StatusChanged, a)
		c.Before, c.After = b.Record.Status, a.Record.Status
		return append(out, c)
	case b.Object != a.Object:
		return append(out, changeOf(Edited, a))
	}
	return out
}

func changeOf(k Kind, f File) Change {
	return Change{Kind: k, ID: f.Record.ID, Title: f.Record.Title, Status: f.Record.Status, SourcePath: f.Path}
}

// index maps a snapshot by path (every file) and by id (valid records).
// A path listed twice keeps its first entry, as discovery would.
func index(files []File) (map[string]File, map[string][]File) {
	byPath := make(map[string]File, len(files))
	byID := map[string][]File{}
	for _, f := range files {
		if _, dup := byPath[f.Path]; dup {
			continue
		}
		byPath[f.Path] = f
		if f.Record != nil {
			byID[f.Record.ID] = append(byID[f.Record.ID], f)
		}
	}
	return byPath, byID
}

func find(fs []File, path string) (File, bool) {
	for _, f := range fs {
		if f.Path == path {
			return f, true
		}
	}
	return File{}, false
}

// Compare orders the changes of one commit: by id, then kind (Kinds
// order), then source path, then the path a rename came from, each string
// in UTF-16 code-unit order. No two changes of one commit compare equal.
func Compare(a, b Change) int {
	if c := jsstring.Compare(a.ID, b.ID); c != 0 {
		return c
	}
	if c := slices.Index(Kinds, a.Kind) - slices.Index(Kinds, b.Kind); c != 0 {
		return c
	}
	if c := jsstring.Compare(a.SourcePath, b.SourcePath); c != 0 {
		return c
	}
	return jsstring.Compare(a.FromPath, b.FromPath)
}

package feed

import (
	"fmt"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// snap builds a snapshot from "path object [id status]" specs; a spec
// without an id is a candidate file that is not a valid record.
func snap(specs ...string) []File {
	var out []File
	for _, s := range specs {
		f := strings.Fields(s)
		file := File{Path: f[0], Object: f[1]}
		if len(f) == 4 {
			file.Record = &Record{ID: f[2], Title: "T" + f[2], Status: adr.Status(f[3])}
		}
		out = append(out, file)
	}
	return out
}

func render(cs []Change) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		s := fmt.Sprintf("%s %s %s", c.Kind, c.ID, c.SourcePath)
		switch c.Kind {
		case Added, Removed:
			s += " (" + string(c.Cause) + ")"
		case Renamed:
			s += " from " + c.FromPath
		case StatusChanged:
			s += fmt.Sprintf(" %s->%s", c.Before, c.After)
		}
		parts[i] = s
	}
	return strings.Join(parts, "; ")
}

func TestDiff(t *testing.T) {
	cases := []struct {
		name          string
		before, after []string
		want          string
	}{
		{"nothing", nil, nil, ""},
		{"unchanged", []string{"a o1 0001 accepted"}, []string{"a o1 0001 accepted"}, ""},
		{"added", nil, []string{"a o1 0001 proposed"}, "added 0001 a (file-created)"},
		{"removed", []string{"a o1 0001 proposed"}, nil, "removed 0001 a (file-deleted)"},
		{"status flip", []string{"a o1 0001 proposed"}, []string{"a o2 0001 accepted"}, "status-changed 0001 a proposed->accepted"},
		{"edited", []string{"a o1 0001 accepted"}, []string{"a o2 0001 accepted"}, "edited 0001 a"},
		{"renamed", []string{"a o1 0001 accepted"}, []string{"b o1 0001 accepted"}, "renamed 0001 b from a"},
		{"renamed and edited", []string{"a o1 0001 accepted"}, []string{"b o2 0001 accepted"}, "renamed 0001 b from a; edited 0001 b"},
		{"renamed and flipped", []string{"a o1 0001 accepted"}, []string{"b o2 0001 superseded"},
			"renamed 0001 b from a; status-changed 0001 b accepted->superseded"},
		{"became invalid", []string{"a o1 0001 accepted"}, []string{"a o2"}, "removed 0001 a (became-invalid)"},
		{"became valid", []string{"a o1"}, []string{"a o2 0001 accepted"}, "added 0001 a (became-valid)"},
		{"invalid files are not records", []string{"a o1"}, []string{"a o2", "b o3"}, ""},
		{"id changed in place", []string{"a o1 0001 accepted"}, []string{"a o2 0002 accepted"},
			"removed 0001 a (id-changed); added 0002 a (id-changed)"},
		{"swapped ids are two renames", []string{"a o1 0001 accepted", "b o2 0002 accepted"},
			[]string{"a o2 0002 accepted", "b o1 0001 accepted"}, "renamed 0001 b from a; renamed 0002 a from b"},
		{"a duplicate id is never paired", []string{"a o1 0001 accepted", "b o2 0001 accepted"},
			[]string{"c o1 0001 accepted"}, "removed 0001 a (file-deleted); removed 0001 b (file-deleted); added 0001 c (file-created)"},
		{"a duplicate that stays keeps its place", []string{"a o1 0001 accepted"},
			[]string{"a o1 0001 accepted", "b o2 0001 proposed"}, "added 0001 b (file-created)"},
		{"order: id, then kind, then path", []string{"z o1 0002 accepted", "y o2 0001 accepted", "x o3 0003 draft"},
			[]string{"y o2 0001 rejected", "w o5 0002 accepted", "v o6 0000 draft", "x o3 0003 proposed"},
			"added 0000 v (file-created); status-changed 0001 y accepted->rejected; renamed 0002 w from z; edited 0002 w; status-changed 0003 x draft->proposed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := render(Diff(snap(tc.before...), snap(tc.after...))); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestDiffCarriesTitlesAndStatuses(t *testing.T) {
	cs := Diff(snap("a o1 0001 proposed", "b o2 0002 accepted"), snap("a o3 0001 accepted"))
	if len(cs) != 2 {
		t.Fatalf("%d changes", len(cs))
	}
	if c := cs[0]; c.Title != "T0001" || c.Status != "accepted" || c.Before != "proposed" || c.After != "accepted" {
		t.Errorf("status change %+v", c)
	}
	if c := cs[1]; c.Kind != Removed || c.Title != "T0002" || c.Status != "accepted" {
		t.Errorf("removal %+v", c)
	}
}

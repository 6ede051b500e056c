package app

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/domain/hostconfig"
	"github.com/adrkit/adrkit-go/domain/migrate"
)

// TestMigrateWriteFailure: a write that fails is reported, the others
// are written, and the run failed; history dates fill undated decisions.
func TestMigrateWriteFailure(t *testing.T) {
	m := &memFolder{files: map[string]string{
		"0001-a.md": "# 1. Alpha\n\n## Status\n\nAccepted\n",
		"0002-b.md": "# 2. Bravo\n\n## Status\n\nProposed\n",
	}, failOn: "0002-b.md", dates: map[string]string{"0001-a.md": "2021-04-05"}}
	rep, err := Migrate(context.Background(), m, MigrateInput{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Failed() || rep.WriteErrors["docs/adr/0002-b.md"] == "" || len(rep.WriteErrors) != 1 {
		t.Errorf("write errors %v", rep.WriteErrors)
	}
	if rep.Plan.Files[0].Date != "2021-04-05" || m.files["0001-a.md"][:4] != "---\n" {
		t.Errorf("0001 not written with its history date: %+v", rep.Plan.Files[0])
	}
	dry, _ := Migrate(context.Background(), &memFolder{files: map[string]string{"0003-c.md": "# C c c\n"}}, MigrateInput{DryRun: true})
	if dry.Failed() || dry.Plan.Files[0].Date != migrate.PlaceholderDate {
		t.Errorf("dry run: %+v", dry.Plan.Files[0])
	}
}

// TestNewRecordConflicts: a taken name is a conflict (status 1), a bad
// input is refused before anything is read.
func TestNewRecordConflicts(t *testing.T) {
	m := &memFolder{files: map[string]string{}, branches: []string{"0004-x.md"}, failOn: "0005-taken.md"}
	_, err := NewRecord(context.Background(), m, NewInput{Title: "Taken", Status: adr.StatusDraft, Date: "2026-01-01"})
	if !errors.Is(err, ErrNewConflict) || len(m.files) != 0 {
		t.Errorf("taken: %v %v", err, m.files)
	}
	res, err := NewRecord(context.Background(), m, NewInput{Title: "Fine one", Status: adr.StatusProposed, Date: "2026-01-01"})
	if err != nil || res.ID != "0005" || res.Path != "docs/adr/0005-fine-one.md" {
		t.Errorf("new: %v %+v", err, res)
	}
	if _, err := NewRecord(context.Background(), m, NewInput{Title: "x", Status: adr.StatusDraft}); !errors.Is(err, ErrNewInput) {
		t.Errorf("short title: %v", err)
	}
}

// TestMigrateDryRunHistory: a dry run without --rename dates committed
// decisions by their history even when every one of them fails (a name
// discovery does not read): no "1970-01-01" warning for a committed file.
func TestMigrateDryRunHistory(t *testing.T) {
	m := &memFolder{files: map[string]string{"ADR012-use-x.md": "# 12. Use X\n\n## Status\n\nAccepted\n"},
		dates: map[string]string{"ADR012-use-x.md": "2019-03-04"}}
	rep, err := Migrate(context.Background(), m, MigrateInput{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Plan.Files[0]
	if f.Action != migrate.ActionFail || f.Date != "2019-03-04" {
		t.Errorf("%+v", f)
	}
	for _, w := range f.Warnings {
		if strings.Contains(w, migrate.PlaceholderDate) {
			t.Errorf("warning: %s", w)
		}
	}
}

// TestSetStatusMovesSupersession: superseding a record by another than
// the one that replaced it moves it from that record's supersedes to the
// new one's, and nothing is written in a dry run.
func TestSetStatusMovesSupersession(t *testing.T) {
	rec := func(id, extra string) string {
		return "---\nid: \"" + id + "\"\ntitle: Record " + id + "\nstatus: draft\ndate: 2026-01-01\n" + extra + "---\nBody " + id + "\n"
	}
	m := &memFolder{files: map[string]string{
		"0001-a.md": strings.Replace(rec("0001", "supersededBy: \"0002\"\n"), "status: draft", "status: superseded", 1),
		"0002-b.md": rec("0002", "supersedes: [\"0001\", \"0003\"]\n"),
		"0003-c.md": strings.Replace(rec("0003", "supersededBy: \"0002\"\n"), "status: draft", "status: superseded", 1),
		"0004-d.md": rec("0004", ""),
	}}
	before := map[string]string{}
	for k, v := range m.files {
		before[k] = v
	}
	dry, err := SetStatus(context.Background(), m, StatusInput{ID: "0001", Status: adr.StatusSuperseded, By: "0004", DryRun: true})
	if err != nil || len(dry.Files) != 3 {
		t.Fatalf("%v %+v", err, dry)
	}
	for k, v := range before {
		if m.files[k] != v {
			t.Fatalf("the dry run wrote %s", k)
		}
	}
	if _, err := SetStatus(context.Background(), m, StatusInput{ID: "0001", Status: adr.StatusSuperseded, By: "0004"}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"0001-a.md": strings.Replace(before["0001-a.md"], "supersededBy: \"0002\"", "supersededBy: \"0004\"", 1),
		"0002-b.md": strings.Replace(before["0002-b.md"], "supersedes: [\"0001\", \"0003\"]\n", "supersedes:\n- \"0003\"\n", 1),
		"0003-c.md": before["0003-c.md"],
		"0004-d.md": strings.Replace(before["0004-d.md"], "date: 2026-01-01\n", "date: 2026-01-01\nsupersedes:\n- \"0001\"\n", 1),
	}
	for k, w := range want {
		if m.files[k] != w {
			t.Errorf("%s:\n%q\nwant\n%q", k, m.files[k], w)
		}
	}
	for _, in := range []StatusInput{{ID: "0002", Status: "retired"}, {ID: "0002", Status: adr.StatusSuperseded}} {
		if _, err := SetStatus(context.Background(), m, in); !errors.Is(err, ErrEditInput) {
			t.Errorf("%+v: %v", in, err)
		}
	}
	// A missing record is a state of the directory, as for show and
	// chain (exit 1 on the command line), not a refused request.
	if _, err := SetStatus(context.Background(), m, StatusInput{ID: "0009", Status: adr.StatusDraft}); !errors.Is(err, ErrEditConflict) {
		t.Errorf("a missing record: %v", err)
	}
}

// TestRenumberInMemory: a renumbering renames the record, rewrites the
// relations that name it and the markers that declare it in tracked
// files; a file that cannot be written is reported and the others are
// written.
func TestRenumberInMemory(t *testing.T) {
	rec := func(id, extra string) string {
		return "---\nid: \"" + id + "\"\ntitle: Record " + id + "\nstatus: draft\ndate: 2026-01-01\n" + extra + "---\nBody " + id + "\n"
	}
	m := &memFolder{files: map[string]string{
		"0001-a.md": rec("0001", ""),
		"0002-b.md": rec("0002", "relatesTo: [\"0001\"]\n"),
	}, failOn: "0002-b.md"}
	repo := newMemRepo(map[string]string{
		"src/a.go":  "// @adr 0001\npackage a\n",
		"README.md": "See [the first](docs/adr/0001-a.md).\n",
	})
	res, err := Renumber(context.Background(), m, repo, RenumberInput{ID: "0001", NewID: "0005"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.files["0005-a.md"]; !ok || !strings.Contains(m.files["0005-a.md"], `id: "0005"`) {
		t.Errorf("the record was not renamed and renumbered: %v", m.files)
	}
	if repo.files["src/a.go"] != "// @adr 0005\npackage a\n" || repo.files["README.md"] != "See [the first](docs/adr/0005-a.md).\n" {
		t.Errorf("repository files: %q", repo.files)
	}
	if !res.Failed() || m.files["0002-b.md"] != rec("0002", "relatesTo: [\"0001\"]\n") {
		t.Errorf("the failed write: %+v", res.Files)
	}
}

// TestInitInMemory: a dry run decides what a run writes and writes
// nothing; the run writes the host files and the first record.
func TestInitInMemory(t *testing.T) {
	for _, dry := range []bool{true, false} {
		m := &memFolder{files: map[string]string{}}
		repo := newMemRepo(map[string]string{".mcp.json": "{}\n"})
		rep, err := Init(context.Background(), repo, m, InitInput{Hosts: []agenthost.Host{agenthost.Claude}, DryRun: dry, Date: "2026-01-01", Launch: hostconfig.Launch{Command: "adrkit", Dir: "docs/adr"}})
		if err != nil || rep.Record == nil || rep.Record.Path != "docs/adr/0001-record-architecture-decisions.md" || !rep.Changed() {
			t.Fatalf("dry run %v: %v %+v", dry, err, rep)
		}
		untouched := len(m.files) == 0 && len(repo.files) == 1 && repo.files[".mcp.json"] == "{}\n"
		written := len(m.files) == 1 && repo.files[".mcp.json"] != "{}\n" && repo.files[".claude/settings.json"] != ""
		if dry && !untouched || !dry && !written {
			t.Errorf("dry run %v wrote %q and %q", dry, m.files, repo.files)
		}
	}
}

// appendingFolder is a folder another process appends a line to just
// after the command has read the records: the interleaving that lost 24
// of 300 appended lines in issue 35.
type appendingFolder struct{ *memFolder }

func (a appendingFolder) MarkdownFiles(ctx context.Context) ([]migrate.File, error) {
	files, err := a.memFolder.MarkdownFiles(ctx)
	a.files["0001-a.md"] += "Appended meanwhile.\n"
	return files, err
}

// TestSetStatusKeepsAConcurrentEdit: status refuses to write a record
// changed since it was read, saying so, and the change is kept.
func TestSetStatusKeepsAConcurrentEdit(t *testing.T) {
	const rec = "---\nid: \"0001\"\ntitle: Record 0001\nstatus: draft\ndate: 2026-01-01\n---\nBody\n"
	m := &memFolder{files: map[string]string{"0001-a.md": rec}}
	res, err := SetStatus(context.Background(), appendingFolder{m}, StatusInput{ID: "0001", Status: adr.StatusProposed})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Failed() || len(res.Files) != 1 || !strings.Contains(res.Files[0].Error, "changed since it was read") {
		t.Errorf("result %+v: want the file refused as changed", res)
	}
	if got := m.files["0001-a.md"]; got != rec+"Appended meanwhile.\n" {
		t.Errorf("the record holds %q: the appended line was lost", got)
	}
}

// Package historytest is the conformance suite every ports.HistoryReader
// must pass, as ports/corpustest is for CorpusReader: an implementation's
// tests supply a Harness that materialises a first-parent line of commits
// in its kind of history, and RunConformance checks the contract of
// ports.go against it: the head, the walk to the root commit, what
// identifies an ADR directory, the order, kinds and display paths of its
// files, what identifies their content, and the size limit of Read.
// Failures only one history can show (missing objects, a moved branch)
// belong in that history's own tests.
package historytest

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/ports"
)

// Commit is one commit of a fixture: the files of the ADR directory in
// it, as "/"-separated path (relative to the directory) → content. Nil
// Files means the commit has no ADR directory at all.
type Commit struct {
	Files map[string]string
}

// Fixture is a history to materialise: the ADR directory's path relative
// to the repository root ("/"-separated, possibly unclean, never the
// root itself) and the commits of the first-parent line, oldest first,
// each the first parent of the next; the last is the one the revision
// names. No commits: the revision is a branch without commits yet.
type Fixture struct {
	Dir     string
	Commits []Commit
}

// Harness lets the suite build fixtures in the history under test.
type Harness interface {
	// MakeReader materialises fx as a fresh history and returns a reader
	// of it configured with fx.Dir. It fails t if it cannot.
	MakeReader(t *testing.T, fx Fixture) ports.HistoryReader
}

// RunConformance runs the suite against the readers newHarness builds,
// one fresh Harness per test.
func RunConformance(t *testing.T, newHarness func(t *testing.T) Harness) {
	tests := []struct {
		name string
		run  func(t *testing.T, h Harness)
	}{
		{"Unborn", testUnborn},
		{"WalkToTheRoot", testWalk},
		{"DirIdentity", testDirIdentity},
		{"FilesSortedWithKinds", testFiles},
		{"ObjectIdentity", testObjects},
		{"ReadLimits", testReadLimits},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newHarness(t)) })
	}
}

var hashForm = regexp.MustCompile(`^[0-9a-f]{40}$`)

func record(id string) string {
	return "---\nid: \"" + id + "\"\ntitle: Record " + id + "\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@a\"]\n---\n\nBody.\n"
}

func open(t *testing.T, r ports.HistoryReader) ports.History {
	t.Helper()
	h, err := r.OpenHistory(context.Background())
	if err != nil {
		t.Fatalf("OpenHistory: %v", err)
	}
	return h
}

// line returns the commits from the head back to the root, head first.
func line(t *testing.T, h ports.History) []ports.Commit {
	t.Helper()
	c, ok := h.Head()
	if !ok {
		t.Fatal("Head: no commit, want one")
	}
	out := []ports.Commit{c}
	for {
		p, ok, err := h.Parent(context.Background(), c)
		if err != nil {
			t.Fatalf("Parent(%s): %v", c.Hash, err)
		}
		if !ok {
			return out
		}
		out, c = append(out, p), p
	}
}

func files(t *testing.T, h ports.History, c ports.Commit) []ports.HistoryFile {
	t.Helper()
	fs, err := h.Files(context.Background(), c)
	if err != nil {
		t.Fatalf("Files(%s): %v", c.Hash, err)
	}
	return fs
}

func testUnborn(t *testing.T, h Harness) {
	hist := open(t, h.MakeReader(t, Fixture{Dir: "docs/adr"}))
	if c, ok := hist.Head(); ok {
		t.Errorf("Head of a branch without commits = %+v, want none", c)
	}
	if hist.Dir() != "docs/adr" {
		t.Errorf("Dir = %q, want docs/adr", hist.Dir())
	}
}

func testWalk(t *testing.T, h Harness) {
	fx := Fixture{Dir: "docs/./adr/", Commits: []Commit{
		{Files: map[string]string{"0001-a.md": record("0001")}},
		{Files: map[string]string{"0001-a.md": record("0001"), "0002-b.md": record("0002")}},
		{Files: map[string]string{"0002-b.md": record("0002")}},
	}}
	hist := open(t, h.MakeReader(t, fx))
	if hist.Dir() != "docs/adr" {
		t.Errorf("Dir = %q, want the cleaned docs/adr", hist.Dir())
	}
	cs := line(t, hist)
	if len(cs) != 3 {
		t.Fatalf("the walk from the head found %d commits, want 3", len(cs))
	}
	seen := map[string]bool{}
	for i, c := range cs {
		if !hashForm.MatchString(c.Hash) || seen[c.Hash] {
			t.Errorf("commit %d: hash %q is not 40 lower-case hex digits of its own", i, c.Hash)
		}
		seen[c.Hash] = true
		if c.Time.IsZero() {
			t.Errorf("commit %s has no time", c.Hash)
		}
	}
}

func testDirIdentity(t *testing.T, h Harness) {
	same := map[string]string{"0001-a.md": record("0001")}
	hist := open(t, h.MakeReader(t, Fixture{Dir: "docs/adr", Commits: []Commit{
		{Files: nil},
		{Files: same},
		{Files: map[string]string{"0001-a.md": record("0001"), "0002-b.md": record("0002")}},
		{Files: same},
	}}))
	cs := line(t, hist) // head first
	if cs[3].Dir != "" {
		t.Errorf("a commit without the directory has Dir %q, want none", cs[3].Dir)
	}
	if cs[0].Dir == "" || cs[0].Dir != cs[2].Dir {
		t.Errorf("the same files give Dirs %q and %q, want one, non-empty", cs[0].Dir, cs[2].Dir)
	}
	if cs[1].Dir == cs[0].Dir {
		t.Errorf("different files give the same Dir %q", cs[1].Dir)
	}
	if fs := files(t, hist, cs[3]); len(fs) != 0 {
		t.Errorf("a commit without the directory lists %d files", len(fs))
	}
}

func testFiles(t *testing.T, h Harness) {
	hist := open(t, h.MakeReader(t, Fixture{Dir: "docs/adr", Commits: []Commit{{Files: map[string]string{
		"README.md":               "# Decisions\n",
		"0001-alpha.md":           record("0001"),
		"0001-Zeta.md":            record("0001"),
		"0002-\uff5e.md":          record("0002"),
		"0002-\U0001F600.md":      record("0002"),
		"sub/0100-nested.md":      record("0100"),
		"sub/deeper/0200-deep.md": record("0200"),
	}}}}))
	head, _ := hist.Head()
	got := files(t, hist, head)
	var names []string
	for _, f := range got {
		names = append(names, f.Name)
		wantKind := ports.KindRegular
		if f.Name == "sub" {
			wantKind = ports.KindDirectory
		}
		if f.Kind != wantKind || f.Path != "docs/adr/"+f.Name {
			t.Errorf("%s: kind %d, path %q; want kind %d, path docs/adr/%s", f.Name, f.Kind, f.Path, wantKind, f.Name)
		}
	}
	want := []string{"0001-Zeta.md", "0001-alpha.md", "0002-\U0001F600.md", "0002-\uff5e.md", "README.md", "sub"}
	if !slices.Equal(names, want) {
		t.Errorf("Files = %q, want the top level in UTF-16 order %q", names, want)
	}
	if !slices.IsSortedFunc(names, jsstring.Compare) {
		t.Errorf("Files are not in UTF-16 order: %q", names)
	}
}

func testObjects(t *testing.T, h Harness) {
	hist := open(t, h.MakeReader(t, Fixture{Dir: "docs/adr", Commits: []Commit{
		{Files: map[string]string{"0001-a.md": record("0001"), "0002-b.md": record("0002")}},
		{Files: map[string]string{"0001-a.md": record("0001"), "0002-b.md": record("0002") + "Edited.\n", "0003-copy.md": record("0001")}},
	}}))
	cs := line(t, hist)
	object := func(c ports.Commit, name string) ports.HistoryFile {
		for _, f := range files(t, hist, c) {
			if f.Name == name {
				return f
			}
		}
		t.Fatalf("%s is not in %s", name, c.Hash)
		return ports.HistoryFile{}
	}
	head, parent := cs[0], cs[1]
	if object(head, "0001-a.md").Object != object(parent, "0001-a.md").Object {
		t.Error("an unchanged file has two objects")
	}
	if object(head, "0003-copy.md").Object != object(head, "0001-a.md").Object {
		t.Error("two files with equal bytes have different objects")
	}
	if object(head, "0002-b.md").Object == object(parent, "0002-b.md").Object {
		t.Error("an edited file kept its object")
	}
	f := object(head, "0002-b.md")
	b, err := hist.Read(context.Background(), f, 1<<20)
	if err != nil || string(b) != record("0002")+"Edited.\n" {
		t.Errorf("Read(%s) = %q, %v; want the committed bytes", f.Name, b, err)
	}
}

func testReadLimits(t *testing.T, h Harness) {
	hundred := strings.Repeat("z", 100)
	hist := open(t, h.MakeReader(t, Fixture{Dir: "docs/adr", Commits: []Commit{
		{Files: map[string]string{"0001-hundred.md": hundred, "0002-empty.md": ""}},
	}}))
	head, _ := hist.Head()
	fs := files(t, hist, head)
	if len(fs) != 2 {
		t.Fatalf("Files = %d entries, want 2", len(fs))
	}
	for _, tc := range []struct {
		f     ports.HistoryFile
		limit int64
		want  string
		large bool
	}{
		{fs[0], 100, hundred, false},
		{fs[0], 99, "", true},
		{fs[0], 0, "", true},
		{fs[1], 0, "", false},
	} {
		b, err := hist.Read(context.Background(), tc.f, tc.limit)
		var re *ports.ReadError
		switch {
		case tc.large && (!errors.As(err, &re) || re.Kind != ports.ReadTooLarge):
			t.Errorf("Read(%s, %d) = %d bytes, %v; want ReadTooLarge", tc.f.Name, tc.limit, len(b), err)
		case !tc.large && (err != nil || string(b) != tc.want):
			t.Errorf("Read(%s, %d) = %d bytes, %v; want %d bytes", tc.f.Name, tc.limit, len(b), err, len(tc.want))
		}
	}
}

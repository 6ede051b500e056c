package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/internal/frontmattertest"
	"github.com/adrkit/adrkit-go/internal/gittest"
)

// adoptFixtures are the folders of domain/migrate/testdata, each in the
// place its tool keeps it and found the way adrkit finds it: adr-tools'
// .adr-dir, MADR's docs/decisions (a default), log4brains' docs/adr.
var adoptFixtures = []struct {
	folder, dir string
	adrDir      bool // write an .adr-dir naming dir
	rename      bool
	hasRecord   bool // one file is an adrkit record already
}{
	{"nygard", "architecture/decisions", true, false, false},
	{"madr2", "docs/adr", false, true, false},
	{"madr3", "docs/decisions", false, false, true},
	{"log4brains", "docs/adr", false, false, false},
	{"sites", "site/content/adr", true, false, false},
}

// adoptRepo is a git repository whose one commit (dated 2024-03-05)
// holds the fixture folder, as a team's repository would.
func adoptRepo(t *testing.T, folder, dir string, adrDir bool) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	dst := filepath.Join(root, filepath.FromSlash(dir))
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join("..", "..", "domain", "migrate", "testdata", "folders", folder)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if adrDir {
		if err := os.WriteFile(filepath.Join(root, ".adr-dir"), []byte(dir+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gittest.CommitWorkingTree(t, root, dir, "decisions", time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC))
	return root
}

// snapshot reads every file under dir: name → bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type planJSON struct {
	Files []struct {
		Path, Action, RenameTo, ID string
	} `json:"files"`
}

type lintJSON struct {
	Corpus struct {
		RecordCount, ExcludedCount int
	} `json:"corpus"`
	Summary struct {
		Errors int `json:"errors"`
	} `json:"summary"`
	Findings []struct{ Rule, Severity, Path, Message string } `json:"findings"`
}

// TestAdoptFolders is the acceptance on each fixture folder, run
// from a subdirectory of the repository with no option but --rename:
// after adrkit migrate every decision file is a record, lint reports no
// error, superseded records resolve to their replacements, bodies and
// non-record files are unchanged, and a second run changes nothing. The
// plans (text and JSON) are goldens.
func TestAdoptFolders(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	for _, fx := range adoptFixtures {
		t.Run(fx.folder, func(t *testing.T) {
			root := adoptRepo(t, fx.folder, fx.dir, fx.adrDir)
			r := newRunner(t)
			r.hide = append(r.hide, filepath.Dir(root))
			r.wd = filepath.Join(root, filepath.FromSlash(fx.dir))
			dirPath := r.wd
			before := snapshot(t, dirPath)
			extra := []string{}
			if fx.rename {
				extra = append(extra, "--rename")
			}

			// Before: lint fails and points at migrate; the overview does not
			// call the folder empty.
			overview := r.run()
			lintBefore := r.run("lint", "--as-of", "2026-06-15")
			g.Assert(t, "unmigrated-"+fx.folder+"-lint", []byte(lintBefore.String()))
			unread := !strings.Contains(lintBefore.stdout, "no-records") || strings.Contains(overview.stdout, "No decisions yet") ||
				!strings.Contains(overview.stdout, "adrkit migrate")
			if lintBefore.code != 1 || (unread && !fx.hasRecord) {
				t.Errorf("before migrate:\n%s\n%s", overview, lintBefore)
			}

			dry := r.run(append([]string{"migrate", "--dry-run"}, extra...)...)
			g.Assert(t, "migrate-"+fx.folder+"-plan", []byte(dry.String()))
			dryJSON := r.run(append([]string{"migrate", "--dry-run", "--json"}, extra...)...)
			g.Assert(t, "migrate-"+fx.folder+"-plan-json", []byte(dryJSON.String()))
			if dry.code != 0 || dryJSON.code != 0 {
				t.Fatalf("dry run failed:\n%s", dry)
			}
			if after := snapshot(t, dirPath); !sameFiles(before, after) {
				t.Fatal("--dry-run wrote")
			}
			var plan planJSON
			if err := json.Unmarshal([]byte(dryJSON.stdout), &plan); err != nil {
				t.Fatal(err)
			}

			if got := r.run(append([]string{"migrate"}, extra...)...); got.code != 0 {
				t.Fatalf("migrate:\n%s", got)
			}
			after := snapshot(t, dirPath)
			decisions := 0
			for _, f := range plan.Files {
				name := filepath.Base(f.Path)
				now := name
				if f.RenameTo != "" {
					now = filepath.Base(f.RenameTo)
					if _, still := after[name]; still {
						t.Errorf("%s was not renamed", name)
					}
				}
				switch f.Action {
				case "skip", "unchanged":
					if after[now] != before[name] {
						t.Errorf("%s (%s) changed", name, f.Action)
					}
				case "migrate":
					rec, findings := frontmatter.ParseRecord(f.Path, after[now])
					if rec == nil {
						t.Fatalf("%s is not a record: %+v", now, findings)
					}
					if rec.Body != frontmattertest.Body(before[name]) {
						t.Errorf("%s: the body changed", now)
					}
				}
				if f.Action == "migrate" || f.Action == "unchanged" {
					decisions++
				}
			}

			var lint lintJSON
			l := r.run("lint", "--format", "json")
			if err := json.Unmarshal([]byte(l.stdout), &lint); err != nil {
				t.Fatalf("lint: %v\n%s", err, l)
			}
			if l.code != 0 || lint.Summary.Errors != 0 || lint.Corpus.RecordCount != decisions || lint.Corpus.ExcludedCount != 0 {
				t.Errorf("after migrate, lint: exit %d, %d errors, %d records of %d decisions, %d left out\n%s",
					l.code, lint.Summary.Errors, lint.Corpus.RecordCount, decisions, lint.Corpus.ExcludedCount, l.stdout)
			}
			checkSupersession(t, after)

			again := r.run(append([]string{"migrate"}, extra...)...)
			if again.code != 0 || !strings.Contains(again.stdout, ": 0 migrated,") {
				t.Errorf("second run:\n%s", again)
			}
			if second := snapshot(t, dirPath); !sameFiles(after, second) {
				t.Error("the second run changed files")
			}
		})
	}
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// checkSupersession: every superseded record names a record that lists it
// in supersedes, and every supersedes entry is a superseded record naming
// it back.
func checkSupersession(t *testing.T, files map[string]string) {
	t.Helper()
	byID := map[string]*adr.Frontmatter{}
	for name, text := range files {
		if rec, _ := frontmatter.ParseRecord(name, text); rec != nil {
			byID[rec.Frontmatter.ID] = rec.Frontmatter
		}
	}
	for id, fm := range byID {
		if fm.Status == adr.StatusSuperseded {
			next := byID[fm.SupersededBy]
			if next == nil || !contains(next.Supersedes, id) {
				t.Errorf("%s is superseded by %q, which does not list it", id, fm.SupersededBy)
			}
		}
		for _, old := range fm.Supersedes {
			if prev := byID[old]; prev == nil || prev.Status != adr.StatusSuperseded || prev.SupersededBy != id {
				t.Errorf("%s supersedes %s, which does not name it back", id, old)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestMigrateUsage: what migrate refuses, and what it reports as failed.
func TestMigrateUsage(t *testing.T) {
	r, root := repoRunner(t, "clean")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"migrate", "--from", "adoc"}, 2, "--from must be"},
		{[]string{"migrate", "extra"}, 2, "takes no arguments"},
		{[]string{"--rev", "HEAD", "migrate"}, 2, "writes the working tree"},
		{[]string{"--dir", "nowhere", "migrate"}, 2, "nowhere"},
	} {
		got := r.run(append([]string{"--cwd", root}, tc.args...)...)
		if got.code != tc.code || !strings.Contains(got.stderr, tc.want) {
			t.Errorf("%q: %s", tc.args, got)
		}
	}
	// A decision that cannot be migrated: exit 1, the others written.
	dir := filepath.Join(root, "docs", "adr")
	if err := os.WriteFile(filepath.Join(dir, "0007-broken.md"), []byte("---\nid: \"0007\"\n---\n# Broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "0008-plain.md"), []byte("# 8. Plain\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := r.run("--cwd", root, "migrate")
	if got.code != 1 || !strings.Contains(got.stdout, "not migrated: its frontmatter is adrkit's") {
		t.Errorf("a broken record: %s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "0008-plain.md")); !strings.HasPrefix(string(b), "---\nid: \"0008\"\n") {
		t.Errorf("the other file was not written: %q", b)
	}
}

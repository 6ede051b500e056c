package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestIndex: --write puts the index between the markers (appending them
// when absent), leaves every other byte, and a second write changes
// nothing; --check exits 1 on a stale index and names the fix.
func TestIndex(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	r, root := repoRunner(t, "chains")
	r.wd = root
	readme := filepath.Join(root, "README.md")
	const before = "# Payments\r\n\r\nOur decisions:\r\n\r\n<!-- adrkit:index:begin -->\r\nold text\r\n<!-- adrkit:index:end -->\r\n\r\n## Licence\r\n\r\nMIT\r\n"
	if err := os.WriteFile(readme, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}

	if got := r.run("index", "--check", "README.md"); got.code != 1 || !strings.Contains(got.stderr, "README.md: the index is stale; run adrkit index --write README.md") {
		t.Errorf("--check of a stale index: %s", got)
	}
	if got := r.run("index", "--write", "README.md"); got.code != 0 {
		t.Fatal(got)
	}
	written, _ := os.ReadFile(readme)
	g.Assert(t, "index-readme", written)
	head, _, _ := strings.Cut(before, "<!-- adrkit:index:begin -->")
	_, tail, _ := strings.Cut(before, "<!-- adrkit:index:end -->\r\n")
	if !strings.HasPrefix(string(written), head) || !strings.HasSuffix(string(written), "<!-- adrkit:index:end -->\r\n"+tail) {
		t.Errorf("text outside the markers changed:\n%q", written)
	}
	if got := r.run("index", "--write", "README.md"); got.code != 0 || got.stdout != "README.md: the index is up to date.\n" {
		t.Errorf("a second write: %s", got)
	}
	if again, _ := os.ReadFile(readme); string(again) != string(written) {
		t.Error("a second write changed the file")
	}
	if got := r.run("index", "--check", "README.md"); got.code != 0 {
		t.Errorf("--check after --write: %s", got)
	}

	// A file in the ADR directory, without markers: appended, links
	// relative to it; run from that directory.
	r.wd = filepath.Join(root, "docs", "adr")
	page := filepath.Join(root, "docs", "adr", "index.md")
	if err := os.WriteFile(page, []byte("# Decisions\n\nSee below."), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := r.run("index", "--write", "index.md"); got.code != 0 || got.stdout != "docs/adr/index.md: index written.\n" {
		t.Fatal(got)
	}
	written, _ = os.ReadFile(page)
	g.Assert(t, "index-adr-dir", written)
	if l := r.run("lint", "--as-of", "2026-06-15"); strings.Contains(l.stdout, "index.md") {
		t.Errorf("lint reads the index page:\n%s", l)
	}

	r.wd = root
	if err := os.WriteFile(filepath.Join(root, "broken.md"), []byte("<!-- adrkit:index:begin -->\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"index", "--write", "a.md", "--check", "b.md"}, 2, "name one file"},
		{[]string{"index", "--write", "no/such/dir/x.md"}, 2, "must exist, inside the repository"},
		{[]string{"index", "--check", "new.md"}, 1, "new.md: the file does not exist; run adrkit index --write new.md"},
		{[]string{"index", "--check", "go.mod"}, 1, "go.mod: it has no index yet; run adrkit index --write go.mod"},
		{[]string{"index", "--write", "broken.md"}, 1, "broken.md: the index markers: 1 <!-- adrkit:index:begin --> and 0"},
	} {
		got := r.run(tc.args...)
		if got.code != tc.code || !strings.Contains(got.stderr, tc.want) {
			t.Errorf("%q: %s", tc.args, got)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "broken.md")); string(b) != "<!-- adrkit:index:begin -->\n" {
		t.Error("broken markers: the file was written")
	}
	if got := r.run("index", "--write", "new.md"); got.code != 0 {
		t.Errorf("a new file: %s", got)
	}
	// Nothing is written inside git's own directory, however named.
	config, _ := os.ReadFile(filepath.Join(root, ".git", "config"))
	if err := os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{".git/config", ".git/hooks/pre-commit", ".git/../.git/HEAD"} {
		if got := r.run("index", "--write", file); got.code != 2 || !strings.Contains(got.stderr, "inside git's own directory") {
			t.Errorf("index --write %s: %s", file, got)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(root, ".git", "config")); string(after) != string(config) {
		t.Error("index --write .git/config wrote the file")
	}
	if _, err := os.Stat(filepath.Join(root, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("index --write .git/hooks/pre-commit made a hook")
	}

	// Alone, it prints the index, links from the directory it runs in,
	// and writes nothing; it may read a revision.
	index, _ := os.ReadFile(filepath.Join(root, "new.md"))
	if got := r.run("index"); got.code != 0 || got.stdout != string(index) {
		t.Errorf("index alone: %s\nwant the index of new.md:\n%s", got, index)
	}
	r.wd = filepath.Join(root, "docs")
	if got := r.run("index"); got.code != 0 || !strings.Contains(got.stdout, "](adr/0003-workflow-engine.md)") {
		t.Errorf("index alone in docs: %s", got)
	}
}

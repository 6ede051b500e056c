package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// bareRepo is a repository root with nothing but its .git entry.
func bareRepo(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// treeFiles is every file under root but .git, path and content, sorted.
func treeFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			files[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestInit: a dry run writes nothing and prints what a run writes; the
// run wires every host and starts the log; a second run changes nothing;
// the first record lints clean.
func TestInit(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	root := bareRepo(t)
	r := doctorRunner(t, root) // adrkit is on its PATH
	all := "--agents=claude,codex,cursor,vscode,copilot,gemini"

	dry := r.run("init", all, "--dry-run")
	g.Assert(t, "init-dry-run", []byte(dry.String()))
	if got := treeFiles(t, root); len(got) != 0 {
		t.Fatalf("the dry run wrote %v", got)
	}

	first := r.run("init", all)
	g.Assert(t, "init-all", []byte(first.String()))
	written := treeFiles(t, root)
	var b strings.Builder
	for _, p := range sortedKeys(written) {
		b.WriteString("-- " + p + " --\n" + written[p])
	}
	g.Assert(t, "init-all-files", []byte(b.String()))
	// What the dry run showed is what the run wrote.
	for p, content := range written {
		if !strings.Contains(dry.stdout, indentLines(content)) {
			t.Errorf("the dry run did not show %s as written", p)
		}
	}

	second := r.run("init", all)
	g.Assert(t, "init-again", []byte(second.String()))
	if again := treeFiles(t, root); !equalMaps(again, written) {
		t.Error("the second run changed files")
	}
	if lint := r.run("lint"); lint.code != 0 {
		t.Errorf("the first record does not lint clean:\n%s", lint)
	}
}

// TestInitMerges: existing files keep every key, a JSONC file is left
// alone with its snippet (exit 1), an .adr-dir directory is passed to the
// server, an existing corpus gets no new record.
func TestInitMerges(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	root := bareRepo(t)
	for p, content := range map[string]string{
		".adr-dir":               "decisions\n",
		"decisions/0007-keep.md": "---\nid: \"0007\"\ntitle: Keep it\nstatus: draft\ndate: 2026-01-01\n---\n",
		".mcp.json":              "{\n\t\"mcpServers\": {\n\t\t\"db\": {\"command\": \"db-mcp\"}\n\t}\n}\n",
		".claude/settings.json":  "{\"model\": \"opus\", \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}]}}",
		".vscode/mcp.json":       "{\n  // the team's servers\n  \"servers\": {}\n}\n",
		".gemini/settings.json":  "{\"theme\": \"GitHub\", \"mcpServers\": {\"docs\": {\"httpUrl\": \"https://docs.example/mcp\"}}}\n",
	} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := doctorRunner(t, root)
	before := treeFiles(t, root)

	got := r.run("init", "--agents", "claude,vscode,gemini")
	g.Assert(t, "init-merges", []byte(got.String()))
	after := treeFiles(t, root)
	g.Assert(t, "init-merges-files", []byte("-- .mcp.json --\n"+after[".mcp.json"]+"-- .claude/settings.json --\n"+after[".claude/settings.json"]+
		"-- .gemini/settings.json --\n"+after[".gemini/settings.json"]))
	if after[".vscode/mcp.json"] != before[".vscode/mcp.json"] {
		t.Error("the JSONC file was changed")
	}
	if len(after) != len(before) {
		t.Errorf("files added: %v", sortedKeys(after))
	}
}

// TestInitRefuses: usage errors (2) and a directory that is no
// repository (1) write nothing.
func TestInitRefuses(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	root := bareRepo(t)
	r := doctorRunner(t, root)
	var b strings.Builder
	for _, args := range [][]string{
		{"init", "--agents", "claude,windsurf"},
		{"init", "--agents", ""},
		{"init", "--command", ""},
		{"init", "extra"},
		{"init", "--rev", "HEAD"},
		{"init", "--dir", "../elsewhere"},
	} {
		got := r.run(args...)
		b.WriteString("$ adrkit " + strings.Join(args, " ") + "\n" + got.String())
	}
	outside := newRunner(t)
	got := outside.run("init")
	b.WriteString("$ adrkit init   # outside a repository\n" + got.String())
	g.Assert(t, "init-refuses", []byte(b.String()))
	if files := treeFiles(t, root); len(files) != 0 {
		t.Errorf("wrote %v", files)
	}
}

// TestInitNotOnPath: init says when the command its entries name is not
// on PATH, where the agents would not find it either.
func TestInitNotOnPath(t *testing.T) {
	root := bareRepo(t)
	r := doctorRunner(t, root)
	got := r.run("init", "--command", "adrkit-nowhere")
	if got.code != 0 || !strings.Contains(got.stdout, "'adrkit-nowhere' is not on this PATH") {
		t.Errorf("init --command adrkit-nowhere:\n%s", got)
	}
	if again := r.run("init"); strings.Contains(again.stdout, "not on this PATH") {
		t.Errorf("adrkit is on PATH:\n%s", again)
	}
}

// TestInitWriteFailure: a file that cannot be written stops init with
// status 1 and its name; no report claims it.
func TestInitWriteFailure(t *testing.T) {
	root := bareRepo(t)
	writeFiles(t, root, map[string]string{".claude": "a file where a directory goes"})
	got := doctorRunner(t, root).run("init")
	if got.code != 1 || !strings.Contains(got.stderr, ".claude/settings.json") || strings.Contains(got.stdout, "created") {
		t.Errorf("init over a file named .claude:\n%s", got)
	}
}

func indentLines(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" && line != "\n" {
			b.WriteString("    ")
		}
		b.WriteString(line)
	}
	return b.String()
}

func equalMaps(a, b map[string]string) bool {
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

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

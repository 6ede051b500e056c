package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
)

// TestOwnDecisionsLint keeps the project's own ADRs valid: adrkit lint on
// docs/adr exits 0, exactly as CI runs it.
func TestOwnDecisionsLint(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("not in a git checkout:", err)
	}
	got := newRunner(t).run("--cwd", root, "lint")
	if got.code != 0 {
		t.Fatalf("adrkit lint on docs/adr:\n%s", got)
	}
	if !strings.Contains(got.stdout, "read from docs/adr") {
		t.Errorf("unexpected report:\n%s", got.stdout)
	}
}

// TestHelpEverywhere: --help and -h work on every command, print an
// example, and exit 0 without touching the corpus.
func TestHelpEverywhere(t *testing.T) {
	for _, cmd := range []string{"", "lint", "search", "show", "explain", "superseded", "chain", "changes", "graph", "mcp"} {
		for _, flag := range []string{"--help", "-h"} {
			args := []string{"--cwd", "/nonexistent", flag}
			if cmd != "" {
				args = []string{"--cwd", "/nonexistent", cmd, flag}
			}
			got := newRunner(t).run(args...)
			if got.code != 0 || got.stderr != "" || !strings.Contains(got.stdout, "Examples:") || !strings.Contains(got.stdout, "adrkit "+cmd) {
				t.Errorf("%q: %s", args, got)
			}
		}
	}
	for _, args := range [][]string{{"help"}, {"help", "lint"}} {
		got := newRunner(t).run(args...)
		if got.code != 0 || !strings.Contains(got.stdout, "Examples:") {
			t.Errorf("%q: %s", args, got)
		}
	}
	got := newRunner(t).run("--version")
	if got.code != 0 || !strings.HasPrefix(got.stdout, "adrkit ") {
		t.Errorf("--version: %s", got)
	}
}

// TestUnknownCommandNamesEveryCommand: the unknown-command message lists
// the commands that are registered, in help order, so that a new command
// can never be left out of it.
func TestUnknownCommandNamesEveryCommand(t *testing.T) {
	got := newRunner(t).run("frobnicate")
	tree := newTree(factory.New(factory.Env{Stdout: io.Discard, Stderr: io.Discard}), nil)
	var names []string
	for _, c := range tree.VisibleCommands() {
		names = append(names, c.Name)
	}
	if len(names) < 9 {
		t.Fatalf("only %d commands registered: %q", len(names), names)
	}
	want := "adrkit: unknown command \"frobnicate\"; the commands are " +
		strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + "\n"
	if got.code != 2 || !strings.HasPrefix(got.stderr, want) {
		t.Errorf("%s\nwant stderr to start with %q", got, want)
	}
	for _, n := range []string{"chain", "changes"} {
		if !slices.Contains(names, n) {
			t.Errorf("command %s is not registered", n)
		}
	}
}

// TestNoDecisionsYet: a repository without an ADR directory is told what
// starts one, by every command that reads the corpus (issue 27 item 3).
func TestNoDecisionsYet(t *testing.T) {
	r, root := repoRunner(t, "clean")
	if err := os.RemoveAll(filepath.Join(root, "docs")); err != nil {
		t.Fatal(err)
	}
	r.wd = root
	for _, cmd := range [][]string{nil, {"lint"}, {"mcp"}} {
		got := r.run(cmd...)
		if got.code != 1 || got.stderr != "adrkit: "+entry.NoDecisionsYet+"\n" {
			t.Errorf("%q: %s", cmd, got)
		}
	}
}

// TestPathsAsAShellGivesThem: in a subdirectory, explain and check take
// FILE from that directory, as a shell means it, and still take a
// repository path (what git diff --name-only prints) when that is the
// file that exists; a path outside the repository is a usage error
// (ADR 0033).
func TestPathsAsAShellGivesThem(t *testing.T) {
	r, root := repoRunner(t, "clean")
	sub := filepath.Join(root, "services", "orders")
	must(t, os.MkdirAll(sub, 0o755))
	must(t, os.WriteFile(filepath.Join(sub, "x.go"), []byte("package orders\n"), 0o644))
	r.wd = root
	want := r.run("explain", "services/orders/x.go")
	if want.code != 0 || !strings.Contains(want.stdout, "0001") {
		t.Fatalf("from the root:\n%s", want)
	}
	r.wd = sub
	for _, args := range [][]string{
		{"explain", "x.go"},
		{"explain", "services/orders/x.go"},
		{"explain", "./x.go"},
		{"explain", filepath.Join(sub, "x.go")},
	} {
		if got := r.run(args...); got.code != 0 || got.stdout != want.stdout {
			t.Errorf("%q in services/orders: want the root's answer\n%s", args, got)
		}
	}
	// A file about to be created is taken from the working directory.
	if got := r.run("explain", "new.go"); got.code != 0 || !strings.Contains(got.stdout, "0001") {
		t.Errorf("a new file in services/orders:\n%s", got)
	}
	for _, args := range [][]string{
		{"explain", "../../../x.go"},
		{"explain", filepath.Join(filepath.VolumeName(root)+string(filepath.Separator), "elsewhere", "x.go")},
		{"check", "../../../x.go"},
	} {
		got := r.run(args...)
		if got.code != factory.ExitUsage || !strings.Contains(got.stderr, "is not a path inside the repository") {
			t.Errorf("%q: want status 2 and the refusal\n%s", args, got)
		}
	}
	if got := r.run("check", "x.go"); got.code != 0 || !strings.Contains(got.stdout, "services/orders/x.go") {
		t.Errorf("check x.go in services/orders:\n%s", got)
	}
}

// TestShortRef: show reads a short number as the four-digit id
// (toolcmd.ShortRef's own cases are beside it).
func TestShortRef(t *testing.T) {
	r, root := repoRunner(t, "clean")
	r.wd = root
	if got, want := r.run("show", "1"), r.run("show", "0001"); got.code != 0 || got.stdout != want.stdout {
		t.Errorf("show 1: want show 0001's answer\n%s", got)
	}
}

// TestShowBrokenRecord: show of an id whose file fails validation names
// the file and what is wrong with it instead of "no such record".
func TestShowBrokenRecord(t *testing.T) {
	r, root := repoRunner(t, "clean")
	r.wd = root
	must(t, os.WriteFile(filepath.Join(root, "docs", "adr", "0009-broken.md"),
		[]byte("---\nid: \"0009\"\ntitle: Broken\nstatus: acceptedd\ndate: 2026-01-01\ndeciders: [\"@dana\"]\n---\n# Broken\n"), 0o644))
	got := r.run("show", "9")
	want := "\"0009\" is in docs/adr/0009-broken.md, which is not read as a record:\n" +
		"  line 4: "
	if got.code != 1 || !strings.HasPrefix(got.stdout, want) || !strings.Contains(got.stdout, "(invalid-enum-value)\n") {
		t.Errorf("want the file and the finding:\n%s", got)
	}
}

// A mistyped command gets the command it most likely meant; a word like
// none of them gets no guess.
func TestUnknownCommandSuggests(t *testing.T) {
	r := newRunner(t)
	for word, want := range map[string]string{
		"explian": `unknown command "explian" (did you mean explain?); the commands are`,
		"stauts":  `unknown command "stauts" (did you mean status?); the commands are`,
		"serach":  `unknown command "serach" (did you mean search?); the commands are`,
		"x":       `unknown command "x"; the commands are`,
	} {
		if got := r.run(word); got.code != 2 || !strings.Contains(got.stderr, want) {
			t.Errorf("%s: %s\nwant %q", word, got, want)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/ports"
)

const buildRecord = "---\nid: \"0001\"\ntitle: Store orders in PostgreSQL\nstatus: accepted\ndate: 2026-03-02\n" +
	"deciders: [\"@dana\"]\naffects:\n  - type: path\n    pattern: \"services/**\"\n---\n\n# Store orders in PostgreSQL\n"

// TestCommandsBuildOnlyWhatTheyUse runs commands through the whole tree
// and checks what each had the factory build: help and --version build
// nothing, the hook neither measures the terminal nor colours, the JSON
// modes never build a style, and no command builds what it does not use.
func TestCommandsBuildOnlyWhatTheyUse(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "repo")
	gittest.MakeRoot(t, repo, map[string]string{"docs/adr/0001-store-orders.md": buildRecord})
	event := `{"hook_event_name":"PreToolUse","session_id":"s","cwd":` + quote(repo) +
		`,"tool_name":"Write","tool_input":{"file_path":"services/api.go","content":"x"}}`
	style := []string{factory.BuiltTerminal, factory.BuiltColor, factory.BuiltWidth}
	corpus := []string{factory.BuiltLocation, factory.BuiltCorpus}
	cases := []struct {
		name  string
		args  []string
		stdin string
		code  int
		want  []string
	}{
		{"version", []string{"--version"}, "", 0, nil},
		{"help", []string{"--help"}, "", 0, nil},
		{"help of a command", []string{"lint", "--help"}, "", 0, nil},
		{"usage mistake", []string{"lint", "--format", "xml"}, "", 2, nil},
		{"hook", []string{"hook", "--state-dir", t.TempDir()}, event, 0, nil},
		{"hook without an event", []string{"hook"}, "{}", 1, nil},
		{"overview", nil, "", 0, cat(corpus, []string{factory.BuiltClock}, style)},
		{"lint", []string{"lint"}, "", 0, cat(corpus, []string{factory.BuiltClock}, style)},
		{"graph", []string{"graph"}, "", 0, corpus},
		{"search json", []string{"search", "orders", "--json"}, "", 0, corpus},
		{"show", []string{"show", "1"}, "", 0, cat(corpus, style)},
		{"queue json", []string{"queue", "--format", "json"}, "", 0, cat([]string{factory.BuiltClock}, corpus, style)},
		{"status json", []string{"status", "0001", "accepted", "--dry-run", "--json"}, "", 0, corpus},
		{"new dry run", []string{"new", "Cache", "--dry-run", "--json"}, "", 0, cat(corpus, []string{factory.BuiltClock})},
		{"init dry run", []string{"init", "--dry-run"}, "", 0, []string{factory.BuiltTerminal, factory.BuiltColor, factory.BuiltLocation, factory.BuiltClock}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			f := factory.New(factory.Env{
				Stdin: strings.NewReader(tc.stdin), Stdout: &stdout, Stderr: &stderr,
				Clock:    func() ports.Clock { return fixedClock{} },
				Terminal: func() bool { return true },
				Columns:  func() int { return 100 },
				Getwd:    func() (string, error) { return repo, nil },
			})
			args := append([]string{"adrkit"}, tc.args...)
			code := entry.Run(context.Background(), newTree(f, args), args, &stderr)
			if tc.name == "hook" && !strings.Contains(stdout.String(), "0001") {
				t.Errorf("the hook named no decision: %s%s", stdout.String(), stderr.String())
			}
			if code != tc.code {
				t.Fatalf("status %d, want %d\n%s%s", code, tc.code, stdout.String(), stderr.String())
			}
			got, want := f.Built(), slices.Clone(tc.want)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("built %q, want %q", got, want)
			}
		})
	}
}

func cat(lists ...[]string) []string { return slices.Concat(lists...) }

func quote(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

// TestNamed: the command a command line names is the first word after the
// global options and their values; only that command is built.
func TestNamed(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"adrkit"}, ""},
		{[]string{"adrkit", "lint", "--strict"}, "lint"},
		{[]string{"adrkit", "--cwd", "x", "--rev", "main", "hook"}, "hook"},
		{[]string{"adrkit", "--cwd=x", "hook"}, "hook"},
		{[]string{"adrkit", "-h", "show"}, "show"},
		{[]string{"adrkit", "--version"}, ""},
		{[]string{"adrkit", "--color", "hook"}, ""},
		{[]string{"adrkit", "--", "lint"}, ""},
		{[]string{"adrkit", "frobnicate"}, "frobnicate"},
	}
	for _, tc := range cases {
		if got := named(tc.args); got != tc.want {
			t.Errorf("named(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
	f := factory.New(factory.Env{Stdout: io.Discard, Stderr: io.Discard})
	if n := len(newTree(f, []string{"adrkit", "hook"}).Commands); n != 1 {
		t.Errorf("adrkit hook built %d commands, want 1", n)
	}
	if n := len(newTree(f, []string{"adrkit", "frobnicate"}).Commands); n != len(commands) {
		t.Errorf("adrkit frobnicate built %d commands, want all %d", n, len(commands))
	}
}

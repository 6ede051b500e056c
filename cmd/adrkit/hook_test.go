package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/internal/linktest"
)

// hookEvent reads a recorded-shape event of testdata/hook with $ROOT
// standing for the repository root.
func hookEvent(t *testing.T, name, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "hook", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(root)
	return strings.ReplaceAll(string(data), "$ROOT", string(quoted[1:len(quoted)-1]))
}

// hookRunner is a runner for the hook command on a fresh copy of corpus,
// with the sessions' memory in a temporary directory and the working
// directory outside the repository: the event's cwd is what locates it.
func hookRunner(t *testing.T, corpus string) (*runner, string) {
	r, root := repoRunner(t, corpus)
	r.env["ADRKIT_HOOK_STATE_DIR"] = t.TempDir()
	return r, root
}

// TestHookGoldens pins adrkit hook's answer to each event of each host,
// from recorded-shape events (testdata/hook), and the answers to bad
// input: never status 2, one line on stderr at most, and on stdout
// nothing or one JSON object. Codex's answers are validated against
// Codex's published output schemas too.
func TestHookGoldens(t *testing.T) {
	cases := []struct {
		name, corpus, event string
		args                []string
	}{
		{"hook-claude-write-new", "hook", "claude-write-new", nil},
		{"hook-claude-edit-marker", "hook", "claude-edit-marker", nil},
		{"hook-claude-multiedit-relative", "hook", "claude-multiedit-relative", nil},
		{"hook-claude-notebook-ungoverned", "hook", "claude-notebook-ungoverned", nil},
		{"hook-claude-bash", "hook", "claude-bash", nil},
		{"hook-claude-session-start", "hook", "claude-session-start", nil},
		{"hook-claude-outside", "hook", "claude-outside", nil},
		{"hook-claude-stop", "hook", "claude-stop", nil},
		{"hook-claude-findings", "gate", "claude-findings", nil},
		{"hook-claude-session-start-findings", "gate", "claude-session-start", nil},
		{"hook-codex-apply-patch", "hook", "codex-apply-patch", []string{"--host", "codex"}},
		{"hook-codex-session-start", "hook", "codex-session-start", []string{"--host", "codex"}},
		{"hook-cursor-post-tool-use", "hook", "cursor-post-tool-use", []string{"--host", "cursor"}},
		{"hook-cursor-pre-tool-use", "hook", "cursor-pre-tool-use", []string{"--host", "cursor"}},
		{"hook-cursor-session-start", "hook", "cursor-session-start", []string{"--host", "cursor"}},
		{"hook-copilot-pre-tool-use", "hook", "copilot-pre-tool-use", []string{"--host", "copilot"}},
		{"hook-copilot-session-start", "hook", "copilot-session-start", []string{"--host", "copilot"}},
		{"hook-gemini-after-tool", "hook", "gemini-after-tool", []string{"--host", "gemini"}},
		{"hook-gemini-session-start", "hook", "gemini-session-start", []string{"--host", "gemini"}},
		{"hook-gemini-before-agent", "hook", "gemini-before-agent", []string{"--host", "gemini"}},
		{"hook-malformed", "hook", "malformed", nil},
		{"hook-wrong-type", "hook", "wrong-type", nil},
		{"hook-empty-stdin", "hook", "", nil},
		{"hook-bad-host", "hook", "claude-write-new", []string{"--host", "vim"}},
		{"hook-unknown-option", "hook", "claude-write-new", []string{"--block"}},
		{"hook-argument", "hook", "claude-write-new", []string{"services/session/store.go"}},
		{"hook-dir-not-found", "hook", "claude-write-new", []string{"--dir", "decisions"}},
	}
	schemas := map[string]*jsonschema.Schema{
		"PreToolUse":   compileCodexSchema(t, "pre-tool-use"),
		"SessionStart": compileCodexSchema(t, "session-start"),
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, root := hookRunner(t, tc.corpus)
			if tc.event != "" {
				r.stdin = hookEvent(t, tc.event, root)
			}
			args := []string{"hook"}
			if len(tc.args) > 0 && tc.args[0] == "--dir" {
				args = append(tc.args, args...) // a global option
			} else {
				args = append(args, tc.args...)
			}
			o := r.run(args...)
			checkHookOutcome(t, o)
			if len(tc.args) > 1 && tc.args[1] == "codex" && o.stdout != "" {
				var v struct {
					HookSpecificOutput struct{ HookEventName string }
				}
				_ = json.Unmarshal([]byte(o.stdout), &v)
				doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(o.stdout))
				if err := schemas[v.HookSpecificOutput.HookEventName].Validate(doc); err != nil {
					t.Errorf("Codex's schema refuses the answer: %v", err)
				}
			}
			g.Assert(t, tc.name, []byte(o.String()))
		})
	}
}

// checkHookOutcome holds what every hook run must: status 0 or 1, at
// most one line on stderr, and stdout empty or one JSON object naming
// its event wherever it sends context.
func checkHookOutcome(t *testing.T, o outcome) {
	t.Helper()
	if o.code != factory.ExitOK && o.code != factory.ExitFailure {
		t.Errorf("status %d", o.code)
	}
	if strings.Count(o.stderr, "\n") > 1 {
		t.Errorf("more than one line on stderr:\n%s", o.stderr)
	}
	if o.stdout == "" {
		return
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(o.stdout), &v); err != nil || !strings.HasSuffix(o.stdout, "}\n") {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, o.stdout)
	}
	if hso, ok := v["hookSpecificOutput"].(map[string]any); ok {
		if name, _ := hso["hookEventName"].(string); name == "" {
			t.Errorf("additionalContext without hookEventName: %s", o.stdout)
		}
	}
}

func compileCodexSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	p := filepath.Join("..", "..", "adapters", "hooks", "testdata", "codex", name+".command.output.schema.json")
	s, err := jsonschema.NewCompiler().Compile(filepath.ToSlash(p))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The same context is given once per file and session; another file, or
// another session, gets its own; a compaction forgets what was said.
func TestHookRemembersPerSession(t *testing.T) {
	r, root := hookRunner(t, "hook")
	write := hookEvent(t, "claude-write-new", root)
	run := func(event string) outcome {
		r.stdin = event
		o := r.run("hook")
		checkHookOutcome(t, o)
		return o
	}
	if o := run(write); o.stdout == "" {
		t.Fatal("no context the first time")
	}
	if o := run(write); o.stdout != "" || o.code != factory.ExitOK {
		t.Fatalf("the same context again in the same session:\n%s", o)
	}
	if o := run(hookEvent(t, "claude-edit-marker", root)); o.stdout == "" {
		t.Fatal("another file got nothing")
	}
	if o := run(strings.Replace(write, "9a1f0c2e-claude", "another-session", 1)); o.stdout == "" {
		t.Fatal("another session got nothing")
	}
	compact := strings.Replace(hookEvent(t, "claude-session-start", root), `"startup"`, `"compact"`, 1)
	if o := run(compact); o.stdout == "" {
		t.Fatal("no digest after a compaction")
	}
	if o := run(write); o.stdout == "" {
		t.Fatal("after a compaction the context is not given again")
	}
	// A change to what governs the file is new context.
	rec := filepath.Join(root, "docs", "adr", "0002-sessions-in-redis.md")
	data, _ := os.ReadFile(rec)
	if err := os.WriteFile(rec, []byte(strings.Replace(string(data), "status: rejected", "status: deprecated", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if o := run(write); !strings.Contains(o.stdout, "deprecated: 0002") {
		t.Fatalf("a changed governance was not given:\n%s", o)
	}
}

// Nothing is kept inside the repository's working tree: a state
// directory there, named directly, reached through a link (to a
// directory not made yet too), or the user cache directory
// (XDG_CACHE_HOME) there, is not written, one line says so, and the hook
// still answers.
func TestHookNeverWritesInTheRepository(t *testing.T) {
	outside := t.TempDir()
	cases := []struct {
		name string
		// state is the state directory for root, "" for the cache's.
		state func(t *testing.T, root string) string
		xdg   bool
	}{
		{"named", func(t *testing.T, root string) string { return filepath.Join(root, ".adrkit-state") }, false},
		{"through a link", func(t *testing.T, root string) string {
			link := filepath.Join(t.TempDir(), "link")
			linktest.Make(t, filepath.Join(root, "services"), link)
			return filepath.Join(link, "state")
		}, false},
		{"through a link to a directory not made yet", func(t *testing.T, root string) string {
			link := filepath.Join(t.TempDir(), "link")
			linktest.Make(t, filepath.Join(root, ".cache"), link)
			return filepath.Join(link, "adrkit", "hooks")
		}, false},
		{"XDG_CACHE_HOME", func(t *testing.T, root string) string {
			link := filepath.Join(outside, "cache")
			linktest.Make(t, filepath.Join(root, ".cache"), link)
			t.Setenv("XDG_CACHE_HOME", link)
			if dir, err := os.UserCacheDir(); err != nil || dir != link {
				t.Skipf("this system's user cache directory does not follow XDG_CACHE_HOME (%q, %v)", dir, err)
			}
			return ""
		}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, root := hookRunner(t, "hook")
			before := treeOf(t, root)
			r.env["ADRKIT_HOOK_STATE_DIR"] = tc.state(t, root)
			if tc.xdg {
				delete(r.env, "ADRKIT_HOOK_STATE_DIR")
			}
			r.stdin = hookEvent(t, "claude-write-new", root)
			for range 2 {
				o := r.run("hook")
				checkHookOutcome(t, o)
				if o.stdout == "" || o.code != factory.ExitOK || !strings.Contains(o.stderr, "inside the repository's working tree, where the hook never writes") {
					t.Fatalf("answer:\n%s", o)
				}
			}
			if after := treeOf(t, root); !slices.Equal(after, before) {
				t.Fatalf("written inside the repository:\n%q\nbefore:\n%q", after, before)
			}
		})
	}
}

// treeOf lists everything under root.
func treeOf(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, _ os.DirEntry, err error) error {
		out = append(out, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A memory that cannot be written does not fail the hook.
func TestHookUnwritableMemory(t *testing.T) {
	r, root := hookRunner(t, "hook")
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r.env["ADRKIT_HOOK_STATE_DIR"] = filepath.Join(blocker, "hooks")
	r.stdin = hookEvent(t, "claude-write-new", root)
	if o := r.run("hook"); o.stdout == "" || o.code != factory.ExitOK || o.stderr != "" {
		t.Fatalf("an unwritable memory changed the answer:\n%s", o)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/linktest"
)

// An answer kept for the same files of the same corpus is the answer
// worked out afresh, and a corpus that changed is worked out again.
func TestHookKeptAnswer(t *testing.T) {
	r, root := hookRunner(t, "hook")
	event := hookEvent(t, "claude-edit-marker", root)
	r.stdin = event
	first := r.run("hook")
	kept, _ := os.ReadDir(filepath.Join(r.env["ADRKIT_HOOK_STATE_DIR"], "answers"))
	if first.stdout == "" || len(kept) != 1 {
		t.Fatalf("first run: %d answers kept\n%s", len(kept), first)
	}
	r.stdin = strings.Replace(event, "9a1f0c2e-claude", "second-session", 1)
	if again := r.run("hook"); again.String() != first.String() {
		t.Fatalf("the kept answer differs:\n%s\nfirst:\n%s", again, first)
	}
	// Accepting the proposal changes what governs the file.
	rec := filepath.Join(root, "docs", "adr", "0006-grpc.md")
	data, _ := os.ReadFile(rec)
	accepted := strings.Replace(string(data), "status: proposed", "status: accepted\ndeciders: [\"@dana\"]", 1)
	if err := os.WriteFile(rec, []byte(accepted), 0o644); err != nil {
		t.Fatal(err)
	}
	r.stdin = strings.Replace(event, "9a1f0c2e-claude", "third-session", 1)
	if o := r.run("hook"); !strings.Contains(o.stdout, `governs: 0006`) || strings.Contains(o.stdout, "on hold") {
		t.Fatalf("a changed corpus got the kept answer:\n%s", o)
	}
}

// A path that is a symbolic link is governed by its path as written and,
// when it leads to a file inside the repository, by that file too.
func TestHookSymlink(t *testing.T) {
	r, root := hookRunner(t, "hook")
	if err := os.MkdirAll(filepath.Join(root, "services", "session"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "services", "session", "store.go"), []byte("package session\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linktest.Make(t, filepath.Join("..", "session", "store.go"), filepath.Join(root, "services", "api", "alias.go"))
	alias := filepath.Join(root, "services", "api", "alias.go")
	r.stdin = `{"session_id":"s","cwd":` + jsonString(root) + `,"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":` + jsonString(alias) + `}}`
	o := r.run("hook")
	checkHookOutcome(t, o)
	if !strings.Contains(o.stdout, "services/api/alias.go") || !strings.Contains(o.stdout, "services/session/store.go") ||
		!strings.Contains(o.stdout, "governs: 0001") || !strings.Contains(o.stdout, "governs: 0005") {
		t.Fatalf("a link is not governed by both its path and its target:\n%s", o)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// The corpus's governance index, kept after a first read, answers a
// first edit of a file exactly as a read of the whole corpus does, for
// every event and corpus (markers, holds, findings, the digest), through
// the files on disk; a damaged index is read around and kept again.
// (app's tests hold the index to the answer in more ways.)
func TestHookIndex(t *testing.T) {
	cases := []struct {
		corpus, event string
		args          []string
	}{
		{"hook", "claude-write-new", nil},
		{"hook", "claude-edit-marker", nil},
		{"hook", "claude-multiedit-relative", nil},
		{"hook", "claude-session-start", nil},
		{"hook", "codex-apply-patch", []string{"--host", "codex"}},
		{"hook", "cursor-post-tool-use", []string{"--host", "cursor"}},
		{"gate", "claude-findings", nil},
		{"gate", "claude-session-start", nil},
	}
	for _, tc := range cases {
		t.Run(tc.corpus+"-"+tc.event, func(t *testing.T) {
			r, root := hookRunner(t, tc.corpus)
			state := r.env["ADRKIT_HOOK_STATE_DIR"]
			session := 0
			run := func() string {
				t.Helper()
				session++
				// A new session each time: the memory never silences it.
				var ev map[string]any
				if err := json.Unmarshal([]byte(hookEvent(t, tc.event, root)), &ev); err != nil {
					t.Fatal(err)
				}
				for _, k := range []string{"session_id", "conversation_id"} {
					if _, ok := ev[k]; ok {
						ev[k] = fmt.Sprint("s", session)
					}
				}
				b, _ := json.Marshal(ev)
				r.stdin = string(b)
				o := r.run(append([]string{"hook"}, tc.args...)...)
				checkHookOutcome(t, o)
				return fmt.Sprintf("exit %d\n%s", o.code, o.stdout)
			}
			// Nothing kept: a state directory inside the repository is
			// never used, so this is a read of the whole corpus.
			r.env["ADRKIT_HOOK_STATE_DIR"] = filepath.Join(root, "state")
			want := run()
			if !strings.Contains(want, "\n{") {
				t.Fatalf("no context to compare:\n%s", want)
			}
			r.env["ADRKIT_HOOK_STATE_DIR"] = state
			if got := run(); got != want {
				t.Fatalf("first read with state:\n%s\nwant:\n%s", got, want)
			}
			ix, _ := filepath.Glob(filepath.Join(state, "index", "*"))
			if len(ix) != 1 {
				t.Fatalf("%d indexes kept after a read, want 1", len(ix))
			}
			// The index alone (no kept answer): a first edit of a file.
			if err := os.RemoveAll(filepath.Join(state, "answers")); err != nil {
				t.Fatal(err)
			}
			if got := run(); got != want {
				t.Fatalf("from the index:\n%s\nwant:\n%s", got, want)
			}
			// A damaged index: a read of the corpus, the right answer,
			// and the index kept again.
			good, _ := os.ReadFile(ix[0])
			_ = os.RemoveAll(filepath.Join(state, "answers"))
			for _, damaged := range [][]byte{good[:len(good)/2], append(bytes.Clone(good[:len(good)-1]), good[len(good)-1]^1), []byte("{}")} {
				if err := os.WriteFile(ix[0], damaged, 0o600); err != nil {
					t.Fatal(err)
				}
				if got := run(); got != want {
					t.Fatalf("with a damaged index:\n%s\nwant:\n%s", got, want)
				}
				if again, _ := os.ReadFile(ix[0]); !bytes.Equal(again, good) {
					t.Fatal("the damaged index was not replaced")
				}
				_ = os.RemoveAll(filepath.Join(state, "answers"))
			}
		})
	}
}

// A change to one record's bytes is seen by the next edit of any file,
// with an index and answers kept for the corpus before the change.
func TestHookIndexStale(t *testing.T) {
	r, root := hookRunner(t, "hook")
	event := hookEvent(t, "claude-write-new", root)
	r.stdin = event
	if o := r.run("hook"); !strings.Contains(o.stdout, "rejected: 0002") {
		t.Fatalf("before the change:\n%s", o)
	}
	rec := filepath.Join(root, "docs", "adr", "0002-sessions-in-redis.md")
	data, _ := os.ReadFile(rec)
	if err := os.WriteFile(rec, []byte(strings.Replace(string(data), "status: rejected", "status: deprecated", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, ev := range []string{
		strings.Replace(event, "9a1f0c2e-claude", "after-1", 1),                                     // the same file: a kept answer
		strings.Replace(strings.Replace(event, "9a1f0c2e-claude", "after-2", 1), ".go", "_x.go", 1), // a new file: the index
	} {
		r.stdin = ev
		if o := r.run("hook"); !strings.Contains(o.stdout, "deprecated: 0002") || strings.Contains(o.stdout, "rejected: 0002") {
			t.Fatalf("edit %d after the change is stale:\n%s", i+1, o)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(r.env["ADRKIT_HOOK_STATE_DIR"], "index"))
	if len(entries) != 2 {
		t.Fatalf("%d indexes kept for two states of the corpus, want 2", len(entries))
	}
}

// A record file too large to be read is left out of the corpus and of
// its index alike: the index is still kept, and answers as a read does.
func TestHookIndexTooLarge(t *testing.T) {
	r, root := hookRunner(t, "hook")
	big := "---\nid: \"0099\"\n---\n" + strings.Repeat("x", 70<<10)
	if err := os.WriteFile(filepath.Join(root, "docs", "adr", "0099-big.md"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	state := r.env["ADRKIT_HOOK_STATE_DIR"]
	event := hookEvent(t, "claude-write-new", root)
	r.stdin = event
	first := r.run("hook")
	if !strings.Contains(first.stdout, "1 error") {
		t.Fatalf("the large file is not an error:\n%s", first)
	}
	if entries, _ := os.ReadDir(filepath.Join(state, "index")); len(entries) != 1 {
		t.Fatalf("%d indexes kept, want 1", len(entries))
	}
	_ = os.RemoveAll(filepath.Join(state, "answers"))
	r.stdin = strings.Replace(event, "9a1f0c2e-claude", "second", 1)
	if o := r.run("hook"); o.String() != first.String() {
		t.Fatalf("from the index:\n%s\nwant:\n%s", o, first)
	}
}

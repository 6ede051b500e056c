package hooks

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/agenthost"
)

func TestDecode(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: docs/new.md\n+hi\n*** Update File: src/a.go\n*** Move to: src/b.go\n@@\n-x\n+y\n*** Delete File: old.go\n*** End Patch\n"
	cases := []struct {
		name  string
		host  agenthost.Host
		event string
		want  agenthost.Event
	}{
		{"claude write", agenthost.Claude,
			`{"session_id":"s","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/r/a.go","content":"x"}}`,
			agenthost.Event{Host: agenthost.Claude, Kind: agenthost.Edit, Name: "PreToolUse", SessionID: "s", Cwd: "/r", Tool: "Write", Paths: []string{"/r/a.go"}}},
		{"claude multiedit", agenthost.Claude,
			`{"hook_event_name":"PreToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b"}]}}`,
			agenthost.Event{Host: agenthost.Claude, Kind: agenthost.Edit, Name: "PreToolUse", Tool: "MultiEdit", Paths: []string{"a.go"}}},
		{"claude notebook", agenthost.Claude,
			`{"hook_event_name":"PreToolUse","tool_name":"NotebookEdit","tool_input":{"notebook_path":"n.ipynb","new_source":"x"}}`,
			agenthost.Event{Host: agenthost.Claude, Kind: agenthost.Edit, Name: "PreToolUse", Tool: "NotebookEdit", Paths: []string{"n.ipynb"}}},
		{"claude bash is not an edit", agenthost.Claude,
			`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`,
			agenthost.Event{Host: agenthost.Claude, Kind: agenthost.Other, Name: "PreToolUse", Tool: "Bash"}},
		{"claude session start", agenthost.Claude,
			`{"hook_event_name":"SessionStart","session_id":"s","source":"compact","cwd":"/r"}`,
			agenthost.Event{Host: agenthost.Claude, Kind: agenthost.SessionStart, Name: "SessionStart", SessionID: "s", Source: "compact", Cwd: "/r"}},
		{"claude unknown event", agenthost.Claude, `{"hook_event_name":"Stop"}`, agenthost.Event{Host: agenthost.Claude, Name: "Stop"}},
		{"claude extra fields ignored", agenthost.Claude,
			`{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"a","new":1},"future":[1,2]}`,
			agenthost.Event{Host: agenthost.Claude, Kind: agenthost.Edit, Name: "PreToolUse", Tool: "Edit", Paths: []string{"a"}}},
		{"vs code editFiles", agenthost.Claude,
			`{"hook_event_name":"PreToolUse","session_id":"v","cwd":"/r","tool_name":"editFiles","tool_input":{"files":["src/main.ts","src/b.ts"]},"tool_use_id":"tool-123"}`,
			agenthost.Event{Host: agenthost.Claude, Kind: agenthost.Edit, Name: "PreToolUse", SessionID: "v", Cwd: "/r", Tool: "editFiles", Paths: []string{"src/main.ts", "src/b.ts"}}},
		{"codex apply_patch", agenthost.Codex,
			`{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":` + quote(patch) + `}}`,
			agenthost.Event{Host: agenthost.Codex, Kind: agenthost.Edit, Name: "PreToolUse", Tool: "apply_patch", Paths: []string{"docs/new.md", "src/a.go", "src/b.go", "old.go"}}},
		{"codex apply_patch as input", agenthost.Codex,
			`{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"input":` + quote(patch) + `}}`,
			agenthost.Event{Host: agenthost.Codex, Kind: agenthost.Edit, Name: "PreToolUse", Tool: "apply_patch", Paths: []string{"docs/new.md", "src/a.go", "src/b.go", "old.go"}}},
		{"cursor post tool use", agenthost.Cursor,
			`{"hook_event_name":"postToolUse","conversation_id":"c","workspace_roots":["/w","/x"],"tool_name":"Write","tool_input":{"file_path":"/w/a.go"}}`,
			agenthost.Event{Host: agenthost.Cursor, Kind: agenthost.Edit, Name: "postToolUse", SessionID: "c", Cwd: "/w", Tool: "Write", Paths: []string{"/w/a.go"}}},
		{"cursor pre tool use is not answered", agenthost.Cursor,
			`{"hook_event_name":"preToolUse","conversation_id":"c","tool_name":"Write","tool_input":{"file_path":"/w/a.go"}}`,
			agenthost.Event{Host: agenthost.Cursor, Kind: agenthost.Other, Name: "preToolUse", SessionID: "c", Tool: "Write"}},
		{"cursor session start", agenthost.Cursor,
			`{"hook_event_name":"sessionStart","conversation_id":"c","workspace_roots":["/w"]}`,
			agenthost.Event{Host: agenthost.Cursor, Kind: agenthost.SessionStart, Name: "sessionStart", SessionID: "c", Cwd: "/w"}},
		{"copilot edit, args as a string", agenthost.Copilot,
			`{"sessionId":"p","timestamp":1,"cwd":"/r","toolName":"edit","toolArgs":"{\"path\":\"src/a.go\"}"}`,
			agenthost.Event{Host: agenthost.Copilot, Kind: agenthost.Edit, Name: "preToolUse", SessionID: "p", Cwd: "/r", Tool: "edit", Paths: []string{"src/a.go"}}},
		{"copilot session start", agenthost.Copilot,
			`{"sessionId":"p","timestamp":1,"cwd":"/r","source":"new"}`,
			agenthost.Event{Host: agenthost.Copilot, Kind: agenthost.SessionStart, Name: "sessionStart", SessionID: "p", Cwd: "/r", Source: "new"}},
		{"gemini after write_file", agenthost.Gemini,
			`{"session_id":"g","transcript_path":"/t.json","cwd":"/r","hook_event_name":"AfterTool","timestamp":"2026-12-08T00:00:00Z","tool_name":"write_file","tool_input":{"file_path":"/r/a.go","content":"x"},"tool_response":{"llmContent":"ok"}}`,
			agenthost.Event{Host: agenthost.Gemini, Kind: agenthost.Edit, Name: "AfterTool", SessionID: "g", Cwd: "/r", Tool: "write_file", Paths: []string{"/r/a.go"}}},
		{"gemini after replace", agenthost.Gemini,
			`{"hook_event_name":"AfterTool","tool_name":"replace","tool_input":{"file_path":"a.go","instruction":"i","old_string":"a","new_string":"b"}}`,
			agenthost.Event{Host: agenthost.Gemini, Kind: agenthost.Edit, Name: "AfterTool", Tool: "replace", Paths: []string{"a.go"}}},
		{"gemini before tool is not answered", agenthost.Gemini,
			`{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"a.go"}}`,
			agenthost.Event{Host: agenthost.Gemini, Kind: agenthost.Other, Name: "BeforeTool", Tool: "write_file"}},
		{"gemini shell is not an edit", agenthost.Gemini,
			`{"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
			agenthost.Event{Host: agenthost.Gemini, Kind: agenthost.Other, Name: "AfterTool", Tool: "run_shell_command"}},
		{"gemini session start", agenthost.Gemini,
			`{"hook_event_name":"SessionStart","session_id":"g","cwd":"/r","source":"resume"}`,
			agenthost.Event{Host: agenthost.Gemini, Kind: agenthost.SessionStart, Name: "SessionStart", SessionID: "g", Cwd: "/r", Source: "resume"}},
		{"gemini prompt", agenthost.Gemini,
			`{"hook_event_name":"BeforeAgent","session_id":"g","cwd":"/r","prompt":"Use Redis for sessions?"}`,
			agenthost.Event{Host: agenthost.Gemini, Kind: agenthost.Prompt, Name: "BeforeAgent", SessionID: "g", Cwd: "/r", Prompt: "Use Redis for sessions?"}},
		{"claude has no prompt event of adrkit's", agenthost.Claude,
			`{"hook_event_name":"BeforeAgent","prompt":"p"}`,
			agenthost.Event{Host: agenthost.Claude, Name: "BeforeAgent"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode(tc.host, strings.NewReader(tc.event))
			if err != nil {
				t.Fatal(err)
			}
			if got.Host != tc.want.Host || got.Kind != tc.want.Kind || got.Name != tc.want.Name || got.SessionID != tc.want.SessionID ||
				got.Cwd != tc.want.Cwd || got.Tool != tc.want.Tool || got.Source != tc.want.Source || got.Prompt != tc.want.Prompt ||
				!slices.Equal(got.Paths, tc.want.Paths) {
				t.Fatalf("Decode = %+v\nwant     %+v", got, tc.want)
			}
		})
	}
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func TestDecodeRefuses(t *testing.T) {
	cases := []struct{ name, event, want string }{
		{"empty", "  \n", "no event"},
		{"not json", "PreToolUse", "not the JSON object"},
		{"array", `[1]`, "expected an object"},
		{"wrong type", `{"hook_event_name":3}`, "field hook_event_name has the wrong type"},
		{"tool input wrong type", `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":7}}`, "Write tool_input"},
		{"no event name", `{"tool_name":"Write"}`, "no hook_event_name"},
		{"truncated", `{"hook_event_name":"PreToolUse"`, "not the JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(agenthost.Claude, strings.NewReader(tc.event))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Decode error = %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
		})
	}
}

// A huge event is refused after MaxEventBytes, without reading the rest.
func TestDecodeBoundsTheRead(t *testing.T) {
	r := &endless{prefix: `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"content":"`}
	_, err := Decode(agenthost.Claude, r)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Decode error = %v, want ErrTooLarge", err)
	}
	if r.read > MaxEventBytes+64<<10 {
		t.Fatalf("read %d bytes for a bound of %d", r.read, MaxEventBytes)
	}
}

// endless is a reader that never ends: a prefix, then 'x' forever.
type endless struct {
	prefix string
	read   int
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if e.read+n < len(e.prefix) {
			p[n] = e.prefix[e.read+n]
		} else {
			p[n] = 'x'
		}
		n++
	}
	e.read += n
	return n, nil
}

// A patch naming more files than an event may is answered for the first
// agenthost.MaxEventFiles, the rest counted; blank names and other lines
// are not files.
func TestPatchPaths(t *testing.T) {
	ev := agenthost.Event{}
	patchPaths(&ev, "*** Begin Patch\r\n*** Update File:  a b.go \r\n*** Add File: \n*** Delete File: c.go\n*** End Patch")
	if want := []string{"a b.go", "c.go"}; !slices.Equal(ev.Paths, want) || ev.Omitted != 0 {
		t.Fatalf("paths %q, %d omitted; want %q", ev.Paths, ev.Omitted, want)
	}
	var patch strings.Builder
	patch.WriteString("*** Begin Patch\n")
	for i := range 4000 {
		fmt.Fprintf(&patch, "*** Add File: src/f%d.go\n+x\n", i)
	}
	event := `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":` + quote(patch.String()) + `}}`
	got, err := Decode(agenthost.Codex, strings.NewReader(event))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Paths) != agenthost.MaxEventFiles || got.Paths[0] != "src/f0.go" || got.Omitted != 4000-agenthost.MaxEventFiles {
		t.Fatalf("%d paths (first %q), %d omitted", len(got.Paths), got.Paths[0], got.Omitted)
	}
}

// Claude Code's end-to-end test: the real client against a stand-in for
// the Anthropic Messages API on loopback, in a repository wired by
// "adrkit init". The decisions governing a file reach the request that
// follows the client's Write of it; a file nothing governs adds nothing.
// The plugin of this repository (plugins/adrkit), loaded with
// --plugin-dir, is held to the same. It also runs "adrkit doctor" with the
// built binary, which starts the processes the wired files name.

package agente2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/agenttools"
)

// task is the prompt of a turn that only writes a file: no record
// answers it, so the prompt's hook adds nothing.
const task = "Write the file the task needs."

// hookPrefix is how Claude Code 2.1.x hands a PreToolUse hook's
// additionalContext to the model for the Write tool.
const hookPrefix = "PreToolUse:Write hook additional context:"

// stub is the stand-in for the Messages API: the main loop's first
// writes requests are each answered with a Write of target, every later
// one ends the turn; every request body is kept.
type stub struct {
	target string // absolute path the Write writes
	writes int    // how many Writes to ask for (at least 1)
	mu     sync.Mutex
	bodies []map[string]any
	wrote  int
}

func (s *stub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/v1/messages") {
		// count_tokens and anything else: a small, valid answer.
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"input_tokens": 10}`)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	useTool := s.wrote < max(s.writes, 1) && offersWrite(body)
	if useTool {
		s.wrote++
	}
	id := fmt.Sprintf("toolu_%02d", s.wrote)
	s.mu.Unlock()
	var blocks []map[string]any
	stop := "end_turn"
	if useTool {
		input, _ := json.Marshal(map[string]string{"file_path": s.target, "content": fmt.Sprintf("package session // %s\n", id)})
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": id, "name": "Write", "input": string(input)})
		stop = "tool_use"
	} else {
		blocks = append(blocks, map[string]any{"type": "text", "text": "Done."})
	}
	if stream, _ := body["stream"].(bool); !stream {
		content := []map[string]any{}
		for _, b := range blocks {
			if b["type"] == "tool_use" {
				var in any
				_ = json.Unmarshal([]byte(b["input"].(string)), &in)
				content = append(content, map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": in})
			} else {
				content = append(content, b)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_stub", "type": "message", "role": "assistant", "model": body["model"], "content": content,
			"stop_reason": stop, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 10, "output_tokens": 5},
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	send := func(event string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	}
	send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_stub", "type": "message", "role": "assistant", "model": body["model"], "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 10, "output_tokens": 1},
	}})
	for i, b := range blocks {
		if b["type"] == "tool_use" {
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": b["input"]}})
		} else {
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": b["text"]}})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 5}})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// offersWrite reports whether a request is the main loop's: it offers
// the model the Write tool.
func offersWrite(body map[string]any) bool {
	tools, _ := body["tools"].([]any)
	for _, t := range tools {
		if m, ok := t.(map[string]any); ok && m["name"] == "Write" {
			return true
		}
	}
	return false
}

// afterToolResult is, for every request that carries a Write's tool
// result, the text of its messages from its last tool result on: what
// reached the model because of that Write (the session's opening context,
// and earlier Writes, are before it), in request order.
func (s *stub) afterToolResult() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, b := range s.bodies {
		msgs, _ := b["messages"].([]any)
		for i := len(msgs) - 1; i >= 0; i-- {
			raw, _ := json.Marshal(msgs[i])
			if bytes.Contains(raw, []byte(`"tool_result"`)) {
				tail, _ := json.Marshal(msgs[i:])
				out = append(out, string(tail))
				break
			}
		}
	}
	return out
}

// hookContexts counts the hook contexts in the messages of the i-th
// request that carries a tool result.
func (s *stub) hookContexts(i int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.bodies {
		raw, _ := json.Marshal(b["messages"])
		if !bytes.Contains(raw, []byte(`"tool_result"`)) {
			continue
		}
		if i == 0 {
			return strings.Count(string(raw), hookPrefix)
		}
		i--
	}
	return -1
}

// firstTurn is the messages of the first request of the main loop (the
// one the user's prompt starts), as JSON.
func (s *stub) firstTurn() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.bodies {
		if offersWrite(b) {
			raw, _ := json.Marshal(b["messages"])
			return string(raw)
		}
	}
	return ""
}

// mentioned reports whether any request body holds text.
func (s *stub) mentioned(text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.bodies {
		raw, _ := json.Marshal(b)
		if bytes.Contains(raw, []byte(text)) {
			return true
		}
	}
	return false
}

// newRepo is a git repository with the two decisions, wired by the built
// adrkit's "init" (Claude Code: .mcp.json and .claude/settings.json).
func newRepo(t *testing.T, bin string) string {
	t.Helper()
	root := corpusRepo(t)
	cmd := exec.Command(filepath.Join(bin, "adrkit"), "init")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("adrkit init: %v\n%s", err, out)
	}
	return root
}

// runClaude runs one non-interactive Claude Code turn of prompt in root
// against the stub, bounded in time, and returns the stub.
func runClaude(t *testing.T, claude, bin, root, prompt, target string, writes int, extra ...string) *stub {
	t.Helper()
	s := &stub{target: target, writes: writes}
	srv := httptest.NewServer(s)
	defer srv.Close()
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := append([]string{"-p", prompt,
		"--permission-mode", "acceptEdits", "--allowedTools", "Write,Edit", "--model", "claude-sonnet-4-5"}, extra...)
	cmd := exec.CommandContext(ctx, claude, args...)
	cmd.Dir = root
	cmd.Env = agenttools.Env(home,
		"ANTHROPIC_BASE_URL="+srv.URL,
		"ANTHROPIC_API_KEY=dummy",
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"ADRKIT_HOOK_STATE_DIR="+filepath.Join(home, "adrkit-hooks"),
	)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("claude did not finish in time:\n%s", tail(out.String()))
	}
	if err != nil {
		t.Fatalf("claude: %v\n%s", err, tail(out.String()))
	}
	if s.wrote == 0 {
		t.Fatalf("the client never offered the Write tool; output:\n%s", tail(out.String()))
	}
	return s
}

// hookLines is what a request says about hooks, for failure messages.
func hookLines(raw string) string {
	var out []string
	for _, part := range strings.Split(raw, `\n`) {
		if strings.Contains(part, "hook") {
			out = append(out, part)
		}
	}
	return strings.Join(out, "\n")
}

// TestClaudeCodeHooks: in a repository wired by adrkit init, Claude Code
// runs adrkit hook before its Write, and the next request it sends the
// model carries the governing decision and the rejected alternative;
// a Write of a file nothing governs adds no hook context.
func TestClaudeCodeHooks(t *testing.T) {
	claude := agenttools.Claude(t)
	if runtime.GOOS == "windows" {
		t.Skip("the hooks run through a POSIX shell here; Windows is covered by the unit tests")
	}
	bin := buildAdrkit(t)

	t.Run("governed", func(t *testing.T) {
		root := newRepo(t, bin)
		target := filepath.Join(root, "services", "session", "store.go")
		s := runClaude(t, claude, bin, root, task, target, 2)
		next := s.afterToolResult()
		if len(next) < 2 {
			t.Fatalf("%d requests carried a Write's result, want 2", len(next))
		}
		// The second Write of the same file in the same session is not
		// told again what the first was: the request after it holds the
		// context once, the first Write's.
		if n := s.hookContexts(len(next) - 1); n != 1 {
			t.Errorf("the request after the second Write holds %d hook contexts, want the first Write's alone", n)
		}
		text := next[0]
		t.Logf("after the Write: %s", hookLines(text))
		for _, want := range []string{hookPrefix, "0001", "Keep session state in PostgreSQL", "0002", "Keep session state in Redis"} {
			if !strings.Contains(text, want) {
				t.Errorf("the request after the Write lacks %q; its hook context:\n%s", want, hookLines(text))
			}
		}
		if _, err := os.Stat(target); err != nil {
			t.Errorf("the hook must not block the Write: %v", err)
		}
		// The .mcp.json init wrote started the server: its tools are
		// offered to the model.
		if !s.mentioned("mcp__adrkit__get_decision_context") {
			t.Error("no request offered the adrkit MCP server's tools")
		}
	})

	// The plugin of this repository, loaded for the session, wires the
	// same hooks and server in a repository init never touched.
	t.Run("plugin", func(t *testing.T) {
		plugin, err := filepath.Abs(filepath.Join("..", "..", "plugins", "adrkit"))
		if err != nil {
			t.Fatal(err)
		}
		root := corpusRepo(t)
		target := filepath.Join(root, "services", "session", "store.go")
		s := runClaude(t, claude, bin, root, task, target, 1, "--plugin-dir", plugin)
		next := s.afterToolResult()
		if len(next) == 0 {
			t.Fatal("no request carried the Write's result")
		}
		for _, want := range []string{hookPrefix, "Keep session state in PostgreSQL", "Keep session state in Redis"} {
			if !strings.Contains(next[0], want) {
				t.Errorf("the request after the Write lacks %q; its hook context:\n%s", want, hookLines(next[0]))
			}
		}
		if !s.mentioned("mcp__plugin_adrkit_adrkit__get_decision_context") {
			t.Error("no request offered the plugin's MCP server's tools")
		}
	})

	t.Run("ungoverned", func(t *testing.T) {
		root := newRepo(t, bin)
		target := filepath.Join(root, "notes", "scratch.txt")
		s := runClaude(t, claude, bin, root, task, target, 1)
		next := s.afterToolResult()
		if len(next) == 0 {
			t.Fatal("no request carried the Write's result")
		}
		if strings.Contains(next[0], hookPrefix) || strings.Contains(next[0], "Keep session state") {
			t.Errorf("an ungoverned file got hook context:\n%s", hookLines(next[0]))
		}
		if _, err := os.Stat(target); err != nil {
			t.Errorf("the Write did not happen: %v", err)
		}
		if s.mentioned("adrkit: 0") {
			t.Errorf("a prompt no record answers got context:\n%s", hookLines(s.firstTurn()))
		}
	})

	// A prompt that proposes the rejected decision: the first request of
	// the turn carries the prompt and, as the prompt hook's context, the
	// line naming it (Claude Code puts it in the prompt's message).
	t.Run("prompt", func(t *testing.T) {
		root := newRepo(t, bin)
		const prompt = "Should we keep the session state in Redis instead?"
		s := runClaude(t, claude, bin, root, prompt, filepath.Join(root, "notes", "scratch.txt"), 1)
		first := s.firstTurn()
		const said = `UserPromptSubmit hook additional context: adrkit: 0002 \"Keep session state in Redis\" was rejected - do not propose it again`
		if !strings.Contains(first, prompt) || !strings.Contains(first, said) {
			t.Errorf("the turn's first request lacks the prompt or %s:\n%s", said, hookLines(first))
		}
	})
}

// TestDoctorRealBinary: in a repository wired by init, "adrkit doctor"
// with the built binary on PATH starts the real processes (the binary's
// --version, the servers' initialize, the hooks' session start) and
// finds no problem.
func TestDoctorRealBinary(t *testing.T) {
	bin := buildAdrkit(t)
	root := newRepo(t, bin)
	wire := exec.Command(filepath.Join(bin, "adrkit"), "init", "--agents", "claude,codex,cursor,vscode,copilot")
	wire.Dir = root
	if out, err := wire.CombinedOutput(); err != nil {
		t.Fatalf("adrkit init: %v\n%s", err, out)
	}
	cmd := exec.Command(filepath.Join(bin, "adrkit"), "doctor")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "No problems found.") ||
		!strings.Contains(string(out), "hook of .claude/settings.json: answers") ||
		!strings.Contains(string(out), "MCP server of .mcp.json: answers initialize") {
		t.Errorf("adrkit doctor: %v\n%s", err, out)
	}
}

package agente2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/agenttools"
)

// responsesAPI stands in for OpenAI's Responses API: the first request
// that offers the apply_patch tool is answered with an apply_patch call
// adding target, every later one ends the turn with text; every request
// body is kept.
type responsesAPI struct {
	target string
	bodies bodies
	wrote  bool
}

func (a *responsesAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	if !strings.HasSuffix(r.URL.Path, "/responses") {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object": "list", "data": []}`)
		return
	}
	n := a.bodies.add(raw)
	var body struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(raw, &body)
	offers := false
	for _, tool := range body.Tools {
		offers = offers || tool.Name == "apply_patch"
	}
	item := map[string]any{"type": "message", "role": "assistant", "id": fmt.Sprintf("msg_%d", n), "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": "Done.", "annotations": []any{}}}}
	a.bodies.mu.Lock()
	if offers && !a.wrote {
		a.wrote = true
		item = map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_%d", n), "call_id": "call_patch", "name": "apply_patch", "status": "completed",
			"input": "*** Begin Patch\n*** Add File: " + a.target + "\n+package session\n*** End Patch\n"}
	}
	a.bodies.mu.Unlock()
	id := fmt.Sprintf("resp_%d", n)
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(event string, data map[string]any) {
		data["type"] = event
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	}
	send("response.created", map[string]any{"response": map[string]any{"id": id, "object": "response", "status": "in_progress", "output": []any{}}})
	send("response.output_item.added", map[string]any{"output_index": 0, "item": item})
	send("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	send("response.completed", map[string]any{"response": map[string]any{"id": id, "object": "response", "status": "completed", "output": []any{item},
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
			"input_tokens_details": map[string]int{"cached_tokens": 0}, "output_tokens_details": map[string]int{"reasoning_tokens": 0}}}})
}

// afterPatch is, from the last request, the conversation from the
// apply_patch call on: what reached the model because of the patch.
func (a *responsesAPI) afterPatch(t *testing.T) string {
	t.Helper()
	all := a.bodies.all()
	if len(all) == 0 {
		t.Fatal("the model API got no request")
	}
	input, _ := decode(t, all[len(all)-1])["input"].([]any)
	for i, item := range input {
		if m, _ := item.(map[string]any); m["type"] == "custom_tool_call" {
			return texts(input[i:])
		}
	}
	t.Fatalf("the last request carries no apply_patch call:\n%s", all[len(all)-1])
	return ""
}

// conversation is the text of every request.
func (a *responsesAPI) conversation(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, raw := range a.bodies.all() {
		b.WriteString(texts(decode(t, raw)["input"]))
	}
	return b.String()
}

// runCodex runs "codex exec" in a repository wired by "adrkit init
// --agents codex" against the stand-in, which asks for an apply_patch
// adding target; it checks the session (checkSession) and that the
// patch was applied, and returns what followed the patch.
func runCodex(t *testing.T, codex, bin, target string) string {
	t.Helper()
	root := wiredRepo(t, bin, "codex")
	api := &responsesAPI{target: target}
	out := codexExec(t, codex, bin, root, api, "Write the file the task needs.")
	if !api.wrote {
		t.Fatalf("the client never offered the apply_patch tool; output:\n%s", tail(out))
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
		t.Errorf("the patch was not applied: %v", err)
	}
	all := api.conversation(t)
	checkSession(t, all, out)
	// Codex offers MCP tools through its tool_search, and names the
	// namespace of every server that started.
	if !strings.Contains(all, "- mcp__adrkit\n") {
		t.Error("the adrkit server's tools were not offered to the model")
	}
	return api.afterPatch(t)
}

// codexExec runs one "codex exec" turn of prompt in root against api,
// served on loopback for the turn, and returns the client's output.
func codexExec(t *testing.T, codex, bin, root string, api *responsesAPI, prompt string) string {
	t.Helper()
	srv := httptest.NewServer(api)
	defer srv.Close()
	home := t.TempDir()
	// A model from Codex's catalog (otherwise it offers no apply_patch),
	// served by the stand-in; no plugins (they reach github.com at
	// start), no analytics; the repository trusted, so that its .codex/
	// is read.
	writeFile(t, filepath.Join(home, "codex", "config.toml"), fmt.Sprintf(`model = "gpt-5.5"
model_provider = "stub"

[model_providers.stub]
name = "stub"
base_url = "%s/v1"
wire_api = "responses"

[features]
plugins = false

[analytics]
enabled = false

[projects.%q]
trust_level = "trusted"
`, srv.URL, root))
	env := agenttools.Env(home,
		"CODEX_HOME="+filepath.Join(home, "codex"),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
	)
	// Unreviewed project hooks are skipped silently without
	// --dangerously-bypass-hook-trust.
	return run(t, root, env, codex, "exec", "--dangerously-bypass-hook-trust", "--dangerously-bypass-approvals-and-sandbox", prompt)
}

// TestCodexCLIHooks: in a repository wired by "adrkit init --agents
// codex", Codex CLI starts the adrkit server and runs adrkit hook at the
// session's start and before its apply_patch: the model gets the digest,
// and the governing decision and the rejected alternative beside the
// patch's result, as developer messages; a file nothing governs adds
// nothing.
func TestCodexCLIHooks(t *testing.T) {
	codex := agenttools.Codex(t)
	skipOnWindows(t)
	bin := buildAdrkit(t)
	t.Run("governed", func(t *testing.T) {
		checkGoverned(t, runCodex(t, codex, bin, governed))
	})
	t.Run("ungoverned", func(t *testing.T) {
		checkUngoverned(t, runCodex(t, codex, bin, ungoverned))
	})
}

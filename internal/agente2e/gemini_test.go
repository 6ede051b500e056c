package agente2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/agenttools"
)

// geminiAPI stands in for the Gemini API: the first request that offers
// the write_file tool is answered with a write_file call of target, every
// later one ends the turn with text; every request body is kept.
type geminiAPI struct {
	target string
	bodies bodies
	wrote  bool
}

func (g *geminiAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	if !strings.Contains(r.URL.Path, ":streamGenerateContent") && !strings.Contains(r.URL.Path, ":generateContent") {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"totalTokens": 10}`)
		return
	}
	g.bodies.add(raw)
	var body struct {
		Tools []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(raw, &body)
	offers := false
	for _, tool := range body.Tools {
		for _, f := range tool.FunctionDeclarations {
			offers = offers || f.Name == "write_file"
		}
	}
	part := map[string]any{"text": "Done."}
	g.bodies.mu.Lock()
	if offers && !g.wrote {
		g.wrote = true
		part = map[string]any{"functionCall": map[string]any{"name": "write_file",
			"args": map[string]string{"file_path": g.target, "content": "package session\n"}}}
	}
	g.bodies.mu.Unlock()
	answer, _ := json.Marshal(map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]int{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-2.5-flash",
	})
	if strings.Contains(r.URL.Path, ":generateContent") {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprintf(w, "data: %s\r\n\r\n", answer)
}

// afterWrite is, from the last request, the conversation from the
// write_file call's response on: what reached the model because of the
// write.
func (g *geminiAPI) afterWrite(t *testing.T) string {
	t.Helper()
	all := g.bodies.all()
	if len(all) == 0 {
		t.Fatal("the model API got no request")
	}
	contents, _ := decode(t, all[len(all)-1])["contents"].([]any)
	for i, c := range contents {
		raw, _ := json.Marshal(c)
		if strings.Contains(string(raw), `"functionResponse"`) {
			return texts(contents[i:])
		}
	}
	t.Fatalf("the last request carries no function response:\n%s", all[len(all)-1])
	return ""
}

// conversation is the text of every request, and the names of the
// tools the first offered.
func (g *geminiAPI) conversation(t *testing.T) (all string, tools []string) {
	t.Helper()
	var b strings.Builder
	for i, raw := range g.bodies.all() {
		body := decode(t, raw)
		b.WriteString(texts(body["contents"]))
		if i > 0 {
			continue
		}
		decls, _ := body["tools"].([]any)
		for _, d := range decls {
			fs, _ := d.(map[string]any)["functionDeclarations"].([]any)
			for _, f := range fs {
				name, _ := f.(map[string]any)["name"].(string)
				tools = append(tools, name)
			}
		}
	}
	return b.String(), tools
}

// runGemini runs one non-interactive Gemini CLI turn in a repository
// wired by "adrkit init --agents gemini" against the stand-in, which asks
// for a write_file of target; it checks the session (checkSession) and
// that the write happened, and returns what followed the write.
func runGemini(t *testing.T, gemini, bin, target string) string {
	t.Helper()
	root := wiredRepo(t, bin, "gemini")
	api := &geminiAPI{target: filepath.Join(root, filepath.FromSlash(target))}
	out := geminiRun(t, gemini, bin, root, api, "Write the file the task needs.")
	if !api.wrote {
		t.Fatalf("the client never offered the write_file tool; output:\n%s", tail(out))
	}
	if _, err := os.Stat(api.target); err != nil {
		t.Errorf("the write did not happen: %v", err)
	}
	all, tools := api.conversation(t)
	checkSession(t, all, out)
	if !slices.Contains(tools, "mcp_adrkit_get_decision_context") {
		t.Errorf("the adrkit server's tools were not offered to the model: %q", tools)
	}
	return api.afterWrite(t)
}

// geminiRun runs one non-interactive Gemini CLI turn of prompt in root
// against api, served on loopback for the turn, and returns the
// client's output.
func geminiRun(t *testing.T, gemini, bin, root string, api *geminiAPI, prompt string) string {
	t.Helper()
	srv := httptest.NewServer(api)
	defer srv.Close()
	home := t.TempDir()
	// The user's settings: API-key authentication, nothing sent
	// anywhere but the model's API.
	writeFile(t, filepath.Join(home, ".gemini", "settings.json"), `{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "telemetry": {"enabled": false},
  "privacy": {"usageStatisticsEnabled": false},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}
}
`)
	env := agenttools.Env(home,
		"GEMINI_CLI_HOME="+home,
		"GEMINI_API_KEY=dummy",
		"GOOGLE_GEMINI_BASE_URL="+srv.URL,
		"GEMINI_CLI_TRUST_WORKSPACE=true",
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
	)
	// A pinned model: no routing request before the turn.
	return run(t, root, env, gemini, "--yolo", "-m", "gemini-2.5-flash", "-p", prompt)
}

// TestGeminiCLIHooks: in a repository wired by "adrkit init --agents
// gemini", Gemini CLI starts the adrkit server and runs adrkit hook at
// the session's start and after its write_file: the model gets the
// digest with the prompt, and the governing decision and the rejected
// alternative with the tool's result; a file nothing governs adds
// nothing.
func TestGeminiCLIHooks(t *testing.T) {
	gemini := agenttools.Gemini(t)
	skipOnWindows(t)
	bin := buildAdrkit(t)
	t.Run("governed", func(t *testing.T) {
		checkGoverned(t, runGemini(t, gemini, bin, governed))
	})
	t.Run("ungoverned", func(t *testing.T) {
		checkUngoverned(t, runGemini(t, gemini, bin, ungoverned))
	})
}

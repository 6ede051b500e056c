package agente2e

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/agenttools"
)

// The prompts of the prompt hook's cases: one that proposes the rejected
// decision, whose line must reach the model, and one no record answers.
const (
	proposesRejected = "Should we keep the session state in Redis instead?"
	rejectedLine     = `adrkit: 0002 "Keep session state in Redis" was rejected - do not propose it again`
)

// checkPrompt holds what reached the model (all, the text of every
// request) after prompt: the rejected decision's line when the prompt
// proposes it, no line of the prompt hook's otherwise.
func checkPrompt(t *testing.T, prompt, all string) {
	t.Helper()
	if !strings.Contains(all, prompt) {
		t.Fatalf("no request carried the prompt %q", prompt)
	}
	if got, want := strings.Contains(all, rejectedLine), prompt == proposesRejected; got != want {
		t.Errorf("after %q, the line %q reached the model: %v, want %v", prompt, rejectedLine, got, want)
	}
	if prompt != proposesRejected && strings.Contains(all, "adrkit: 0") {
		t.Errorf("a prompt no record answers got a line of the prompt hook's:\n%s", all)
	}
}

// TestCodexCLIPrompt: Codex CLI runs adrkit hook on UserPromptSubmit, and
// the model gets, as a developer message, the line naming the rejected
// decision a prompt proposes again; a prompt no record answers adds
// nothing.
func TestCodexCLIPrompt(t *testing.T) {
	codex := agenttools.Codex(t)
	skipOnWindows(t)
	bin := buildAdrkit(t)
	for _, prompt := range []string{proposesRejected, "Write the file the task needs."} {
		root := wiredRepo(t, bin, "codex")
		api := &responsesAPI{target: ungoverned}
		srv := httptest.NewServer(api)
		home := t.TempDir()
		// As runCodex: a catalog model served by the stand-in, no
		// plugins or analytics, the repository trusted.
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
		env := agenttools.Env(home, "CODEX_HOME="+filepath.Join(home, "codex"), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		run(t, root, env, codex, "exec", "--dangerously-bypass-hook-trust", "--dangerously-bypass-approvals-and-sandbox", prompt)
		srv.Close()
		checkPrompt(t, prompt, api.conversation(t))
	}
}

// TestGeminiCLIPrompt: Gemini CLI runs adrkit hook on BeforeAgent, and
// the line naming the rejected decision a prompt proposes again is
// appended to the prompt; a prompt no record answers adds nothing.
func TestGeminiCLIPrompt(t *testing.T) {
	gemini := agenttools.Gemini(t)
	skipOnWindows(t)
	bin := buildAdrkit(t)
	for _, prompt := range []string{proposesRejected, "Write the file the task needs."} {
		root := wiredRepo(t, bin, "gemini")
		api := &geminiAPI{target: filepath.Join(root, ungoverned)}
		srv := httptest.NewServer(api)
		home := t.TempDir()
		// As runGemini: API-key authentication, nothing sent anywhere
		// but the stand-in, the workspace trusted, a pinned model.
		writeFile(t, filepath.Join(home, ".gemini", "settings.json"), `{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "telemetry": {"enabled": false},
  "privacy": {"usageStatisticsEnabled": false},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}
}
`)
		env := agenttools.Env(home, "GEMINI_CLI_HOME="+home, "GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL="+srv.URL,
			"GEMINI_CLI_TRUST_WORKSPACE=true", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out := run(t, root, env, gemini, "--yolo", "-m", "gemini-2.5-flash", "-p", prompt)
		srv.Close()
		all, _ := api.conversation(t)
		checkPrompt(t, prompt, all)
		checkSession(t, all, out)
	}
}

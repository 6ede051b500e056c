package agente2e

import (
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
		codexExec(t, codex, bin, root, api, prompt)
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
		out := geminiRun(t, gemini, bin, root, api, prompt)
		all, _ := api.conversation(t)
		checkPrompt(t, prompt, all)
		checkSession(t, all, out)
	}
}

// Package agenttools finds the coding-agent clients that some tests drive
// (Claude Code, Codex CLI and Gemini CLI, from npm). A test that needs one
// skips when it is missing, unless ADRKIT_AGENT_TOOLS=required, which
// .ci/run sets after installing them: there a missing client is a
// failure. Only tests import it.
package agenttools

import (
	"os"
	"os/exec"
	"testing"
)

// The releases the tests are written against and .ci/run installs.
const (
	ClaudeVersion = "2.1.328"
	CodexVersion  = "0.169.0"
	GeminiVersion = "0.61.0"
)

// Claude returns the path of Claude Code's executable: $ADRKIT_CLAUDE,
// else claude on PATH.
func Claude(t testing.TB) string {
	t.Helper()
	return find(t, "Claude Code", "ADRKIT_CLAUDE", "claude", "@anthropic-ai/claude-code@"+ClaudeVersion)
}

// Codex returns the path of Codex CLI's executable: $ADRKIT_CODEX, else
// codex on PATH.
func Codex(t testing.TB) string {
	t.Helper()
	return find(t, "Codex CLI", "ADRKIT_CODEX", "codex", "@openai/codex@"+CodexVersion)
}

// Gemini returns the path of Gemini CLI's executable: $ADRKIT_GEMINI,
// else gemini on PATH.
func Gemini(t testing.TB) string {
	t.Helper()
	return find(t, "Gemini CLI", "ADRKIT_GEMINI", "gemini", "@google/gemini-cli@"+GeminiVersion)
}

// find is a client's executable, named by the variable env or found as
// bin on PATH; missing, the test skips saying how to install it from
// the npm package pkg, or fails where the clients are required.
func find(t testing.TB, name, env, bin, pkg string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := exec.LookPath(bin); err == nil {
		return p
	}
	if os.Getenv("ADRKIT_AGENT_TOOLS") == "required" {
		t.Fatalf("%s is not installed (set %s or put %s on PATH), and ADRKIT_AGENT_TOOLS=required", name, env, bin)
	}
	t.Skipf("%s is not installed: npm install --prefix DIR %s and set %s=DIR/node_modules/.bin/%s (.ci/run does, with ADRKIT_AGENT_TOOLS=required)",
		name, pkg, env, bin)
	return ""
}

// Env is the environment a client's run gets in tests: no traffic
// besides the model's API, no telemetry, a HOME of its own.
func Env(home string, extra ...string) []string {
	env := append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+home+"/.config",
		"XDG_CACHE_HOME="+home+"/.cache",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
	)
	return append(env, extra...)
}

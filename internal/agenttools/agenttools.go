// Package agenttools finds the coding-agent clients that some tests drive
// (Claude Code from npm). A test that needs one skips when it is missing,
// unless ADRKIT_AGENT_TOOLS=required, which .ci/run sets after installing
// them: there a missing client is a failure. Only tests import it.
package agenttools

import (
	"os"
	"os/exec"
	"testing"
)

// ClaudeVersion is the Claude Code release the tests are written against
// and .ci/run installs.
const ClaudeVersion = "2.1.328"

// Claude returns the path of Claude Code's executable: $ADRKIT_CLAUDE,
// else claude on PATH.
func Claude(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("ADRKIT_CLAUDE"); p != "" {
		return p
	}
	if p, err := exec.LookPath("claude"); err == nil {
		return p
	}
	if os.Getenv("ADRKIT_AGENT_TOOLS") == "required" {
		t.Fatal("Claude Code is not installed (set ADRKIT_CLAUDE or put claude on PATH), and ADRKIT_AGENT_TOOLS=required")
	}
	t.Skip("Claude Code is not installed: npm install --prefix DIR @anthropic-ai/claude-code@" + ClaudeVersion +
		" and set ADRKIT_CLAUDE=DIR/node_modules/.bin/claude (.ci/run does, with ADRKIT_AGENT_TOOLS=required)")
	return ""
}

// Env is the environment a Claude Code run gets in tests: no traffic
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

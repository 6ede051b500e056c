package agente2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorWired: in a repository wired by "adrkit init --agents
// codex,gemini", "adrkit doctor" with the built binary on PATH reads
// back both hosts' entries, starts their servers and hooks, and finds no
// problem (Gemini CLI's one settings file carries a server and hooks).
func TestDoctorWired(t *testing.T) {
	skipOnWindows(t)
	bin := buildAdrkit(t)
	root := wiredRepo(t, bin, "codex,gemini")
	cmd := exec.Command(filepath.Join(bin, "adrkit"), "doctor")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	for _, want := range []string{"No problems found.", "MCP server of .gemini/settings.json: answers initialize",
		"hook of .gemini/settings.json: answers", "MCP server of .codex/config.toml: answers initialize", "hook of .codex/hooks.json: answers"} {
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("adrkit doctor lacks %q: %v\n%s", want, err, out)
		}
	}
}

// Package plugins holds the Claude Code plugin of this repository
// (plugins/adrkit, listed by the marketplace at .claude-plugin/) and its
// tests: a structural test that always runs, and Claude Code's own
// validator where it is installed.
package plugins

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/internal/agenttools"
)

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

type hookFile struct {
	Description string `json:"description"`
	Hooks       map[string][]struct {
		Matcher string `json:"matcher"`
		Hooks   []struct {
			Type    string `json:"type"`
			Command string `json:"command"`
			Timeout int    `json:"timeout"`
		} `json:"hooks"`
	} `json:"hooks"`
}

// frontmatter returns the YAML-ish key: value lines of a Markdown file's
// frontmatter (one line per key is all these files use).
func frontmatter(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if !strings.HasPrefix(text, "---\n") {
		t.Fatalf("%s: no frontmatter", path)
	}
	block, body, ok := strings.Cut(text[4:], "\n---\n")
	if !ok || strings.TrimSpace(body) == "" {
		t.Fatalf("%s: frontmatter not closed, or no body", path)
	}
	out := map[string]string{}
	for _, line := range strings.Split(block, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("%s: line %q is not key: value", path, line)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out
}

// TestPluginStructure: the marketplace lists the plugin where it is, the
// hooks run "adrkit hook" on the editing tools init wires, the server is
// "adrkit mcp", and the skill, commands and agent are described; the
// agent cannot write.
func TestPluginStructure(t *testing.T) {
	var market struct {
		Name  string `json:"name"`
		Owner struct {
			Name, URL string
		} `json:"owner"`
		Metadata struct {
			Description string `json:"description"`
		} `json:"metadata"`
		Plugins []struct {
			Name, Source, Description, Category string
			Keywords                            []string
		} `json:"plugins"`
	}
	readJSON(t, "../.claude-plugin/marketplace.json", &market)
	if len(market.Plugins) != 1 || market.Plugins[0].Name != "adrkit" || market.Plugins[0].Source != "./plugins/adrkit" {
		t.Fatalf("marketplace plugins: %+v", market.Plugins)
	}
	var manifest struct {
		Name, Version, Description, Homepage, Repository, License string
		Author                                                    struct{ Name, URL string }
		Keywords                                                  []string
		Network                                                   struct {
			Hosts []string `json:"hosts"`
		} `json:"network"`
	}
	readJSON(t, "adrkit/.claude-plugin/plugin.json", &manifest)
	if manifest.Name != "adrkit" || manifest.Description == "" || len(manifest.Network.Hosts) != 0 {
		t.Errorf("plugin.json: %+v", manifest)
	}

	var hooks hookFile
	readJSON(t, "adrkit/hooks/hooks.json", &hooks)
	var events []string
	for ev, groups := range hooks.Hooks {
		events = append(events, ev)
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Type != "command" || h.Command != "adrkit hook" {
					t.Errorf("%s: hook %+v", ev, h)
				}
			}
			if ev == "PreToolUse" && g.Matcher != agenthost.Claude.Contract().EditMatcher() {
				t.Errorf("PreToolUse matcher %q, init writes %q", g.Matcher, agenthost.Claude.Contract().EditMatcher())
			}
		}
	}
	slices.Sort(events)
	if !slices.Equal(events, []string{"PreToolUse", "SessionStart"}) {
		t.Errorf("hook events %v", events)
	}

	var servers struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	readJSON(t, "adrkit/.mcp.json", &servers)
	if s, ok := servers.MCPServers["adrkit"]; !ok || s.Command != "adrkit" || !slices.Equal(s.Args, []string{"mcp"}) {
		t.Errorf(".mcp.json: %+v", servers)
	}

	skill := frontmatter(t, "adrkit/skills/decision-loop/SKILL.md")
	if skill["name"] != "decision-loop" || skill["description"] == "" {
		t.Errorf("skill frontmatter %v", skill)
	}
	body, _ := os.ReadFile("adrkit/skills/decision-loop/SKILL.md")
	for _, step := range []string{"get_decision_context", "adrkit ask", "no_record", "rejected", "--status proposed", "adrkit check"} {
		if !bytes.Contains(body, []byte(step)) {
			t.Errorf("the skill does not teach %q", step)
		}
	}
	cmds, _ := filepath.Glob("adrkit/commands/*.md")
	var names []string
	for _, c := range cmds {
		names = append(names, filepath.Base(c))
		if fm := frontmatter(t, c); fm["description"] == "" || !strings.Contains(fm["allowed-tools"], "adrkit") {
			t.Errorf("%s: %v", c, fm)
		}
	}
	if !slices.Equal(names, []string{"adr-check.md", "adr-context.md", "adr-draft.md", "adr-queue.md"}) {
		t.Errorf("commands %v", names)
	}
	agent := frontmatter(t, "adrkit/agents/decision-checker.md")
	if agent["name"] != "decision-checker" || agent["description"] == "" {
		t.Errorf("agent %v", agent)
	}
	// Read-only: reading tools and the plugin's own MCP server (its four
	// tools only read), nothing that writes or runs a command.
	for _, tool := range strings.Split(agent["tools"], ",") {
		tool = strings.TrimSpace(tool)
		if !slices.Contains([]string{"Read", "Grep", "Glob"}, tool) && tool != "mcp__plugin_adrkit_adrkit__*" {
			t.Errorf("the decision checker may use %s, which is not read-only", tool)
		}
	}
}

// TestClaudeValidate: "claude plugin validate --strict" passes the
// plugin and the marketplace. It runs offline, with a HOME of its own.
func TestClaudeValidate(t *testing.T) {
	claude := agenttools.Claude(t)
	for _, dir := range []string{"adrkit", ".."} {
		cmd := exec.Command(claude, "plugin", "validate", "--strict", dir)
		cmd.Env = agenttools.Env(t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("Validation passed")) {
			t.Errorf("claude plugin validate --strict %s: %v\n%s", dir, err, out)
		}
	}
}

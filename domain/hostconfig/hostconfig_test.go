package hostconfig

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/agenthost"
)

func target(t *testing.T, path string) Target {
	t.Helper()
	for _, tg := range Targets(agenthost.Hosts) {
		if tg.Path == path {
			return tg
		}
	}
	t.Fatalf("no target %s", path)
	return Target{}
}

// TestMerge: user keys survive in order and raw form, our entries are
// added once, and files that cannot be written back without loss are
// left alone with a snippet.
func TestMerge(t *testing.T) {
	l := Launch{Command: "adrkit", Dir: "docs/adr"}
	cases := []struct {
		name, path, current string
		exists              bool
		want                Outcome
		contains            []string // in the new content (or the snippet for Manual)
		order               []string // substrings that must appear in this order
	}{
		{name: "new mcp.json", path: ".mcp.json", want: Create, contains: []string{`"command": "adrkit"`, `"mcp"`}},
		{name: "empty file", path: ".mcp.json", exists: true, current: " \n", want: Update, contains: []string{`"adrkit"`}},
		{name: "other servers kept in order", path: ".mcp.json", exists: true,
			current:  "{\n    \"mcpServers\": {\"zeta\": {\"command\": \"z\", \"n\": 1e400}},\n    \"alpha\": true\n}\n",
			want:     Update,
			contains: []string{`"n": 1e400`, "\n        \"adrkit\": {"},
			order:    []string{`"mcpServers"`, `"zeta"`, `"adrkit"`, `"alpha"`}},
		{name: "adrkit entry of the user's kept", path: ".mcp.json", exists: true,
			current: `{"mcpServers": {"adrkit": {"command": "npx", "args": ["-y", "adrkit-mcp"]}}}`, want: Unchanged},
		{name: "CRLF kept", path: ".mcp.json", exists: true, current: "{\r\n  \"mcpServers\": {}\r\n}\r\n", want: Update,
			contains: []string{"{\r\n  \"mcpServers\": {\r\n    \"adrkit\": {\r\n"}},
		{name: "byte order mark", path: ".mcp.json", exists: true, current: "\ufeff{}", want: Manual},
		{name: "null servers", path: ".mcp.json", exists: true, current: `{"mcpServers": null}`, want: Manual},
		{name: "JSONC comment", path: ".vscode/mcp.json", exists: true,
			current: "{\n  // mine\n  \"servers\": {}\n}\n", want: Manual, contains: []string{`"servers"`, `"${workspaceFolder}"`, `"full"`}},
		{name: "trailing comma", path: ".cursor/mcp.json", exists: true, current: `{"mcpServers": {},}`, want: Manual},
		{name: "repeated key", path: ".mcp.json", exists: true, current: `{"a": 1, "a": 2}`, want: Manual},
		{name: "not an object", path: ".mcp.json", exists: true, current: `[1]`, want: Manual},
		{name: "servers not an object", path: ".mcp.json", exists: true, current: `{"mcpServers": []}`, want: Manual},
		{name: "text after", path: ".mcp.json", exists: true, current: `{} {}`, want: Manual},
		{name: "claude hooks added beside the user's", path: ".claude/settings.json", exists: true,
			current: `{"permissions": {"allow": ["Bash(ls)"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard"}]}]}}`,
			want:    Update, contains: []string{`"guard"`, `"Bash(ls)"`, `"Write|Edit|MultiEdit|NotebookEdit|editFiles"`, `"SessionStart"`},
			order: []string{`"permissions"`, `"hooks"`, `"PreToolUse"`, `"guard"`, `"adrkit hook"`, `"SessionStart"`}},
		{name: "claude hook already there, edited", path: ".claude/settings.json", exists: true,
			current: `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "adrkit hook", "timeout": 5}]}], "SessionStart": [{"hooks": [{"type": "command", "command": "/usr/local/bin/adrkit hook"}]}]}}`,
			want:    Unchanged},
		{name: "claude hooks not an array", path: ".claude/settings.json", exists: true, current: `{"hooks": {"PreToolUse": {}}}`, want: Manual},
		{name: "codex hooks", path: ".codex/hooks.json", want: Create, contains: []string{`"adrkit hook --host codex"`, `"apply_patch|Edit|Write"`, `"timeout": 10`}},
		{name: "cursor hooks keep version", path: ".cursor/hooks.json", exists: true, current: `{"version": 2, "hooks": {}}`,
			want: Update, contains: []string{`"version": 2`, `"command": "adrkit hook --host cursor"`, `"sessionStart"`, `"postToolUse"`}},
		{name: "cursor hooks new", path: ".cursor/hooks.json", want: Create, contains: []string{`"version": 1`}},
		{name: "gemini settings new", path: ".gemini/settings.json", want: Create,
			contains: []string{`"mcpServers"`, `"args": [`, `"name": "adrkit"`, `"command": "adrkit hook --host gemini"`, `"write_file|replace"`, `"timeout": 10000`},
			order:    []string{`"mcpServers"`, `"hooks"`, `"SessionStart"`, `"AfterTool"`, `"BeforeAgent"`}},
		{name: "gemini settings merged, the user's kept", path: ".gemini/settings.json", exists: true,
			current: `{"theme": "GitHub", "mcpServers": {"docs": {"httpUrl": "https://x"}}, "hooks": {"AfterTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "audit"}]}]}, "tools": {"sandbox": false}}`,
			want:    Update, contains: []string{`"httpUrl": "https://x"`, `"sandbox": false`},
			order: []string{`"theme"`, `"mcpServers"`, `"docs"`, `"adrkit"`, `"hooks"`, `"AfterTool"`, `"audit"`, `"adrkit hook --host gemini"`, `"SessionStart"`, `"BeforeAgent"`, `"tools"`}},
		{name: "gemini server of the user's kept, hooks added", path: ".gemini/settings.json", exists: true,
			current: `{"mcpServers": {"adrkit": {"command": "npx", "args": ["-y", "adrkit-mcp"]}}}`,
			want:    Update, contains: []string{`"npx"`, `"adrkit hook --host gemini"`}},
		{name: "gemini settings with comments", path: ".gemini/settings.json", exists: true,
			current: "{\n  // mine\n  \"theme\": \"GitHub\"\n}\n", want: Manual, contains: []string{`"mcpServers"`, `"BeforeAgent"`}},
		{name: "codex toml new", path: ".codex/config.toml", want: Create, contains: []string{"[mcp_servers.adrkit]\ncommand = \"adrkit\"\nargs = [\"mcp\"]\n"}},
		{name: "codex toml appended, comments kept", path: ".codex/config.toml", exists: true,
			current: "# my settings\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n", want: Update,
			order: []string{"# my settings", "[mcp_servers.other]", "[mcp_servers.adrkit]"}},
		{name: "codex toml without final newline", path: ".codex/config.toml", exists: true, current: "model = \"o3\"", want: Update,
			contains: []string{"model = \"o3\"\n\n[mcp_servers.adrkit]\n"}},
		{name: "codex toml present", path: ".codex/config.toml", exists: true, current: "[ mcp_servers.adrkit ]\ncommand = \"npx\"\n", want: Unchanged},
		{name: "codex toml inline", path: ".codex/config.toml", exists: true, current: "mcp_servers = { other = { command = \"x\" } }\n", want: Manual,
			contains: []string{"[mcp_servers.adrkit]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Merge(target(t, c.path), l, []byte(c.current), c.exists)
			if r.Outcome != c.want {
				t.Fatalf("outcome %s, want %s (reason %q)", r.Outcome, c.want, r.Reason)
			}
			text := string(r.Content)
			if r.Outcome == Manual {
				text = r.Snippet
				if r.Reason == "" {
					t.Error("a manual outcome needs a reason")
				}
			}
			for _, s := range c.contains {
				if !strings.Contains(text, s) {
					t.Errorf("missing %q in:\n%s", s, text)
				}
			}
			last := -1
			for _, s := range c.order {
				i := strings.Index(text, s)
				if i <= last {
					t.Errorf("%q out of order in:\n%s", s, text)
				}
				last = i
			}
			if strings.HasSuffix(c.path, ".json") && (r.Outcome == Create || r.Outcome == Update) {
				if !json.Valid(r.Content) {
					t.Errorf("not JSON:\n%s", r.Content)
				}
				// A second merge of what was written changes nothing.
				if again := Merge(r.Target, l, r.Content, true); again.Outcome != Unchanged {
					t.Errorf("second merge: %s %v", again.Outcome, again.Added)
				}
			}
			if strings.HasSuffix(c.path, ".toml") && (r.Outcome == Create || r.Outcome == Update) {
				if again := Merge(r.Target, l, r.Content, true); again.Outcome != Unchanged {
					t.Errorf("second merge: %s", again.Outcome)
				}
			}
		})
	}
}

// TestLaunch: --dir only when it is not the default; a command with
// spaces is quoted for the shell in hooks and kept as is in server
// entries.
func TestLaunch(t *testing.T) {
	l := Launch{Command: "/opt/my tools/adrkit", Dir: "doc/adr"}
	if got := l.HookCommand(agenthost.Claude); got != `'/opt/my tools/adrkit' hook --dir doc/adr` {
		t.Errorf("hook command %s", got)
	}
	if got := (Launch{Dir: "my decisions"}).HookCommand(agenthost.Cursor); got != `adrkit hook --host cursor --dir 'my decisions'` {
		t.Errorf("hook command %s", got)
	}
	if w := SplitCommand((Launch{Dir: "it's"}).HookCommand(agenthost.Claude)); strings.Join(w, "|") != "adrkit|hook|--dir|it's" {
		t.Errorf("split %q", w)
	}
	if got := strings.Join(l.ServerArgs(agenthost.Cursor), " "); got != "mcp --cwd ${workspaceFolder} --dir doc/adr" {
		t.Errorf("cursor args %s", got)
	}
	r := Merge(Target{agenthost.Claude, KindServer, ".mcp.json"}, l, nil, false)
	if !strings.Contains(string(r.Content), `"command": "/opt/my tools/adrkit"`) {
		t.Errorf("server entry:\n%s", r.Content)
	}
}

// TestTargets: a file shared by two hosts is handled once.
func TestTargets(t *testing.T) {
	var paths []string
	for _, tg := range Targets([]agenthost.Host{agenthost.Claude, agenthost.Copilot}) {
		paths = append(paths, tg.Path)
	}
	if strings.Join(paths, " ") != ".mcp.json .claude/settings.json" {
		t.Errorf("claude and copilot: %v", paths)
	}
	if tg := Targets([]agenthost.Host{agenthost.Copilot}); len(tg) != 1 || tg[0].Path != ".mcp.json" || tg[0].Host != agenthost.Copilot {
		t.Errorf("copilot: %v", tg)
	}
	if tg := Targets([]agenthost.Host{agenthost.Gemini}); len(tg) != 1 || tg[0].Path != ".gemini/settings.json" || tg[0].Kind != KindSettings {
		t.Errorf("gemini: %v", tg)
	}
}

// TestParseHosts: names in any case and order, each once, in Hosts
// order; nothing, or an unknown name, is refused.
func TestParseHosts(t *testing.T) {
	for in, want := range map[string]string{
		"claude": "claude", "copilot, Claude,claude": "claude,copilot", "vscode,cursor,codex": "codex,cursor,vscode",
		"gemini,claude": "claude,gemini",
	} {
		hs, err := ParseHosts(in)
		var names []string
		for _, h := range hs {
			names = append(names, string(h))
		}
		if err != nil || strings.Join(names, ",") != want {
			t.Errorf("%q: %v %v", in, names, err)
		}
	}
	for _, bad := range []string{"", ",", "claude,windsurf"} {
		if _, err := ParseHosts(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestReadBack: what init writes reads back as its command lines, for
// every target; a JSONC file still shows its hook lines.
func TestReadBack(t *testing.T) {
	l := Launch{Command: "/opt/my tools/adrkit", Dir: "decisions"}
	for _, tg := range Targets(agenthost.Hosts) {
		r := Merge(tg, l, nil, false)
		f := ReadBack(tg, r.Content)
		if tg.Kind.HasServer() {
			want := append([]string{l.Command}, l.ServerArgs(tg.Host)...)
			if strings.Join(f.Server, "|") != strings.Join(want, "|") {
				t.Errorf("%s: server %q, want %q", tg.Path, f.Server, want)
			}
		}
		if tg.Kind.HasHooks() {
			if len(f.Hooks) != 1 || f.Hooks[0] != l.HookCommand(tg.Host) {
				t.Errorf("%s: hooks %q", tg.Path, f.Hooks)
			}
			if w := SplitCommand(f.Hooks[0]); len(w) < 2 || w[0] != l.Command || w[1] != "hook" {
				t.Errorf("%s: split %q", tg.Path, w)
			}
		}
	}
	jsonc := "{\n  // ours\n  \"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"adrkit hook\"}]}]}\n}\n"
	f := ReadBack(Target{agenthost.Claude, KindHooks, ".claude/settings.json"}, []byte(jsonc))
	if f.Unreadable == "" || len(f.Hooks) != 1 || f.Hooks[0] != "adrkit hook" {
		t.Errorf("JSONC: %+v", f)
	}
	for line, want := range map[string]bool{
		"adrkit hook": true, "/usr/bin/adrkit hook --host codex": true, `"C:\Tools\adrkit.exe" hook`: true,
		"/tmp/adrkit-dev hook": true, "adrkit mcp": false, "adrkit-mcp hook": false, "guard hook": false, "adrkit": false,
	} {
		if IsHookCommand(line) != want {
			t.Errorf("IsHookCommand(%q) != %v", line, want)
		}
	}
}

// FuzzMerge: whatever a file holds, a merge that writes keeps every
// member the file had, with the same value (our entries only add), and
// a second merge of the result changes nothing.
func FuzzMerge(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"mcpServers": {"x": {"command": "y"}}, "z": [1, 2.50, "\u00e9"]}`,
		`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": []}], "Stop": []}, "model": null}`,
		`{"version": 1, "hooks": {"postToolUse": [{"command": "fmt"}]}}`, `{"servers": {}, "inputs": []}`,
	} {
		f.Add(seed)
	}
	l := Launch{Command: "adrkit", Dir: "docs/adr"}
	f.Fuzz(func(t *testing.T, current string) {
		for _, tg := range Targets(agenthost.Hosts) {
			if strings.HasSuffix(tg.Path, ".toml") {
				continue
			}
			r := Merge(tg, l, []byte(current), true)
			if r.Outcome != Update {
				continue
			}
			var before, after map[string]any
			if json.Unmarshal([]byte(current), &before) != nil {
				continue // an empty file
			}
			if err := json.Unmarshal(r.Content, &after); err != nil {
				t.Fatalf("%s: merged file is not JSON: %v\n%s", tg.Path, err, r.Content)
			}
			if !contains(after, before) {
				t.Fatalf("%s: lost something:\nbefore %s\nafter %s", tg.Path, current, r.Content)
			}
			if again := Merge(tg, l, r.Content, true); again.Outcome != Unchanged {
				t.Fatalf("%s: second merge %s", tg.Path, again.Outcome)
			}
		}
	})
}

// contains reports whether every member of want is in got with an equal
// value, arrays keeping their elements in order as a prefix.
func contains(got, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if !contains(g[k], v) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) < len(w) {
			return false
		}
		for i := range w {
			if !contains(g[i], w[i]) {
				return false
			}
		}
		return true
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	return string(gb) == string(wb)
}

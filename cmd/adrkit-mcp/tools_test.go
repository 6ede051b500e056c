package main

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

const (
	initLine      = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	toolsListLine = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	replayLine    = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_decision_changes","arguments":{"since":"0_"}}}`
)

var (
	fourTools = []string{"get_decision", "get_decision_context", "list_superseded", "search_decisions"}
	sixTools  = []string{"get_decision", "get_decision_context", "get_supersession_chain", "list_decision_changes",
		"list_review_queue", "list_superseded", "query_decision", "search_decisions"}
)

// answers runs the binary over stdin lines and returns its answers by id.
func answers(t *testing.T, lines []string, args ...string) map[float64]map[string]any {
	t.Helper()
	got := runCLI(t, strings.Join(lines, "\n")+"\n", args...)
	if got.code != 0 {
		t.Fatalf("%q: exit %d, stderr %q", args, got.code, got.stderr)
	}
	out := map[float64]map[string]any{}
	for _, l := range strings.Split(strings.TrimSpace(got.stdout), "\n") {
		var frame map[string]any
		if err := json.Unmarshal([]byte(l), &frame); err != nil {
			t.Fatalf("output line %q: %v", l, err)
		}
		id, _ := frame["id"].(float64)
		out[id] = frame
	}
	return out
}

func listedTools(t *testing.T, frame map[string]any) []string {
	t.Helper()
	var names []string
	for _, tool := range frame["result"].(map[string]any)["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	return names
}

func clearToolsEnv(t *testing.T) {
	t.Helper()
	clearEnv(t)
	t.Setenv("ADRKIT_MCP_TOOLS", "")
	os.Unsetenv("ADRKIT_MCP_TOOLS")
}

func TestToolsFlag(t *testing.T) {
	clearToolsEnv(t)
	repo := commitRepo(t)

	for _, tc := range []struct {
		name string
		args []string
		env  string
		want []string
	}{
		{"default", []string{"--cwd", repo}, "", fourTools},
		{"--tools default", []string{"--cwd", repo, "--tools", "default"}, "", fourTools},
		{"--tools extended", []string{"--cwd", repo, "--tools", "extended"}, "", sixTools},
		{"--tools=extended with --rev", []string{"--cwd", repo, "--tools=extended", "--rev", "HEAD"}, "", sixTools},
		{"environment", []string{"--cwd", repo}, "extended", sixTools},
		{"flag over environment", []string{"--cwd", repo, "--tools", "default"}, "extended", fourTools},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("ADRKIT_MCP_TOOLS", tc.env)
			}
			got := answers(t, []string{initLine, toolsListLine}, tc.args...)
			if names := listedTools(t, got[2]); !reflect.DeepEqual(names, tc.want) {
				t.Errorf("tools/list: %v, want %v", names, tc.want)
			}
		})
	}
}

// The change feed reads the history of the repository at --cwd, HEAD or
// --rev, whichever corpus source serves the other tools.
func TestToolsExtendedReadsTheHistory(t *testing.T) {
	clearToolsEnv(t)
	repo := commitRepo(t)
	for _, args := range [][]string{{"--cwd", repo, "--tools", "extended"}, {"--cwd", repo, "--tools", "extended", "--rev", "HEAD"}} {
		got := answers(t, []string{initLine, replayLine}, args...)
		res := got[3]["result"].(map[string]any)
		text := res["content"].([]any)[0].(map[string]any)["text"]
		if text != "Returned 1 decision change; the feed is up to date; 0 findings on this page." {
			t.Errorf("%q: %v", args, text)
		}
	}
	// Without the opt-in the tool does not exist.
	got := answers(t, []string{initLine, replayLine}, "--cwd", repo)
	if _, isErr := got[3]["error"]; !isErr {
		t.Errorf("list_decision_changes answered on the default surface: %v", got[3])
	}
}

func TestToolsFlagMistakes(t *testing.T) {
	clearToolsEnv(t)
	repo := newRepo(t)
	for _, tc := range []struct {
		args []string
		env  string
		want string
	}{
		{[]string{"--cwd", repo, "--tools", "all"}, "", `--tools must be "default" or "extended", got "all"`},
		{[]string{"--cwd", repo, "--tools", "EXTENDED"}, "", `got "EXTENDED"`},
		{[]string{"--cwd", repo, "--tools="}, "", `got ""`},
		{[]string{"--cwd", repo, "--tools"}, "", "option --tools needs a value"},
		{[]string{"--cwd", repo}, "both", `got "both"`},
	} {
		if tc.env != "" {
			t.Setenv("ADRKIT_MCP_TOOLS", tc.env)
		}
		got := runCLI(t, "", tc.args...)
		lines := strings.Split(strings.TrimSuffix(got.stderr, "\n"), "\n")
		if got.code != 2 || got.stdout != "" || len(lines) != 2 || !strings.Contains(lines[0], tc.want) ||
			!strings.HasPrefix(lines[1], "usage: adrkit-mcp") {
			t.Errorf("%q (env %q): exit %d, stderr %q", tc.args, tc.env, got.code, got.stderr)
		}
		os.Unsetenv("ADRKIT_MCP_TOOLS")
	}
}

// --content full (ADRKIT_MCP_CONTENT=full) adds the structured answer as
// JSON text to the content of a tool answer, in both eras; without it,
// content is the one summary line.
func TestContentFlag(t *testing.T) {
	clearToolsEnv(t)
	repo := commitRepo(t)
	const (
		listLine   = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_superseded","arguments":{}}}`
		refused    = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_superseded","arguments":{"limit":0}}}`
		meta       = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
		modernList = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_superseded","arguments":{},` + meta + `}}`
	)
	for _, tc := range []struct {
		name  string
		args  []string
		env   string
		lines []string
		full  bool
	}{
		{"default, legacy", []string{"--cwd", repo}, "", []string{initLine, listLine, refused}, false},
		{"--content summary", []string{"--cwd", repo, "--content", "summary"}, "", []string{initLine, listLine, refused}, false},
		{"--content full, legacy", []string{"--cwd", repo, "--content", "full"}, "", []string{initLine, listLine, refused}, true},
		{"--content full, modern", []string{"--cwd", repo, "--content=full"}, "", []string{modernList}, true},
		{"environment", []string{"--cwd", repo}, "full", []string{initLine, listLine, refused}, true},
		{"flag over environment", []string{"--cwd", repo, "--content", "summary"}, "full", []string{initLine, listLine}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("ADRKIT_MCP_CONTENT", tc.env)
			}
			got := answers(t, tc.lines, tc.args...)
			res := got[3]["result"].(map[string]any)
			content := res["content"].([]any)
			if want := map[bool]int{false: 1, true: 2}[tc.full]; len(content) != want {
				t.Fatalf("%d content blocks, want %d: %v", len(content), want, content)
			}
			if tc.full {
				block := content[1].(map[string]any)
				var structured any
				if err := json.Unmarshal([]byte(block["text"].(string)), &structured); err != nil || block["type"] != "text" ||
					!reflect.DeepEqual(structured, res["structuredContent"]) {
					t.Errorf("second block %v is not the structured answer %v", block, res["structuredContent"])
				}
			}
			// A refused call is its one line either way.
			if r, ok := got[4]; ok {
				if n := len(r["result"].(map[string]any)["content"].([]any)); n != 1 {
					t.Errorf("a refusal with %d content blocks", n)
				}
			}
			os.Unsetenv("ADRKIT_MCP_CONTENT")
		})
	}
	got := runCLI(t, "", "--cwd", repo, "--content", "json")
	if got.code != 2 || !strings.Contains(got.stderr, `--content must be "summary" or "full", got "json"`) {
		t.Errorf("--content json: exit %d, stderr %q", got.code, got.stderr)
	}
}

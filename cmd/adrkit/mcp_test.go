package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMCP serves one session over in-memory stdin/stdout: the same
// answers as adrkit-mcp, status 0 at end of input.
func TestMCP(t *testing.T) {
	r, root := repoRunner(t, "clean")
	r.stdin = handshake +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}}` + "\n"
	// The global options work after the command too.
	got := r.run("mcp", "--cwd", root)
	if got.code != 0 || got.stderr != "" {
		t.Fatalf("%s", got)
	}
	var answers []map[string]any
	for line := range strings.SplitSeq(strings.TrimSpace(got.stdout), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("stdout holds a non-JSON line %q", line)
		}
		answers = append(answers, m)
	}
	if len(answers) != 2 || !strings.Contains(got.stdout, `Found decision \"0001\"`) {
		t.Fatalf("answers:\n%s", got.stdout)
	}
	// --json prints exactly the structured content the tool returns.
	result, _ := answers[1]["result"].(map[string]any)
	show := r.run("--cwd", root, "show", "0001", "--json")
	var fromCLI any
	if err := json.Unmarshal([]byte(show.stdout), &fromCLI); err != nil {
		t.Fatal(err)
	}
	wire, _ := json.Marshal(result["structuredContent"])
	cli, _ := json.Marshal(fromCLI)
	if string(wire) != string(cli) {
		t.Errorf("show --json differs from get_decision's structuredContent:\n%s\n%s", cli, wire)
	}
	// A malformed line is reported and makes the final status 1.
	r.stdin = `{"jsonrpc":"2.0","id":1}` + "\n"
	got = r.run("--cwd", root, "mcp")
	if got.code != 1 || !strings.HasPrefix(got.stderr, "adrkit: transport error: ") {
		t.Errorf("malformed message: %s", got)
	}
}

// TestMCPTools: adrkit mcp takes --tools (or ADRKIT_MCP_TOOLS) exactly as
// adrkit-mcp does: default serves the four tools, extended adds the
// chain and the feed, the flag wins over the variable, and any other
// value (an empty one included) is a usage error before anything is
// served.
func TestMCPTools(t *testing.T) {
	four := []string{"get_decision", "get_decision_context", "list_superseded", "search_decisions"}
	extended := []string{"get_decision", "get_decision_context", "get_supersession_chain", "list_decision_changes", "list_review_queue", "list_superseded", "query_decision", "search_decisions"}
	cases := []struct {
		name   string
		args   []string
		env    map[string]string
		code   int
		tools  []string
		stderr string
	}{
		{"no option", nil, nil, 0, four, ""},
		{"default", []string{"--tools", "default"}, nil, 0, four, ""},
		{"extended", []string{"--tools", "extended"}, nil, 0, extended, ""},
		{"variable", nil, map[string]string{"ADRKIT_MCP_TOOLS": "extended"}, 0, extended, ""},
		{"flag over variable", []string{"--tools", "default"}, map[string]string{"ADRKIT_MCP_TOOLS": "extended"}, 0, four, ""},
		{"unknown value", []string{"--tools", "all"}, nil, 2, nil,
			"adrkit: --tools must be \"default\" or \"extended\", got \"all\"\nRun 'adrkit mcp --help' for usage.\n"},
		{"empty value", []string{"--tools="}, nil, 2, nil,
			"adrkit: --tools must be \"default\" or \"extended\", got \"\"\nRun 'adrkit mcp --help' for usage.\n"},
		{"empty variable", nil, map[string]string{"ADRKIT_MCP_TOOLS": ""}, 2, nil,
			"adrkit: --tools must be \"default\" or \"extended\", got \"\"\nRun 'adrkit mcp --help' for usage.\n"},
		{"value missing", []string{"--tools"}, nil, 2, nil,
			"adrkit: option --tools needs a value\nRun 'adrkit mcp --help' for usage.\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, root := repoRunner(t, "chains")
			if tc.env != nil {
				r.env = tc.env
			}
			r.stdin = handshake +
				`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n" +
				`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_supersession_chain","arguments":{"ref":"0001"}}}` + "\n"
			got := r.run(append([]string{"--cwd", root, "mcp"}, tc.args...)...)
			if got.code != tc.code || got.stderr != tc.stderr {
				t.Fatalf("exit %d, stderr %q; want %d, %q\n%s", got.code, got.stderr, tc.code, tc.stderr, got)
			}
			if tc.code != 0 {
				if got.stdout != "" {
					t.Errorf("a refused --tools served anyway:\n%s", got.stdout)
				}
				return
			}
			var list struct {
				Result struct {
					Tools []struct{ Name string } `json:"tools"`
				} `json:"result"`
			}
			var chain struct {
				Result struct {
					IsError           bool           `json:"isError"`
					StructuredContent map[string]any `json:"structuredContent"`
				} `json:"result"`
				Error *struct{ Code int } `json:"error"`
			}
			for line := range strings.SplitSeq(strings.TrimSpace(got.stdout), "\n") {
				var frame struct{ ID int }
				_ = json.Unmarshal([]byte(line), &frame)
				switch frame.ID {
				case 2:
					_ = json.Unmarshal([]byte(line), &list)
				case 3:
					_ = json.Unmarshal([]byte(line), &chain)
				}
			}
			var names []string
			for _, tool := range list.Result.Tools {
				names = append(names, tool.Name)
			}
			if !slices.Equal(sortedCopy(names), tc.tools) {
				t.Errorf("tools/list %q, want %q", names, tc.tools)
			}
			// The chain tool answers only on the extended surface.
			answered := chain.Error == nil && !chain.Result.IsError && chain.Result.StructuredContent != nil
			if isExtended := len(tc.tools) == len(extended); answered != isExtended {
				t.Errorf("get_supersession_chain answered = %v on the %d-tool surface:\n%s", answered, len(tc.tools), got.stdout)
			}
		})
	}
}

// TestMCPContent: mcp --content full (ADRKIT_MCP_CONTENT=full) adds the
// structured answer as JSON text after the summary line, as adrkit-mcp
// does; a refusal stays its one line, and another value is a usage error.
func TestMCPContent(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		env    map[string]string
		code   int
		blocks int
		stderr string
	}{
		{"no option", nil, nil, 0, 1, ""},
		{"summary", []string{"--content", "summary"}, nil, 0, 1, ""},
		{"full", []string{"--content", "full"}, nil, 0, 2, ""},
		{"variable", nil, map[string]string{"ADRKIT_MCP_CONTENT": "full"}, 0, 2, ""},
		{"flag over variable", []string{"--content=summary"}, map[string]string{"ADRKIT_MCP_CONTENT": "full"}, 0, 1, ""},
		{"unknown value", []string{"--content", "json"}, nil, 2, 0,
			"adrkit: --content must be \"summary\" or \"full\", got \"json\"\nRun 'adrkit mcp --help' for usage.\n"},
		{"empty variable", nil, map[string]string{"ADRKIT_MCP_CONTENT": ""}, 2, 0,
			"adrkit: --content must be \"summary\" or \"full\", got \"\"\nRun 'adrkit mcp --help' for usage.\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, root := repoRunner(t, "clean")
			if tc.env != nil {
				r.env = tc.env
			}
			r.stdin = handshake +
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}}` + "\n" +
				`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_superseded","arguments":{"limit":0}}}` + "\n"
			got := r.run(append([]string{"--cwd", root, "mcp"}, tc.args...)...)
			if got.code != tc.code || got.stderr != tc.stderr {
				t.Fatalf("exit %d, stderr %q; want %d, %q\n%s", got.code, got.stderr, tc.code, tc.stderr, got)
			}
			if tc.code != 0 {
				if got.stdout != "" {
					t.Errorf("a refused --content served anyway:\n%s", got.stdout)
				}
				return
			}
			type result struct {
				Content []struct {
					Type, Text string
				} `json:"content"`
				StructuredContent json.RawMessage `json:"structuredContent"`
			}
			frames := map[int]result{}
			for line := range strings.SplitSeq(strings.TrimSpace(got.stdout), "\n") {
				var frame struct {
					ID     int
					Result result
				}
				if err := json.Unmarshal([]byte(line), &frame); err != nil {
					t.Fatalf("stdout holds a non-JSON line %q", line)
				}
				frames[frame.ID] = frame.Result
			}
			found := frames[2]
			if len(found.Content) != tc.blocks || !strings.HasPrefix(found.Content[0].Text, `Found decision "0001"`) {
				t.Fatalf("get_decision content %+v, want %d blocks after the summary line", found.Content, tc.blocks)
			}
			if tc.blocks == 2 {
				var fromText, structured any
				if err := json.Unmarshal([]byte(found.Content[1].Text), &fromText); err != nil || found.Content[1].Type != "text" {
					t.Fatalf("second block %+v is not JSON text: %v", found.Content[1], err)
				}
				if err := json.Unmarshal(found.StructuredContent, &structured); err != nil {
					t.Fatal(err)
				}
				a, _ := json.Marshal(fromText)
				b, _ := json.Marshal(structured)
				if string(a) != string(b) {
					t.Errorf("second block differs from structuredContent:\n%s\n%s", a, b)
				}
			}
			if n := len(frames[3].Content); n != 1 {
				t.Errorf("a refused call has %d content blocks, want its one line", n)
			}
		})
	}
}

// TestMCPFindsTheCorpusAsEveryCommand: with no option, adrkit mcp finds
// the repository root upward from the working directory and the ADR
// directory an .adr-dir file names, as lint does (issue 27 item 2).
func TestMCPFindsTheCorpusAsEveryCommand(t *testing.T) {
	r, root := repoRunner(t, "clean")
	if err := os.Rename(filepath.Join(root, "docs", "adr"), filepath.Join(root, "decisions")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".adr-dir"), []byte("decisions\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.wd = filepath.Join(root, "decisions")
	r.stdin = handshake +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}}` + "\n"
	got := r.run("mcp")
	if got.code != 0 || got.stderr != "" || !strings.Contains(got.stdout, `"sourcePath":"decisions/0001-`) {
		t.Errorf("mcp from a subdirectory:\n%s", got)
	}
	if lint := r.run("lint"); lint.code != 0 || !strings.Contains(lint.stdout, "read from decisions") {
		t.Errorf("lint from the same place:\n%s", lint)
	}
}

// TestMCPExitStatusesAgree: adrkit mcp ends with the statuses adrkit-mcp
// has for the same problem (the conformance cli-* records): 2 for a
// command-line mistake, 1 for an unusable corpus, the ADR directory an
// option names included, where the other commands answer 2.
func TestMCPExitStatusesAgree(t *testing.T) {
	r, root := repoRunner(t, "clean")
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"mcp", "--nope"}, 2},
		{[]string{"mcp", "--tools"}, 2},
		{[]string{"mcp", "extra"}, 2},
		{[]string{"--cwd", filepath.Join(root, "missing"), "mcp"}, 1},
		{[]string{"--cwd", "", "mcp"}, 1},
		{[]string{"--cwd", root, "--dir", "missing", "mcp"}, 1},
		{[]string{"--cwd", root, "--dir", "missing", "lint"}, 2},
	} {
		if got := r.run(tc.args...); got.code != tc.want || got.stdout != "" {
			t.Errorf("%q: %s\nwant exit %d", tc.args, got, tc.want)
		}
	}
}

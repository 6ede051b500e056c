package mcp

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// copyCorpus copies testdata/corpus into a fresh Git-looking root.
func copyCorpus(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	err := filepath.WalkDir("testdata/corpus", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/corpus", path)
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// outputSchemas resolves the advertised output schema of every tool.
func outputSchemas(t *testing.T) map[string]*jsonschema.Resolved {
	t.Helper()
	out := map[string]*jsonschema.Resolved{}
	for _, name := range defaultTools() {
		raw, err := readSchema(name + ".output.json")
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s output schema: %v", name, err)
		}
		resolved, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s output schema: %v", name, err)
		}
		out[name] = resolved
	}
	return out
}

// Every structuredContent the server answers with validates against the
// outputSchema it advertises for the tool (JSON Schema 2020-12), for every
// outcome the fixture corpus can produce, pages included.
func TestStructuredContentMatchesOutputSchema(t *testing.T) {
	schemas := outputSchemas(t)
	root := copyCorpus(t)
	h := startOn(t, root)
	h.result(initLegacy)

	id := 100
	outcomes := map[string]bool{}
	check := func(tool, args string) map[string]any {
		t.Helper()
		id++
		res := h.result(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args))
		if res["isError"] == true {
			t.Errorf("%s %s: refused: %s", tool, args, asJSON(res["content"]))
			return nil
		}
		sc, ok := res["structuredContent"].(map[string]any)
		if !ok {
			t.Errorf("%s %s: no structuredContent", tool, args)
			return nil
		}
		if err := schemas[tool].Validate(sc); err != nil {
			t.Errorf("%s %s: structuredContent does not match the output schema: %v\n%s", tool, args, err, asJSON(sc))
		}
		if result, ok := sc["result"].(map[string]any); ok {
			outcomes[fmt.Sprint(tool, " ", result["outcome"])] = true
		}
		return sc
	}
	cursor := func(sc map[string]any, key string) string {
		result, _ := sc["result"].(map[string]any)
		if key == "findingsCursor" {
			findings, _ := result["findings"].(map[string]any)
			c, _ := findings["cursor"].(string)
			return c
		}
		c, _ := result["cursor"].(string)
		return c
	}
	follow := func(tool, args string, sc map[string]any, key string) {
		t.Helper()
		if c := cursor(sc, key); c != "" {
			check(tool, fmt.Sprintf(`{%s,%q:%q}`, args[1:len(args)-1], key, c))
		} else {
			t.Errorf("%s %s: no %s to follow", tool, args, key)
		}
	}

	for _, args := range []string{`{"query":"cache"}`, `{"query":"the"}`, `{"query":"zzz-nothing"}`,
		`{"query":"cache","status":["accepted","rejected"],"scope":["component"],"tags":["cache"]}`} {
		check("search_decisions", args)
	}
	follow("search_decisions", `{"query":"e","limit":1}`, check("search_decisions", `{"query":"e","limit":1}`), "cursor")
	follow("search_decisions", `{"query":"e","findingsLimit":1}`, check("search_decisions", `{"query":"e","findingsLimit":1}`), "findingsCursor")

	for _, ref := range []string{"0001", "0002", "0008", "0005", "payments:0001", "9999", "0010", "01ARZ3NDEKTSV4RRFFQ69G5FAV"} {
		check("get_decision", fmt.Sprintf(`{"ref":%q}`, ref))
	}
	follow("get_decision", `{"ref":"0005","limit":1}`, check("get_decision", `{"ref":"0005","limit":1}`), "cursor")
	follow("get_decision", `{"ref":"0001","findingsLimit":1}`, check("get_decision", `{"ref":"0001","findingsLimit":1}`), "findingsCursor")

	for _, files := range []string{`["src/app.ts"]`, `["src/cache/x.go","jobs/run.sh"]`, `["jobs/keep/x"]`, `["unrelated.txt"]`} {
		check("get_decision_context", `{"files":`+files+`}`)
	}
	follow("get_decision_context", `{"files":["src/cache/x.go"],"limit":1}`, check("get_decision_context", `{"files":["src/cache/x.go"],"limit":1}`), "cursor")

	check("list_superseded", `{}`)
	follow("list_superseded", `{"limit":1}`, check("list_superseded", `{"limit":1}`), "cursor")
	follow("list_superseded", `{"findingsLimit":1}`, check("list_superseded", `{"findingsLimit":1}`), "findingsCursor")

	for _, tool := range defaultTools() {
		args := map[string]string{
			"search_decisions": `{"query":"x","cursor":"not-a-cursor"}`, "get_decision": `{"ref":"0001","cursor":"not-a-cursor"}`,
			"get_decision_context": `{"files":["a"],"findingsCursor":"not-a-cursor"}`, "list_superseded": `{"cursor":"not-a-cursor"}`,
		}[tool]
		check(tool, args)
	}

	// Without the ADR directory every tool answers corpus-unavailable.
	if err := os.Rename(filepath.Join(root, "docs", "adr"), filepath.Join(root, "docs", "gone")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range [][2]string{{"search_decisions", `{"query":"x"}`}, {"get_decision", `{"ref":"0001"}`},
		{"get_decision_context", `{"files":["a"]}`}, {"list_superseded", `{}`}} {
		check(tc[0], tc[1])
	}

	for _, want := range []string{
		"search_decisions results", "search_decisions invalid-cursor", "search_decisions corpus-unavailable",
		"get_decision found", "get_decision not-found", "get_decision ambiguous-local-id",
		"get_decision federated-log-unavailable", "get_decision invalid-cursor", "get_decision corpus-unavailable",
		"get_decision_context matches", "get_decision_context invalid-cursor", "get_decision_context corpus-unavailable",
		"list_superseded entries", "list_superseded invalid-cursor", "list_superseded corpus-unavailable",
	} {
		if !outcomes[want] {
			t.Errorf("the fixture never produced %q", want)
		}
	}
	h.finishQuiet()
}

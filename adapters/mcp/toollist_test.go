package mcp

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// withoutProse drops the prose keywords of a JSON Schema (title,
// description), keeping properties that merely have those names.
func withoutProse(node any) any {
	switch n := node.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, v := range n {
			switch k {
			case "title", "description":
				continue
			case "properties", "patternProperties", "$defs", "definitions":
				if props, ok := v.(map[string]any); ok {
					kept := map[string]any{}
					for name, sub := range props {
						kept[name] = withoutProse(sub)
					}
					out[k] = kept
					continue
				}
			}
			out[k] = withoutProse(v)
		}
		return out
	case []any:
		out := make([]any, len(n))
		for i, v := range n {
			out[i] = withoutProse(v)
		}
		return out
	}
	return node
}

// The advertised tools must be structurally the reference's (Appendix A
// of the contract): same schemas apart from prose, same annotations.
func TestToolListMatchesTheContract(t *testing.T) {
	data, err := os.ReadFile("testdata/appendix-a-structure.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []map[string]any
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}

	h := start(t, nil)
	tools := h.result(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)["tools"].([]any)
	if len(tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(tools), len(want))
	}
	for i, tool := range tools {
		got := tool.(map[string]any)
		w := want[i]
		if got["name"] != w["name"] {
			t.Errorf("tool %d is %v, want %v", i, got["name"], w["name"])
			continue
		}
		for _, key := range []string{"inputSchema", "outputSchema", "annotations"} {
			if !reflect.DeepEqual(withoutProse(got[key]), withoutProse(w[key])) {
				t.Errorf("%v %s differs from the contract", got["name"], key)
			}
		}
		for _, key := range []string{"title", "description"} {
			if s, _ := got[key].(string); s == "" {
				t.Errorf("%v has no %s", got["name"], key)
			}
		}
	}
	h.finishQuiet()
}

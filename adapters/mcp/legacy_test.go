package mcp

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/adrkit/adrkit-go/internal/version"
)

var toolOrder = []any{"get_decision", "get_decision_context", "list_superseded", "search_decisions"}

func toolNames(list map[string]any) []any {
	var names []any
	tools, _ := list["tools"].([]any)
	for _, tool := range tools {
		names = append(names, tool.(map[string]any)["name"])
	}
	return names
}

func TestLegacyHandshakeAndToolList(t *testing.T) {
	h := start(t, nil)
	res := h.result(initLegacy)
	if got := keys(res); !reflect.DeepEqual(got, []string{"capabilities", "protocolVersion", "serverInfo"}) {
		t.Errorf("initialize result keys = %v", got)
	}
	if res["protocolVersion"] != "2025-06-18" {
		t.Errorf("protocolVersion = %v", res["protocolVersion"])
	}
	if !reflect.DeepEqual(res["capabilities"], mustJSON(t, `{"tools":{"listChanged":true}}`)) {
		t.Errorf("capabilities = %s", asJSON(res["capabilities"]))
	}
	info, _ := res["serverInfo"].(map[string]any)
	if info["name"] != "adrkit-mcp" || info["version"] != version.String() {
		t.Errorf("serverInfo = %s", asJSON(info))
	}
	h.line(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	list := h.result(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if got := keys(list); !reflect.DeepEqual(got, []string{"tools"}) {
		t.Errorf("legacy tools/list keys = %v, want only tools (no cache hints, resultType or _meta)", got)
	}
	if got := toolNames(list); !reflect.DeepEqual(got, toolOrder) {
		t.Errorf("tool order = %v", got)
	}
	for _, tool := range list["tools"].([]any) {
		tool := tool.(map[string]any)
		if got := keys(tool); !reflect.DeepEqual(got, []string{"annotations", "description", "inputSchema", "name", "outputSchema", "title"}) {
			t.Errorf("%v keys = %v", tool["name"], got)
		}
		want := mustJSON(t, `{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}`)
		if !reflect.DeepEqual(tool["annotations"], want) {
			t.Errorf("%v annotations = %s", tool["name"], asJSON(tool["annotations"]))
		}
	}
	h.finishQuiet()
}

func TestLegacyVersionNegotiation(t *testing.T) {
	h := start(t, nil)
	// One connection: a repeated initialize is answered like the first.
	for i, tc := range []struct{ asked, answered string }{
		{"1999-01-01", "2025-11-25"},
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{"2025-03-26", "2025-03-26"},
		{"2024-11-05", "2024-11-05"},
		{"2024-10-07", "2024-10-07"},
		{"2026-07-28", "2025-11-25"}, // not via initialize
		{"garbage", "2025-11-25"},
	} {
		res := h.result(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`, i+1, tc.asked))
		if res["protocolVersion"] != tc.answered {
			t.Errorf("asked %s: answered %v, want %s", tc.asked, res["protocolVersion"], tc.answered)
		}
	}
	if got := toolNames(h.result(`{"jsonrpc":"2.0","id":99,"method":"tools/list"}`)); !reflect.DeepEqual(got, toolOrder) {
		t.Errorf("tools after re-initialize = %v", got)
	}
	h.finishQuiet()
}

func TestLegacyMalformedInitialize(t *testing.T) {
	h := start(t, nil)
	for i, params := range []string{
		``,
		`,"params":{}`,
		`,"params":{"protocolVersion":5,"capabilities":{},"clientInfo":{"name":"t","version":"0"}}`,
		`,"params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"t","version":"0"}}`,
		`,"params":{"protocolVersion":"2025-06-18","capabilities":{}}`,
		`,"params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t"}}`,
	} {
		if code := h.errorCode(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"initialize"%s}`, i+1, params)); code != -32603 {
			t.Errorf("initialize%s: code %d, want -32603", params, code)
		}
	}
	h.finishQuiet()
}

func TestLegacyWithoutHandshake(t *testing.T) {
	h := start(t, nil)
	if got := toolNames(h.result(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)); !reflect.DeepEqual(got, toolOrder) {
		t.Errorf("tools/list before initialize = %v", got)
	}
	res := h.result(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}}`)
	if got := keys(res); !reflect.DeepEqual(got, []string{"content", "structuredContent"}) {
		t.Errorf("tools/call keys = %v", got)
	}
	h.finishQuiet()
}

func TestLegacyMethods(t *testing.T) {
	h := start(t, nil)
	h.result(initLegacy)
	h.line(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if res := h.result(`{"jsonrpc":"2.0","id":2,"method":"ping"}`); len(res) != 0 {
		t.Errorf("ping = %s, want {}", asJSON(res))
	}
	for i, req := range []string{
		`"method":"foo/bar"`,
		`"method":"resources/list"`,
		`"method":"resources/templates/list"`,
		`"method":"resources/read"`,
		`"method":"resources/subscribe","params":{"uri":5}`,
		`"method":"prompts/list"`,
		`"method":"prompts/get"`,
		`"method":"logging/setLevel","params":{"level":"debug"}`,
		`"method":"logging/setLevel"`,
		`"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"x"},"argument":{"name":"a","value":"b"}}`,
		`"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}`,
		`"method":"server/discover","params":{` + modernMeta + `}`,
		`"method":"server/discover"`,
		`"method":"adrkit/refused"`,
	} {
		if code := h.errorCode(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, 10+i, req)); code != -32601 {
			t.Errorf("%s: code %d, want -32601", req, code)
		}
	}
	// A stray cancellation is ignored; a cursor on tools/list too.
	h.line(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999,"reason":"none"}}`)
	if got := toolNames(h.result(`{"jsonrpc":"2.0","id":40,"method":"tools/list","params":{"cursor":"ignored"}}`)); !reflect.DeepEqual(got, toolOrder) {
		t.Errorf("tools/list with a cursor = %v", got)
	}
	h.finishQuiet()
}

func TestLegacyIgnoresEnvelopes(t *testing.T) {
	h := start(t, nil)
	h.result(initLegacy)
	// After pinning, an envelope changes nothing: ping still answers, and
	// tool results carry no modern fields.
	if res := h.result(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{` + modernMeta + `}}`); len(res) != 0 {
		t.Errorf("ping with an envelope = %s, want {}", asJSON(res))
	}
	res := h.result(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_superseded","arguments":{},` + modernMeta + `}}`)
	if got := keys(res); !reflect.DeepEqual(got, []string{"content", "structuredContent"}) {
		t.Errorf("tools/call with an envelope: keys %v", got)
	}
	list := h.result(`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{` + modernMeta + `}}`)
	if got := keys(list); !reflect.DeepEqual(got, []string{"tools"}) {
		t.Errorf("tools/list with an envelope: keys %v", got)
	}
	// Even a broken envelope is ignored once the era is pinned.
	if res := h.result(`{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}`); len(res) != 0 {
		t.Errorf("ping with a broken envelope = %s", asJSON(res))
	}
	h.finishQuiet()
}

func TestLegacyAfterDiscoverProbe(t *testing.T) {
	h := start(t, nil)
	discover := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + modernMeta + `}}`
	if res := h.result(discover); res["resultType"] != "complete" {
		t.Errorf("probe discover = %s", asJSON(res))
	}
	h.result(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	h.line(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if got := keys(h.result(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)); !reflect.DeepEqual(got, []string{"tools"}) {
		t.Errorf("tools/list after the fallback: keys %v", got)
	}
	// The probe must leave no trace on legacy tool results.
	res := h.result(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_decisions","arguments":{}}}`)
	if got := keys(res); !reflect.DeepEqual(got, []string{"content", "structuredContent"}) {
		t.Errorf("tools/call after the fallback: keys %v", got)
	}
	if code := h.errorCode(`{"jsonrpc":"2.0","id":5,"method":"server/discover","params":{` + modernMeta + `}}`); code != -32601 {
		t.Errorf("discover after the fallback: code %d", code)
	}
	h.finishQuiet()
}

// TestRepeatedMembersReadAsTheEraRulesRead: the SDK is given a request's
// params as sent, except when a member name is repeated, where its
// decoder (merging repeated objects) would read something else than the
// era rules (keeping the last): those params reach it as the rules read
// them.
func TestRepeatedMembersReadAsTheEraRulesRead(t *testing.T) {
	const claim = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, tc := range []struct {
		name, params string
	}{
		{"a claim in a repeated _meta", `{"name":"get_decision","arguments":{},` + claim + `,"_meta":{}}`},
		{"a claim in the first of two _meta", `{"name":"get_decision",` + claim + `,"arguments":{},"_meta":{"progressToken":1}}`},
		{"a repeated name", `{"name":"nope","arguments":{"mode":"x"},"name":"get_decision","arguments":{}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, nil)
			h.result(initLegacy)
			res := h.result(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":` + tc.params + `}`)
			if got := keys(res); !reflect.DeepEqual(got, []string{"content", "structuredContent"}) {
				t.Errorf("a legacy answer has content and structuredContent only; got %s", asJSON(res))
			}
			if text := res["content"].([]any)[0].(map[string]any)["text"]; text != "called get_decision" {
				t.Errorf("text %v", text)
			}
			h.finishQuiet()
		})
	}
}

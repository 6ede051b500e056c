package mcp

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/version"
)

func TestModernDiscoverListCall(t *testing.T) {
	h := start(t, nil)
	discover := h.result(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + modernMeta + `}}`)
	want := mustJSON(t, `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},
		"resultType":"complete","ttlMs":300000,"cacheScope":"public",
		"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"adrkit-mcp","version":"`+version.String()+`"}}}`)
	if !reflect.DeepEqual(any(discover), want) {
		t.Errorf("discover = %s", asJSON(discover))
	}

	list := h.result(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + modernMeta + `}}`)
	if got := keys(list); !reflect.DeepEqual(got, []string{"_meta", "cacheScope", "resultType", "tools", "ttlMs"}) {
		t.Errorf("tools/list keys = %v", got)
	}
	if list["ttlMs"] != 300000.0 || list["cacheScope"] != "public" || list["resultType"] != "complete" {
		t.Errorf("tools/list hints = %v %v %v", list["ttlMs"], list["cacheScope"], list["resultType"])
	}
	if got := toolNames(list); !reflect.DeepEqual(got, toolOrder) {
		t.Errorf("tool order = %v", got)
	}

	call := h.result(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0002"},` + modernMeta + `}}`)
	if got := keys(call); !reflect.DeepEqual(got, []string{"_meta", "content", "resultType", "structuredContent"}) {
		t.Errorf("tools/call keys = %v (no cache hints on calls)", got)
	}
	meta, _ := call["_meta"].(map[string]any)
	if info, _ := meta["io.modelcontextprotocol/serverInfo"].(map[string]any); info["name"] != "adrkit-mcp" {
		t.Errorf("tools/call _meta = %s", asJSON(meta))
	}
	h.finishQuiet()
}

func TestModernPinsWithoutDiscover(t *testing.T) {
	h := start(t, nil)
	list := h.result(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + modernMeta + `}}`)
	if list["resultType"] != "complete" {
		t.Errorf("first tools/list = %s", asJSON(list))
	}
	// Pinned: a claim-less request is now refused.
	if code := h.errorCode(`{"jsonrpc":"2.0","id":2,"method":"ping"}`); code != -32602 {
		t.Errorf("ping without envelope: code %d, want -32602", code)
	}
	h.finishQuiet()
}

func TestModernPinnedRejections(t *testing.T) {
	h := start(t, nil)
	h.result(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + modernMeta + `}}`)
	for _, tc := range []struct {
		req  string
		code int
	}{
		{`"method":"tools/list"`, -32602},
		{`"method":"tools/list","params":{}`, -32602},
		{`"method":"tools/call"`, -32602},
		{`"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}`, -32602},
		{`"method":"foo/bar"`, -32602},
		{`"method":"server/discover"`, -32602},
		{`"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, -32602},
		{`"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":2026,"io.modelcontextprotocol/clientCapabilities":{}}}`, -32602},
		{`"method":"ping","params":` + withMeta(`{}`), -32601},
		{`"method":"initialize","params":` + withMeta(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}`), -32601},
		{`"method":"logging/setLevel","params":` + withMeta(`{"level":"info"}`), -32601},
		{`"method":"prompts/list","params":` + withMeta(`{}`), -32601},
		{`"method":"resources/list","params":` + withMeta(`{}`), -32601},
		{`"method":"completion/complete","params":` + withMeta(`{}`), -32601},
		{`"method":"foo/bar","params":` + withMeta(`{}`), -32601},
		{`"method":"subscriptions/listen","params":` + withMeta(`{}`), -32602},
		{`"method":"subscriptions/listen","params":` + withMeta(`{"notifications":5}`), -32602},
		{`"method":"tools/call","params":` + withMeta(`{"arguments":{}}`), -32602},
		{`"method":"tools/call","params":` + withMeta(`{"name":"nope","arguments":{}}`), -32602},
	} {
		if code := h.errorCode(fmt.Sprintf(`{"jsonrpc":"2.0","id":"r",%s}`, tc.req)); code != tc.code {
			t.Errorf("%s: code %d, want %d", tc.req, code, tc.code)
		}
	}
	if len(h.diagnostics()) != 0 {
		t.Errorf("diagnostics before the late initialize: %v", h.diagnostics())
	}

	// A legacy initialize on a modern connection: -32022 and a diagnostic.
	frame := h.call(`{"jsonrpc":"2.0","id":50,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	e, _ := frame["error"].(map[string]any)
	if e["code"] != -32022.0 || !reflect.DeepEqual(e["data"], mustJSON(t, `{"supported":["2026-07-28"],"requested":"2025-06-18"}`)) {
		t.Errorf("late initialize = %s", asJSON(frame))
	}
	if d := h.diagnostics(); len(d) != 1 {
		t.Errorf("late initialize diagnostics = %v, want one", d)
	}

	// The connection keeps serving, and accepts an envelope naming another
	// revision once pinned.
	h.result(`{"jsonrpc":"2.0","id":51,"method":"server/discover","params":{` + modernMeta + `}}`)
	older := strings.Replace(modernMeta, `"2026-07-28"`, `"2025-11-25"`, 1)
	list := h.result(`{"jsonrpc":"2.0","id":52,"method":"tools/list","params":{` + older + `}}`)
	if list["resultType"] != "complete" || list["ttlMs"] != 300000.0 {
		t.Errorf("tools/list with an older claim on a pinned connection = %s", asJSON(keys(list)))
	}
	if rest := h.finish(); len(rest) != 0 {
		t.Errorf("unexpected frames: %s", asJSON(rest))
	}
}

func TestModernOpeningEnvelopeErrors(t *testing.T) {
	h := start(t, nil)
	for _, tc := range []struct {
		meta string
		code int
		diag bool
	}{
		{`{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`, -32602, false},
		{`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":"none"}`, -32602, false},
		{`{"io.modelcontextprotocol/protocolVersion":5,"io.modelcontextprotocol/clientCapabilities":{}}`, -32602, false},
		{`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":"me"}`, -32602, false},
		{`{"io.modelcontextprotocol/protocolVersion":"2025-06-18","io.modelcontextprotocol/clientCapabilities":{}}`, -32022, true},
		{`{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}`, -32022, true},
	} {
		for _, method := range []string{"tools/list", "server/discover", "foo/bar"} {
			before := len(h.diagnostics())
			if code := h.errorCode(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{"_meta":%s}}`, method, tc.meta)); code != tc.code {
				t.Errorf("%s %s: code %d, want %d", method, tc.meta, code, tc.code)
			}
			if got := len(h.diagnostics()) - before; (got == 1) != tc.diag || got > 1 {
				t.Errorf("%s %s: %d diagnostics", method, tc.meta, got)
			}
		}
	}
	// Nothing was pinned: a valid discover probes, and a claim-less request
	// after it picks the legacy era.
	if res := h.result(`{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{` + modernMeta + `}}`); res["ttlMs"] != 300000.0 {
		t.Errorf("discover after the refusals = %s", asJSON(res))
	}
	if res := h.result(`{"jsonrpc":"2.0","id":3,"method":"ping"}`); len(res) != 0 {
		t.Errorf("ping after the probe = %s", asJSON(res))
	}
	h.finish()
}

func TestModernNotificationWithBadEnvelopeIsDropped(t *testing.T) {
	h := start(t, nil)
	h.result(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + modernMeta + `}}`)
	h.line(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`)
	h.line(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2030-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	// Notifications without an envelope are fine on a modern connection.
	h.line(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77}}`)
	h.result(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + modernMeta + `}}`)
	if rest := h.finish(); len(rest) != 0 {
		t.Errorf("unexpected frames: %s", asJSON(rest))
	}
	if d := h.diagnostics(); len(d) != 2 {
		t.Errorf("diagnostics = %v, want two dropped notifications", d)
	}
}

func TestModernSubscriptionsListen(t *testing.T) {
	h := start(t, nil)
	h.line(`{"jsonrpc":"2.0","id":"sub","method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true,"promptsListChanged":true}}`) + `}`)
	ack := h.next()
	if ack["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("expected the acknowledgement, got %s", asJSON(ack))
	}
	params, _ := ack["params"].(map[string]any)
	if !reflect.DeepEqual(params["notifications"], mustJSON(t, `{"toolsListChanged":true}`)) {
		t.Errorf("acknowledged filter = %s", asJSON(params["notifications"]))
	}
	// The open subscription does not hold up other requests or the end of
	// input; it ends without an answer.
	h.result(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + modernMeta + `}}`)

	// A cancelled subscription ends silently too.
	h.line(`{"jsonrpc":"2.0","id":"sub2","method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true}}`) + `}`)
	if ack := h.next(); ack["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("expected the acknowledgement, got %s", asJSON(ack))
	}
	h.line(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"sub2"}}`)
	h.result(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{` + modernMeta + `}}`)
	if rest := h.finish(); len(rest) != 0 {
		t.Errorf("unexpected frames at the end: %s", asJSON(rest))
	}
}

func TestInitializeChoosesTheEraByItsEnvelope(t *testing.T) {
	initWith := func(id int, meta string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"},"_meta":%s}}`, id, meta)
	}
	// Without a valid envelope an opening initialize is a legacy client,
	// whatever its _meta holds.
	for _, meta := range []string{
		`{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`,
		`{"io.modelcontextprotocol/protocolVersion":"2025-06-18","io.modelcontextprotocol/clientCapabilities":{}}`,
	} {
		h := start(t, nil)
		if res := h.result(initWith(1, meta)); res["protocolVersion"] != "2025-06-18" {
			t.Errorf("initialize with _meta %s = %s", meta, asJSON(res))
		}
		if res := h.result(`{"jsonrpc":"2.0","id":2,"method":"ping"}`); len(res) != 0 {
			t.Errorf("ping after it = %s", asJSON(res))
		}
		h.finishQuiet()
	}

	// With a valid one it goes to the modern era, which has no initialize,
	// and pins it.
	h := start(t, nil)
	if code := h.errorCode(initWith(1, `{`+modernMeta[len(`"_meta":{`):])); code != -32601 {
		t.Errorf("initialize with a valid envelope: code %d, want -32601", code)
	}
	if code := h.errorCode(`{"jsonrpc":"2.0","id":2,"method":"ping"}`); code != -32602 {
		t.Errorf("claim-less ping afterwards: code %d, want -32602", code)
	}
	// On the pinned connection an initialize with a broken envelope is a
	// late legacy client.
	if code := h.errorCode(initWith(3, `{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`)); code != -32022 {
		t.Errorf("initialize with a broken envelope when pinned: code %d, want -32022", code)
	}
	h.finish()
	if d := h.diagnostics(); len(d) != 1 {
		t.Errorf("diagnostics = %v, want one", d)
	}
}

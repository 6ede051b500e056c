package mcp

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// eraCase opens a connection in one era and wraps params for it.
type eraCase struct {
	name   string
	open   func(h *harness)
	params func(string) string
	// extra lists the keys the era adds to every tools/call result.
	extra []string
}

var eraCases = []eraCase{
	{
		name:   "legacy",
		open:   func(h *harness) { h.result(initLegacy) },
		params: func(p string) string { return p },
	},
	{
		name: "modern",
		open: func(h *harness) {
			h.result(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + modernMeta + `}}`)
		},
		params: withMeta,
		extra:  []string{"_meta", "resultType"},
	},
}

func withKeys(base []string, extra []string) []string {
	out := append(append([]string{}, base...), extra...)
	slices.Sort(out)
	return out
}

func TestToolCallResults(t *testing.T) {
	for _, ec := range eraCases {
		t.Run(ec.name, func(t *testing.T) {
			h := start(t, nil)
			ec.open(h)
			call := func(id int, params string) map[string]any {
				return h.result(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, ec.params(params)))
			}

			ok := call(2, `{"name":"get_decision","arguments":{"ref":"0001"}}`)
			if got := keys(ok); !reflect.DeepEqual(got, withKeys([]string{"content", "structuredContent"}, ec.extra)) {
				t.Errorf("success keys = %v", got)
			}
			if !reflect.DeepEqual(ok["content"], mustJSON(t, `[{"type":"text","text":"called get_decision"}]`)) {
				t.Errorf("success content = %s", asJSON(ok["content"]))
			}
			if !reflect.DeepEqual(ok["structuredContent"], mustJSON(t, `{"result":{"outcome":"echo","requestedRef":"{\"ref\":\"0001\"}","findings":{"items":null,"cursor":null}}}`)) {
				t.Errorf("structuredContent = %s", asJSON(ok["structuredContent"]))
			}

			for i, mode := range []string{"refuse", "panic", "fail"} {
				res := call(10+i, `{"name":"search_decisions","arguments":{"mode":"`+mode+`"}}`)
				if got := keys(res); !reflect.DeepEqual(got, withKeys([]string{"content", "isError"}, ec.extra)) {
					t.Errorf("%s: keys = %v (no structuredContent on errors)", mode, got)
				}
				if res["isError"] != true {
					t.Errorf("%s: isError = %v", mode, res["isError"])
				}
				content, _ := res["content"].([]any)
				if len(content) != 1 || content[0].(map[string]any)["type"] != "text" {
					t.Errorf("%s: content = %s", mode, asJSON(content))
				}
			}

			// Arguments left out reach the tool as "none".
			call(20, `{"name":"list_superseded"}`)
			h.tools.mu.Lock()
			last := h.tools.calls[len(h.tools.calls)-1]
			h.tools.mu.Unlock()
			if len(last) != 0 {
				t.Errorf("omitted arguments reached the tool as %s", last)
			}
			h.finishQuiet()
		})
	}
}

func TestToolCallRequestErrors(t *testing.T) {
	for _, ec := range eraCases {
		t.Run(ec.name, func(t *testing.T) {
			h := start(t, nil)
			ec.open(h)
			for i, params := range []string{
				`{"name":"nope","arguments":{}}`,
				`{"name":"","arguments":{}}`,
				`{"name":"Search_Decisions","arguments":{}}`,
				`{"name":"get_decision ","arguments":{}}`,
				`{"arguments":{}}`,
				`{}`,
				`{"name":5,"arguments":{}}`,
				`{"name":null}`,
				`{"name":"list_superseded","arguments":[]}`,
				`{"name":"list_superseded","arguments":null}`,
				`{"name":"list_superseded","arguments":"x"}`,
				`{"name":"list_superseded","arguments":1}`,
			} {
				code := h.errorCode(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, 30+i, ec.params(params)))
				if code != -32602 {
					t.Errorf("params %s: code %d, want -32602", params, code)
				}
			}
			if ec.name == "legacy" {
				// params missing altogether
				if code := h.errorCode(`{"jsonrpc":"2.0","id":60,"method":"tools/call"}`); code != -32602 {
					t.Errorf("no params: code %d, want -32602", code)
				}
			}
			h.finishQuiet()
		})
	}
}

func TestRequestIDsAreEchoed(t *testing.T) {
	h := start(t, nil)
	for _, id := range []string{`"init"`, `"abc"`, `0`, `-7`, `9007199254740991`, `""`, `5.0`, `1e2`} {
		frame := h.call(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if _, ok := frame["result"]; !ok {
			t.Errorf("id %s: %s", id, asJSON(frame))
		}
		if strings.HasPrefix(id, `"`) {
			if _, isString := frame["id"].(string); !isString {
				t.Errorf("id %s came back as %T", id, frame["id"])
			}
		} else if _, isNumber := frame["id"].(float64); !isNumber {
			t.Errorf("id %s came back as %T", id, frame["id"])
		}
	}
	h.finishQuiet()
}

package mcp

import (
	"encoding/json"
	"testing"
)

func TestMembers(t *testing.T) {
	for raw, want := range map[string]int{
		`{}`:                                     0,
		` { } `:                                  0,
		`{"a":1}`:                                1,
		`{"a":[1,2],"b":{"c":3,"d":4}}`:          2,
		`{"a":"x,y","a":"\",\\"}`:                2,
		`{"a\"":{"b":[{},{}]},"c":null,"a\"":0}`: 3,
	} {
		if got := members(json.RawMessage(raw)); got != want {
			t.Errorf("members(%s) = %d, want %d", raw, got, want)
		}
	}
}

// TestWithClaim: the SDK gets a message's params byte for byte as sent
// unless the claim changes or a member is repeated.
func TestWithClaim(t *testing.T) {
	modern := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, tc := range []struct {
		name, params string
		claim        json.RawMessage
		want         string
	}{
		{"no params", ``, nil, ``},
		{"no claim to strip", `{ "name" : "get_decision", "arguments":{"ref" :"<1>"} }`, nil,
			`{ "name" : "get_decision", "arguments":{"ref" :"<1>"} }`},
		{"the modern claim kept", `{"name":"x",` + modern + `}`, modernClaim, `{"name":"x",` + modern + `}`},
		{"a claim stripped", `{"name":"x",` + modern + `}`, nil,
			`{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}},"name":"x"}`},
		{"an older claim pinned", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}`, modernClaim,
			`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`},
		{"a repeated member", `{"name":"a", "name":"b"}`, nil, `{"name":"b"}`},
	} {
		line := `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`
		if tc.params != "" {
			line = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + tc.params + `}`
		}
		f := parseFrame([]byte(line))
		if got := string(withClaim(f, tc.claim)); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

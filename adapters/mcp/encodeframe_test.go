package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// sdkResult encodes v as the SDK encodes a result: compact, HTML left
// alone.
func sdkResult(t testing.TB, v any) json.RawMessage {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// checkFrame holds encodeFrame to the SDK's encoder: the same bytes, one
// line.
func checkFrame(t testing.TB, msg jsonrpc.Message) {
	t.Helper()
	want, wantErr := jsonrpc.EncodeMessage(msg)
	got, err := encodeFrame(msg)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("error %v, the SDK's %v", err, wantErr)
	}
	if err != nil {
		return
	}
	if !bytes.Equal(got, append(want, '\n')) {
		t.Fatalf("frame differs from the SDK's encoding:\n got %s\nwant %s", got, want)
	}
}

func TestEncodeFrame(t *testing.T) {
	id := func(v any) jsonrpc.ID {
		t.Helper()
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	result := sdkResult(t, map[string]any{"text": "<a> & \u2028 \"q\" é", "n": []any{1, 2.5, nil, true}})
	request := &jsonrpc.Request{ID: id(float64(3)), Method: "tools/list", Params: sdkResult(t, map[string]any{})}
	notification := &jsonrpc.Request{Method: "notifications/progress", Params: sdkResult(t, map[string]any{"p": 1})}
	for _, tc := range []struct {
		name string
		msg  jsonrpc.Message
	}{
		{"number id", &jsonrpc.Response{ID: id(float64(7)), Result: result}},
		{"negative id", &jsonrpc.Response{ID: id(float64(-9007199254740991)), Result: result}},
		{"zero id", &jsonrpc.Response{ID: id(float64(0)), Result: sdkResult(t, map[string]any{})}},
		{"string id", &jsonrpc.Response{ID: id("a<b>&\"c\"\u2028"), Result: result}},
		{"empty string id", &jsonrpc.Response{ID: id(""), Result: sdkResult(t, []any{})}},
		{"error", &jsonrpc.Response{ID: id(float64(1)), Error: &jsonrpc.Error{Code: -32601, Message: "nope"}}},
		{"plain error", &jsonrpc.Response{ID: id(float64(1)), Error: errors.New("boom")}},
		{"no result", &jsonrpc.Response{ID: id(float64(2))}},
		{"no id", &jsonrpc.Response{Error: &jsonrpc.Error{Code: -32700, Message: "parse"}}},
		{"request", request},
		{"notification", notification},
	} {
		t.Run(tc.name, func(t *testing.T) { checkFrame(t, tc.msg) })
	}
}

// FuzzEncodeFrame: for any id and any result the SDK could have encoded,
// the frame is the SDK's encoding.
func FuzzEncodeFrame(f *testing.F) {
	f.Add(int64(1), "", false, `{"tools":[]}`)
	f.Add(int64(-5), "x<y>&z\u2028", true, `{"a":"<b>","c":[1,2.5e10,null]}`)
	f.Add(int64(0), "\"\\", true, `"s"`)
	f.Fuzz(func(t *testing.T, n int64, s string, useString bool, result string) {
		var v any
		if json.Unmarshal([]byte(result), &v) != nil {
			return
		}
		var raw any = float64(n) // ids arrive decoded from JSON: numbers or strings
		if useString {
			raw = s
		}
		id, err := jsonrpc.MakeID(raw)
		if err != nil {
			t.Fatal(err)
		}
		checkFrame(t, &jsonrpc.Response{ID: id, Result: sdkResult(t, v)})
	})
}

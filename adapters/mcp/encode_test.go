package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// sdkResult is a result as the SDK's jsonrpc2.NewResponse makes it: v
// through encoding/json without HTML escaping, trailing newline dropped.
func sdkResult(t testing.TB, v any) json.RawMessage {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

func mustID(t testing.TB, v any) jsonrpc.ID {
	t.Helper()
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestEncodeMessageMatchesSDK holds encodeMessage to jsonrpc.EncodeMessage,
// byte for byte, on every kind of message and on the results where the
// two could differ if the result were re-escaped: HTML characters, line
// and paragraph separators, escapes, non-ASCII text.
func TestEncodeMessageMatchesSDK(t *testing.T) {
	results := []any{
		map[string]any{"content": []any{map[string]any{"type": "text", "text": "a <b> & c"}}},
		map[string]any{"text": "line\u2028para\u2029end", "n": 1.5e300, "neg": math.Copysign(0, -1)},
		map[string]any{"s": "tab\tquote\"backslash\\ nul\x00 é 中 😀", "empty": map[string]any{}, "list": []any{}},
		json.RawMessage(`{ "spaced" : [ 1 , 2 ] , "html" : "<&>" }`),
		"just a string",
		nil,
		[]any{true, false, nil},
	}
	ids := []any{float64(0), float64(1), float64(9007199254740991), float64(-3), "", "id", "quote\"<&>\u2028", nil}
	for _, id := range ids {
		// The splice, not the fallback, is what the comparisons below test.
		head, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: mustID(t, id), Result: standIn})
		if err != nil || !bytes.HasSuffix(head, standInTail) {
			t.Fatalf("id %#v: the envelope %s (%v) does not end with %s: encodeMessage would always fall back", id, head, err, standInTail)
		}
		for _, r := range results {
			msgs := []jsonrpc.Message{
				&jsonrpc.Response{ID: mustID(t, id), Result: sdkResult(t, r)},
				&jsonrpc.Response{ID: mustID(t, id), Error: &jsonrpc.Error{Code: -32602, Message: "bad <params>"}},
				&jsonrpc.Response{ID: mustID(t, id), Error: errors.New("plain failure")},
				&jsonrpc.Response{ID: mustID(t, id)},
				&jsonrpc.Request{ID: mustID(t, id), Method: "tools/call", Params: sdkResult(t, r)},
				&jsonrpc.Request{Method: "notifications/message", Params: sdkResult(t, r)},
			}
			for _, m := range msgs {
				want, werr := jsonrpc.EncodeMessage(m)
				got, gerr := encodeMessage(m)
				if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
					t.Errorf("%#v:\n got %s (%v)\nwant %s (%v)", m, got, gerr, want, werr)
				}
			}
		}
	}
}

// FuzzEncodeMessage: for any JSON value as a result (made the SDK's way)
// and any id, the response encodes exactly as the SDK encodes it.
func FuzzEncodeMessage(f *testing.F) {
	f.Add(`{"a":"<b>&\u2028"}`, "x", int64(1), true)
	f.Add(`[1, 2.50, -0, 1e400]`, "", int64(0), false)
	f.Add(`"\ud800 lone"`, "\"", int64(-1), true)
	f.Fuzz(func(t *testing.T, result, sid string, nid int64, useString bool) {
		var v any
		if err := json.Unmarshal([]byte(result), &v); err != nil {
			return
		}
		var id jsonrpc.ID
		if useString {
			id = mustID(t, sid)
		} else {
			id = mustID(t, float64(nid))
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return // e.g. a number encoding/json will not write back
		}
		m := &jsonrpc.Response{ID: id, Result: bytes.TrimRight(b.Bytes(), "\n")}
		want, werr := jsonrpc.EncodeMessage(m)
		got, gerr := encodeMessage(m)
		if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("got %s (%v)\nwant %s (%v)", got, gerr, want, werr)
		}
	})
}

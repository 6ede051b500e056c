package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestSplice(t *testing.T) {
	h := &heldAnswers{}
	answer := json.RawMessage(`{"corpusHealth":{"fingerprint":"f"},"result":{"outcome":"found","title":"a \"structuredContent\":1 b"}}`)
	ref := h.hold(answer)
	refText, _ := ref.MarshalJSON()
	tests := []struct {
		name    string
		result  string
		want    string // "" when the result must come back unchanged
		wantErr bool
	}{
		{"no structured content", `{"content":[]}`, "", false},
		{"an object, not a reference", `{"content":[],"structuredContent":{"a":1}}`, "", false},
		{"not an integer", `{"structuredContent":1.5}`, "", false},
		{"a reference not held", `{"content":[],"structuredContent":999999,"resultType":"complete"}`, "", true},
		{"held, followed by more members",
			`{"content":[{"type":"text","text":"x \"structuredContent\":` + string(refText) + `"}],"structuredContent":` + string(refText) + `,"resultType":"complete"}`,
			`{"content":[{"type":"text","text":"x \"structuredContent\":` + string(refText) + `"}],"structuredContent":` + string(answer) + `,"resultType":"complete"}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := h.splice(json.RawMessage(tc.result))
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			want := tc.want
			if want == "" {
				want = tc.result
			}
			if ok != (tc.want != "") || string(got) != want {
				t.Errorf("splice = %s (%v)\nwant %s", got, ok, want)
			}
		})
	}
	if n := h.size(); n != 0 {
		t.Errorf("%d answers still held", n)
	}
}

// TestWriteReleasesHeldAnswers: Write puts a held answer back byte for
// byte, and releases it even when the response is swallowed because its
// request was cancelled.
func TestWriteReleasesHeldAnswers(t *testing.T) {
	var out bytes.Buffer
	h := &heldAnswers{}
	c := &stdioConn{out: &out, onError: func(err error) { t.Error(err) }, held: h,
		inflight: map[jsonrpc.ID]bool{}, cancelled: map[jsonrpc.ID]bool{}, settled: make(chan struct{})}
	answer := json.RawMessage(`{"result":{"outcome":"matches","html":"<&>\u2028"}}`)
	result := func() json.RawMessage {
		r, err := json.Marshal(&toolCallResult{Content: []sdk.Content{}, StructuredContent: h.hold(answer), ResultType: "complete"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	id1, id2 := mustID(t, float64(1)), mustID(t, float64(2))

	c.track(id1, false)
	if err := c.Write(context.Background(), &jsonrpc.Response{ID: id1, Result: result()}); err != nil {
		t.Fatal(err)
	}
	want, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id1, Result: json.RawMessage(
		`{"content":[],"structuredContent":` + string(answer) + `,"resultType":"complete"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSuffix(out.String(), "\n"); got != string(want) {
		t.Errorf("wrote %s\nwant  %s", got, want)
	}

	out.Reset()
	c.track(id2, false)
	c.cancel(id2)
	if err := c.Write(context.Background(), &jsonrpc.Response{ID: id2, Result: result()}); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Errorf("a cancelled request was answered: %s", out.String())
	}
	if n := h.size(); n != 0 {
		t.Errorf("%d answers still held", n)
	}
}

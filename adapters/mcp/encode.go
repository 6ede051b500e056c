package mcp

import (
	"bytes"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// encodeMessage is jsonrpc.EncodeMessage, byte for byte, for less work on
// the messages that matter: a successful response.
//
// The SDK builds every response it sends with jsonrpc2.NewResponse, which
// has already run its result through encoding/json (without HTML
// escaping), so the result is compact, valid JSON. EncodeMessage then
// embeds it in the envelope with a second encoding/json pass, whose only
// effect on such a result is to scan it again, byte by byte; answers of
// get_decision_context run to tens of kilobytes and that scan was a few
// percent of a call. Here the envelope is encoded by the SDK itself, with
// a one-byte stand-in result, and the real result is spliced in its place;
// the key order, the id's encoding and the escaping all stay the SDK's.
// Everything else (requests, notifications, errors, a response without a
// result) goes through EncodeMessage unchanged.
func encodeMessage(msg jsonrpc.Message) ([]byte, error) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error != nil || len(resp.Result) == 0 {
		return jsonrpc.EncodeMessage(msg)
	}
	head, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: resp.ID, Result: standIn})
	if err != nil {
		return nil, err
	}
	// The envelope ends with the stand-in and the closing brace; anything
	// else means the SDK's encoding changed shape, and the long way is
	// the right one.
	if !bytes.HasSuffix(head, standInTail) {
		return jsonrpc.EncodeMessage(msg)
	}
	head = head[:len(head)-len("0}")]
	out := make([]byte, 0, len(head)+len(resp.Result)+2)
	out = append(out, head...)
	out = append(out, resp.Result...)
	return append(out, '}'), nil
}

// standIn is the placeholder result encodeMessage splices the real one
// over, and standInTail how the envelope ends with it.
var (
	standIn     = json.RawMessage("0")
	standInTail = []byte(`"result":0}`)
)

package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
)

// heldAnswers keeps the encoded structured content of tools/call answers
// out of the SDK's encoder.
//
// A structured answer is encoded once, up front (encodeStructured). Handed
// to the SDK as a json.RawMessage, it would be scanned byte by byte twice
// more on its way out: encoding/json validates and compacts every
// RawMessage it embeds, once when the SDK encodes the result and once more
// when it encodes the JSON-RPC envelope. For get_decision_context those
// answers run to tens of kilobytes, and the two scans were a tenth of a
// call. So the result the SDK encodes carries a number instead (heldRef),
// and the connection's Write puts the held bytes back in its place
// (splice); encodeMessage spares the envelope's scan.
//
// The table belongs to one connection: an answer is held from the moment
// the middleware rebuilds the result until Write takes it, and a response
// the SDK never writes (its connection closing) leaves its answer to be
// collected with the connection.
type heldAnswers struct {
	mu   sync.Mutex
	next uint64
	m    map[uint64]json.RawMessage
}

// heldRef stands in for a held answer in the result the SDK encodes.
type heldRef uint64

// MarshalJSON writes the number.
func (r heldRef) MarshalJSON() ([]byte, error) {
	return strconv.AppendUint(nil, uint64(r), 10), nil
}

// hold keeps raw and returns what to encode in its place.
func (h *heldAnswers) hold(raw json.RawMessage) heldRef {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[uint64]json.RawMessage{}
	}
	h.next++
	h.m[h.next] = raw
	return heldRef(h.next)
}

// structuredKey is how the member appears in an encoded result. An
// unescaped quote only ever opens or closes a string, so this text can
// only be a key; the last one in a tools/call result is the top-level
// member, as only isError and resultType (plain values) follow it.
var structuredKey = []byte(`"structuredContent":`)

// splice puts the held answer back in an encoded result, releasing it.
// A result without a held reference is returned as it is (ok false); one
// whose reference is not held is an error, as its answer would be lost.
func (h *heldAnswers) splice(result json.RawMessage) (out json.RawMessage, ok bool, err error) {
	i := bytes.LastIndex(result, structuredKey)
	if i < 0 {
		return result, false, nil
	}
	start := i + len(structuredKey)
	end := start
	for end < len(result) && result[end] >= '0' && result[end] <= '9' {
		end++
	}
	if end == start || end == len(result) || (result[end] != ',' && result[end] != '}') {
		return result, false, nil // an answer not held (an error result has none)
	}
	n, perr := strconv.ParseUint(string(result[start:end]), 10, 64)
	h.mu.Lock()
	raw, held := h.m[n]
	delete(h.m, n)
	h.mu.Unlock()
	if perr != nil || !held {
		return result, false, fmt.Errorf("structured answer %s of a tools/call result is not held", result[start:end])
	}
	out = make(json.RawMessage, 0, len(result)-(end-start)+len(raw))
	out = append(out, result[:start]...)
	out = append(out, raw...)
	return append(out, result[end:]...), true, nil
}

// size is the number of answers held (for tests).
func (h *heldAnswers) size() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.m)
}

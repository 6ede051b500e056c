package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// frameKind classifies one input line.
type frameKind int

const (
	// frameNotJSON: the line does not parse as JSON (an empty line
	// included). Such lines are skipped without a word, as the reference
	// does: a client may send keep-alive newlines or stray log output.
	frameNotJSON frameKind = iota
	// frameInvalid: JSON, but not a JSON-RPC 2.0 message we accept.
	frameInvalid
	frameRequest
	frameNotification
	frameResponse
)

// frame is one parsed input message. Its params are decoded here once:
// the era rules read params and meta, and the SDK is given rawParams
// itself unless the era pin must rewrite the envelope (withClaim).
type frame struct {
	kind   frameKind
	id     jsonrpc.ID // requests and (most) responses
	method string
	// rawParams is the params object as sent, nil when the message had
	// none; params its members, meta the members of its _meta (nil when
	// it has none).
	rawParams    json.RawMessage
	params, meta map[string]json.RawMessage
	// problem says why a frameInvalid line was refused.
	problem string
}

// maxSafeInteger bounds numeric request ids: JSON-RPC peers written in
// JavaScript cannot represent larger integers exactly, and the reference
// refuses them.
const maxSafeInteger = 1<<53 - 1

// parseFrame classifies line (without its terminator). It accepts exactly
// what the reference's message schema accepts: an object with
// "jsonrpc":"2.0" that is a request (string method, string or integer
// id), a notification (method, no id) or a response (id with an object
// result, or an error object); params, when present, must be an object
// whose _meta, when present, is an object. Batches are refused: no
// revision this server speaks has them.
func parseFrame(line []byte) frame {
	var fields map[string]json.RawMessage
	err := json.Unmarshal(line, &fields)
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax) && nestedTooDeep(line):
		// Possibly well-formed JSON (a request, even) that Go's parser
		// refuses: worth a word rather than silence.
		return invalid(fmt.Sprintf("the message is nested more than %d levels deep", maxJSONDepth))
	case errors.As(err, &syntax):
		return frame{kind: frameNotJSON}
	case err != nil && bytes.HasPrefix(bytes.TrimLeft(line, " \t\r\n"), []byte("[")):
		return invalid("batch arrays are not supported")
	case err != nil || fields == nil:
		return invalid("the message is not a JSON object")
	}
	var version string
	if raw, ok := fields["jsonrpc"]; !ok || json.Unmarshal(raw, &version) != nil || version != "2.0" {
		return invalid(`"jsonrpc" must be the string "2.0"`)
	}
	if rawMethod, ok := fields["method"]; ok {
		return parseCall(fields, rawMethod)
	}
	return parseResponse(fields)
}

// parseCall validates a request or notification.
func parseCall(fields map[string]json.RawMessage, rawMethod json.RawMessage) frame {
	f := frame{kind: frameNotification}
	if err := json.Unmarshal(rawMethod, &f.method); err != nil || jsonType(rawMethod) != "string" {
		return invalid(`"method" must be a string`)
	}
	if rawID, ok := fields["id"]; ok {
		id, err := parseID(rawID)
		if err != nil {
			return invalid(err.Error())
		}
		f.kind, f.id = frameRequest, id
	}
	if rawParams, ok := fields["params"]; ok {
		// Only an object decodes into a non-nil map (null gives nil).
		if json.Unmarshal(rawParams, &f.params) != nil || f.params == nil {
			return invalid(`"params" must be an object`)
		}
		f.rawParams = rawParams
		if rawMeta, ok := f.params["_meta"]; ok {
			var problem string
			if f.meta, problem = decodeMeta(rawMeta); problem != "" {
				return invalid(problem)
			}
		}
	}
	return f
}

// decodeMeta decodes a request's _meta and applies the base shape every
// one must have (the envelope keys are judged later, by the era rules).
func decodeMeta(raw json.RawMessage) (map[string]json.RawMessage, string) {
	var meta map[string]json.RawMessage
	if json.Unmarshal(raw, &meta) != nil || meta == nil {
		return nil, `"params._meta" must be an object`
	}
	if token, ok := meta["progressToken"]; ok {
		if jsonType(token) != "string" {
			if _, err := parseID(token); err != nil {
				return nil, `"params._meta.progressToken" must be a string or an integer`
			}
		}
	}
	return meta, ""
}

// parseResponse validates a result or error response.
func parseResponse(fields map[string]json.RawMessage) frame {
	f := frame{kind: frameResponse}
	rawID, hasID := fields["id"]
	rawResult, hasResult := fields["result"]
	rawErr, hasErr := fields["error"]
	switch {
	case hasResult && hasErr:
		return invalid(`a response carries either "result" or "error", not both`)
	case hasResult:
		if !hasID {
			return invalid(`a result response needs an "id"`)
		}
		if jsonType(rawResult) != "object" {
			return invalid(`"result" must be an object`)
		}
	case hasErr:
		var wire struct {
			Code    *json.Number `json:"code"`
			Message *string      `json:"message"`
		}
		if jsonType(rawErr) != "object" || json.Unmarshal(rawErr, &wire) != nil ||
			wire.Code == nil || wire.Message == nil || !isInteger(*wire.Code) {
			return invalid(`"error" must be an object with an integer "code" and a string "message"`)
		}
		if !hasID || jsonType(rawID) == "null" {
			return f // an error about an unidentifiable request
		}
	default:
		return invalid(`the message has neither "method" nor "result" nor "error"`)
	}
	id, err := parseID(rawID)
	if err != nil {
		return invalid(err.Error())
	}
	f.id = id
	return f
}

// parseID accepts a string or a safe integer, the id types JSON-RPC peers
// agree on.
func parseID(raw json.RawMessage) (jsonrpc.ID, error) {
	switch jsonType(raw) {
	case "string":
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return jsonrpc.ID{}, fmt.Errorf(`"id" is not a valid string: %w`, err)
		}
		return jsonrpc.MakeID(s)
	case "number":
		n := json.Number(bytes.TrimSpace(raw))
		if !isInteger(n) {
			return jsonrpc.ID{}, errors.New(`"id" must be a string or an integer`)
		}
		v, _ := n.Float64()
		return jsonrpc.MakeID(v)
	}
	return jsonrpc.ID{}, errors.New(`"id" must be a string or an integer`)
}

// isInteger reports whether n is an integer within the safe range, in any
// JSON spelling (5, 5.0, 5e0).
func isInteger(n json.Number) bool {
	v, err := n.Float64()
	return err == nil && v == math.Trunc(v) && math.Abs(v) <= maxSafeInteger
}

// jsonType names the JSON type of a raw value, for validation and for
// error messages.
func jsonType(raw json.RawMessage) string {
	b := bytes.TrimLeft(raw, " \t\r\n")
	if len(b) == 0 {
		return "undefined"
	}
	switch b[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// maxJSONDepth is encoding/json's nesting limit: json.Valid refuses a
// line that opens more arrays and objects at once, well-formed or not.
const maxJSONDepth = 10000

// nestedTooDeep reports whether line, read as JSON tokens, nests more
// than maxJSONDepth arrays and objects at some point.
func nestedTooDeep(line []byte) bool {
	deep := false
	walkJSON(line, func(_ byte, depth int) bool {
		deep = depth > maxJSONDepth
		return !deep
	})
	return deep
}

// members counts the members of the well-formed JSON object raw,
// repeated names included: its commas outside nested values and strings,
// and one more unless it is empty (a member starts with its name).
func members(raw json.RawMessage) int {
	commas, named := 0, false
	walkJSON(raw, func(c byte, depth int) bool {
		if depth == 1 {
			named = named || c == '"'
			if c == ',' {
				commas++
			}
		}
		return true
	})
	if !named {
		return 0
	}
	return commas + 1
}

// walkJSON calls visit with each byte of the JSON text b that is not
// inside a string (an opening quote included) and the depth of arrays and
// objects it is at, an opening bracket counting itself, until visit
// returns false.
func walkJSON(b []byte, visit func(c byte, depth int) bool) {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
			continue
		case inString:
			escaped = c == '\\'
			inString = c != '"'
			continue
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
		}
		if !visit(c, depth) {
			return
		}
		if c == ']' || c == '}' {
			depth--
		}
	}
}

func invalid(problem string) frame {
	return frame{kind: frameInvalid, problem: problem}
}

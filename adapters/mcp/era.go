package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// era is the protocol generation a request is served under.
type era int

const (
	// eraLegacy: the initialize handshake revisions (2024-11-05 up to
	// 2025-11-25).
	eraLegacy era = iota + 1
	// eraModern: revision 2026-07-28, every request carrying the _meta
	// envelope.
	eraModern
)

// modernRevision is the only envelope revision this server speaks.
const modernRevision = "2026-07-28"

// Method names the era rules need to tell apart.
const (
	methodInitialize = "initialize"
	methodPing       = "ping"
	methodToolsList  = "tools/list"
	methodToolsCall  = "tools/call"
	methodDiscover   = "server/discover"
	methodListen     = "subscriptions/listen"
	methodCancelled  = "notifications/cancelled"
	// methodInitialized is only noted (DispatchNoter), never judged.
	methodInitialized = "notifications/initialized"
)

// served says which requests each era answers; anything else is "method
// not found". The SDK would happily serve empty prompt and resource lists,
// logging levels and more; the contract is four tools and nothing else.
var served = map[era]map[string]bool{
	eraLegacy: {methodInitialize: true, methodPing: true, methodToolsList: true, methodToolsCall: true},
	eraModern: {methodDiscover: true, methodToolsList: true, methodToolsCall: true, methodListen: true},
}

// legacyRevisions are the handshake revisions an initialize is answered
// with as asked; any other request gets the newest of them.
var legacyRevisions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"}

// negotiateLegacy picks the revision an initialize result names.
func negotiateLegacy(requested string) string {
	if slices.Contains(legacyRevisions, requested) {
		return requested
	}
	return legacyRevisions[0]
}

// phase is where a connection stands in choosing its era.
type phase int

const (
	// phaseOpening: nothing has decided the era yet.
	phaseOpening phase = iota
	// phaseProbing: a server/discover with a valid envelope was answered,
	// but the client may still fall back to the initialize handshake.
	phaseProbing
	phaseLegacy
	phaseModern
)

// decision is what the era pin makes of one request or notification.
type decision struct {
	// drop: the message never reaches the SDK (a notification that was
	// refused).
	drop bool
	// verdict, when set, is the JSON-RPC error the request is answered
	// with instead of being served.
	verdict *jsonrpc.Error
	// diagnostic, when set, is reported out of band (and makes the
	// binary's exit status 1).
	diagnostic error
	// params is what the SDK gets as the request's params (nil: none),
	// their envelope rewritten for the era (withClaim): the middleware
	// reads the era from them.
	params json.RawMessage
	// modern: params carry the claim of revision 2026-07-28 (pinned);
	// those of every other served message carry none.
	modern bool
}

// eraPin holds a connection's era state. The SDK decides the era of
// every request on its own, from that request's _meta alone, and keeps
// state that lets the eras leak into each other; the contract instead
// pins one era per connection from its opening messages, so the decision
// is made here, in arrival order, before the SDK sees the message.
//
// Over HTTP every request is a connection of its own: its
// MCP-Protocol-Version header, when it has one, pins the phase before the
// request is judged (byHeader), and only the wording of the refusals
// changes.
type eraPin struct {
	phase phase
	// byHeader: the phase comes from an HTTP request's
	// MCP-Protocol-Version header, not from earlier messages.
	byHeader bool
}

// judge decides what happens to f (a request or a notification) and
// advances the connection's phase.
func (a *eraPin) judge(f frame) decision {
	env := checkEnvelope(f.meta)
	if f.kind != frameRequest {
		return a.judgeNotification(f, env)
	}
	switch a.phase {
	case phaseLegacy:
		return a.serve(f, eraLegacy)
	case phaseModern:
		if f.method == methodInitialize && (env.status == envelopeAbsent || env.status == envelopeInvalid) {
			// A legacy client that arrived late: tell it which revision the
			// connection speaks.
			requested := stringField(f.params, "protocolVersion")
			why := "this connection already speaks revision " + modernRevision + "; the initialize handshake is not available on it"
			if a.byHeader {
				why = "the MCP-Protocol-Version header names revision " + modernRevision + ", which has no initialize handshake"
			}
			return decision{
				verdict: unsupportedRevision(requested, why, modernRevision),
				diagnostic: fmt.Errorf("refused an initialize handshake (revision %q) on a connection that speaks revision %s",
					requested, modernRevision),
			}
		}
		switch env.status {
		case envelopeAbsent:
			who := "this connection speaks revision " + modernRevision + ": every request"
			if a.byHeader {
				who = "the MCP-Protocol-Version header names revision " + modernRevision + ": the request"
			}
			return decision{verdict: &jsonrpc.Error{
				Code: jsonrpc.CodeInvalidParams,
				Message: who + " must carry the _meta envelope (" +
					sdk.MetaKeyProtocolVersion + " and " + sdk.MetaKeyClientCapabilities + ")",
			}}
		case envelopeInvalid:
			return decision{verdict: env.invalidError()}
		}
		// Once the era is pinned, a well-formed envelope is served whatever
		// revision it names, as the reference does.
		return a.serve(f, eraModern)
	}

	// Opening or probing: the message may choose the era. An initialize
	// without a valid envelope is a legacy client whatever its _meta says;
	// so is any request that makes no claim.
	if env.status == envelopeAbsent || (f.method == methodInitialize && env.status != envelopeValid) {
		a.phase = phaseLegacy
		return a.serve(f, eraLegacy)
	}
	switch env.status {
	case envelopeInvalid:
		return decision{verdict: env.invalidError()}
	case envelopeUnsupported:
		return decision{
			verdict:    unsupportedRevision(env.revision, fmt.Sprintf("revision %q is not supported", env.revision), modernRevision),
			diagnostic: fmt.Errorf("refused a request for unsupported protocol revision %q", env.revision),
		}
	}
	if f.method == methodDiscover {
		a.phase = phaseProbing
	} else {
		a.phase = phaseModern
	}
	return a.serve(f, eraModern)
}

// judgeNotification handles a message without an id. Notifications never
// answer, so the only choices are to pass or drop them.
func (a *eraPin) judgeNotification(f frame, env envelope) decision {
	switch a.phase {
	case phaseLegacy:
		return decision{params: withClaim(f, nil)}
	case phaseOpening:
		if env.status == envelopeAbsent {
			a.phase = phaseLegacy
			return decision{params: withClaim(f, nil)}
		}
	}
	switch env.status {
	case envelopeInvalid:
		return decision{drop: true, diagnostic: fmt.Errorf("dropped notification %q: %s", f.method, env.problemText())}
	case envelopeUnsupported:
		return decision{drop: true, diagnostic: fmt.Errorf("dropped notification %q for unsupported protocol revision %q", f.method, env.revision)}
	case envelopeValid:
		return decision{params: withClaim(f, modernClaim), modern: true}
	}
	return decision{params: withClaim(f, nil)}
}

// serve accepts a request under e: methods outside the era's set are
// refused, tools/call and initialize get their shape checked (the SDK
// would answer those defects with the wrong codes before any middleware
// runs), and the params are brought into the form the SDK needs to treat
// the request as e.
func (a *eraPin) serve(f frame, e era) decision {
	if !served[e][f.method] {
		return decision{verdict: methodNotFound(f.method)}
	}
	switch f.method {
	case methodToolsCall:
		if problem := checkToolsCall(f.params); problem != "" {
			return decision{verdict: &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid tools/call request: " + problem}}
		}
	case methodInitialize:
		if problem := checkInitialize(f.params); problem != "" {
			return decision{verdict: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "invalid initialize request: " + problem}}
		}
	}
	d := decision{params: withClaim(f, nil)}
	if e == eraModern {
		d = decision{params: withClaim(f, modernClaim), modern: true}
	}
	if d.params == nil {
		d.params = json.RawMessage("{}")
	}
	return d
}

// methodNotFound is the -32601 refusal of method, in the words go-sdk's
// JSON-RPC layer gives the methods it does not know, so that every
// "method not found" reads the same whoever answers it.
func methodNotFound(method string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method not found: %q", method)}
}

// checkToolsCall checks the request shape every tools/call must have:
// params with a string name and, when given, an object of arguments.
func checkToolsCall(params map[string]json.RawMessage) string {
	if params == nil {
		return "params are missing"
	}
	name, ok := params["name"]
	if !ok {
		return "params.name is missing"
	}
	if t := jsonType(name); t != "string" {
		return "params.name must be a string, not " + article(t)
	}
	if args, ok := params["arguments"]; ok {
		if t := jsonType(args); t != "object" {
			return "params.arguments must be an object, not " + article(t)
		}
	}
	return ""
}

// checkInitialize checks the handshake params the reference requires.
func checkInitialize(params map[string]json.RawMessage) string {
	if params == nil {
		return "params are missing"
	}
	if t := jsonType(params["protocolVersion"]); t != "string" {
		return "params.protocolVersion must be a string, not " + article(t)
	}
	if t := jsonType(params["capabilities"]); t != "object" {
		return "params.capabilities must be an object, not " + article(t)
	}
	info := params["clientInfo"]
	if t := jsonType(info); t != "object" {
		return "params.clientInfo must be an object, not " + article(t)
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(info, &fields)
	for _, key := range []string{"name", "version"} {
		if t := jsonType(fields[key]); t != "string" {
			return "params.clientInfo." + key + " must be a string, not " + article(t)
		}
	}
	return ""
}

// envelopeStatus is the verdict on a message's _meta envelope.
type envelopeStatus int

const (
	// envelopeAbsent: no protocolVersion claim in _meta.
	envelopeAbsent envelopeStatus = iota
	envelopeInvalid
	envelopeUnsupported
	envelopeValid
)

// envelope is what checkEnvelope found.
type envelope struct {
	status envelopeStatus
	// revision is the claim when it is a string (claimed), whatever else
	// is wrong with the envelope.
	revision string
	claimed  bool
	// key and problem describe an invalid envelope.
	key, problem string
}

// checkEnvelope judges the 2026-07-28 envelope in meta, the members of a
// message's params._meta. A message makes a claim as soon as _meta names
// a protocol version; the claim then needs a string revision and a
// client-capabilities object, and any client info must be a name and
// version.
func checkEnvelope(meta map[string]json.RawMessage) envelope {
	rawVersion, claimed := meta[sdk.MetaKeyProtocolVersion]
	if !claimed {
		return envelope{status: envelopeAbsent}
	}
	if t := jsonType(rawVersion); t != "string" {
		return envelope{status: envelopeInvalid, key: sdk.MetaKeyProtocolVersion, problem: "must be a string, not " + article(t)}
	}
	e := envelope{status: envelopeInvalid, claimed: true}
	_ = json.Unmarshal(rawVersion, &e.revision)
	caps, ok := meta[sdk.MetaKeyClientCapabilities]
	if !ok {
		e.key, e.problem = sdk.MetaKeyClientCapabilities, "is missing"
		return e
	}
	if t := jsonType(caps); t != "object" {
		e.key, e.problem = sdk.MetaKeyClientCapabilities, "must be an object, not "+article(t)
		return e
	}
	if info, ok := meta[sdk.MetaKeyClientInfo]; ok {
		var fields map[string]json.RawMessage
		if jsonType(info) != "object" || json.Unmarshal(info, &fields) != nil ||
			jsonType(fields["name"]) != "string" || jsonType(fields["version"]) != "string" {
			e.key, e.problem = sdk.MetaKeyClientInfo, "must be an object with a string name and version"
			return e
		}
	}
	e.status = envelopeValid
	if e.revision != modernRevision {
		e.status = envelopeUnsupported
	}
	return e
}

// problemText words an invalid envelope for messages.
func (e envelope) problemText() string {
	return "the _meta envelope is invalid: " + e.key + " " + e.problem
}

// invalidError is the JSON-RPC error for an invalid envelope.
func (e envelope) invalidError() *jsonrpc.Error {
	data, _ := json.Marshal(map[string]any{"envelope": map[string]string{"key": e.key, "problem": e.problem}})
	return &jsonrpc.Error{
		Code:    jsonrpc.CodeInvalidParams,
		Message: "invalid request for revision " + modernRevision + ": " + e.problemText(),
		Data:    data,
	}
}

// unsupportedRevision is the -32022 error naming what was asked for and
// what is on offer: the modern revision where an envelope or a connection
// asked, every revision for an HTTP header.
func unsupportedRevision(requested, message string, supported ...string) *jsonrpc.Error {
	data, _ := json.Marshal(sdk.UnsupportedProtocolVersionData{Supported: supported, Requested: requested})
	return &jsonrpc.Error{
		Code:    sdk.CodeUnsupportedProtocolVersion,
		Message: message + "; supported: " + strings.Join(supported, ", "),
		Data:    data,
	}
}

// modernClaim is the protocol-version claim a modern message reaches the
// SDK with.
var modernClaim = json.RawMessage(`"` + modernRevision + `"`)

// withClaim is the params the SDK is given for f: those f was sent with,
// the protocol-version claim of their _meta set to claim, or removed when
// claim is nil. On a legacy connection the reference ignores envelopes,
// while the SDK would switch a claiming request to the modern rules; a
// pinned modern connection serves any well-formed envelope, while the SDK
// would treat an older claim as a legacy request and refuse a newer one.
//
// The params are encoded again, from the members parseFrame decoded, only
// when the claim changes or a member name is repeated: the SDK's decoder
// merges the objects of a repeated member (_meta, capabilities) where
// ours keeps the last, and it must read what the era rules read. (Within
// an object it too keeps the last.) Otherwise it gets the bytes as sent,
// and decodes them once.
func withClaim(f frame, claim json.RawMessage) json.RawMessage {
	old, claimed := f.meta[sdk.MetaKeyProtocolVersion]
	unchanged := f.meta == nil || (claimed == (claim != nil) && bytes.Equal(old, claim))
	if unchanged && members(f.rawParams) == len(f.params) {
		return f.rawParams
	}
	params := maps.Clone(f.params)
	if f.meta != nil {
		meta := maps.Clone(f.meta)
		delete(meta, sdk.MetaKeyProtocolVersion)
		if claim != nil {
			meta[sdk.MetaKeyProtocolVersion] = claim
		}
		params["_meta"], _ = json.Marshal(meta) // the members of valid JSON encode
	}
	encoded, _ := json.Marshal(params)
	return encoded
}

// stringField returns params[key] when it is a JSON string, else "".
func stringField(params map[string]json.RawMessage, key string) string {
	var s string
	if raw, ok := params[key]; ok && jsonType(raw) == "string" {
		_ = json.Unmarshal(raw, &s)
	}
	return s
}

// article prefixes a JSON type name for messages ("a string", "an array").
func article(t string) string {
	switch t {
	case "undefined":
		return "missing"
	case "array", "object":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

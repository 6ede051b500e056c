package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolCallResult is the wire shape of a tools/call answer. The SDK's
// CallToolResult decides resultType from session state that a discover
// probe can leave behind, so the answer is rebuilt here, where the era of
// the request is known: the modern era adds resultType (and the SDK then
// adds serverInfo to _meta), the legacy era adds nothing.
type toolCallResult struct {
	sdk.ResultBase
	Content           []sdk.Content `json:"content"`
	StructuredContent any           `json:"structuredContent,omitempty"`
	IsError           bool          `json:"isError,omitempty"`
	ResultType        string        `json:"resultType,omitempty"`
}

// legacyToolsResult is the legacy tools/list answer. The SDK's
// ListToolsResult always carries the cache hints, which belong to the
// modern era only.
type legacyToolsResult struct {
	sdk.ResultBase
	Tools []*sdk.Tool `json:"tools"`
}

// middleware is the receiving middleware that gives every request the
// answer its era calls for. It runs outside every SDK handler (and the
// SDK's own middleware) and never lets a panic escape: the SDK does not
// recover, and a panic in a handler goroutine would end the process.
func (s *engine) middleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (res sdk.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("internal error while handling %s: %v", method, p)}
			}
		}()
		if s.roots != nil {
			s.roots.note(method, req)
		}
		if strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		// Methods outside the era never get here (eraPin.serve refused them).
		e := eraOf(req)
		switch method {
		case methodInitialize:
			return s.initialize(req)
		case methodToolsList:
			return s.listTools(ctx, method, req, e, next)
		case methodToolsCall:
			return s.callTool(ctx, method, req, e, next)
		}
		return next(ctx, method, req)
	}
}

// eraOf is the era the pin served req under, read from the request
// itself: the pin leaves a protocol-version claim in _meta only on a
// modern request (pinned to 2026-07-28) and strips it from a legacy one,
// so nothing needs to travel beside the message.
func eraOf(req sdk.Request) era {
	if p := req.GetParams(); p != nil {
		if _, claimed := p.GetMeta()[sdk.MetaKeyProtocolVersion]; claimed {
			return eraModern
		}
	}
	return eraLegacy
}

// initialize answers the legacy handshake. The SDK's own handler refuses
// a second initialize and cannot answer 2024-10-07, and the contract
// wants both; there is no per-connection state to set up, so every
// initialize is answered the same way.
func (s *engine) initialize(req sdk.Request) (sdk.Result, error) {
	params, _ := req.GetParams().(*sdk.InitializeParams)
	requested := ""
	if params != nil {
		requested = params.ProtocolVersion
	}
	return &sdk.InitializeResult{
		ProtocolVersion: negotiateLegacy(requested),
		Capabilities:    capabilities(),
		ServerInfo:      s.impl,
	}, nil
}

// listTools serves tools/list. The list is fixed for the process, so a
// cursor (which the SDK would try to decode) is ignored.
func (s *engine) listTools(ctx context.Context, method string, req sdk.Request, e era, next sdk.MethodHandler) (sdk.Result, error) {
	if params, ok := req.GetParams().(*sdk.ListToolsParams); ok && params != nil {
		params.Cursor = ""
	}
	res, err := next(ctx, method, req)
	if err != nil || e == eraModern {
		return res, err
	}
	list, ok := res.(*sdk.ListToolsResult)
	if !ok {
		return nil, fmt.Errorf("tools/list: unexpected result type %T", res)
	}
	return &legacyToolsResult{Tools: list.Tools}, nil
}

// callTool serves tools/call through the SDK (which finds the tool or
// answers -32602 for an unknown name) and rebuilds the answer for the era.
func (s *engine) callTool(ctx context.Context, method string, req sdk.Request, e era, next sdk.MethodHandler) (sdk.Result, error) {
	res, err := next(ctx, method, req)
	if err != nil {
		return nil, err
	}
	call, ok := res.(*sdk.CallToolResult)
	if !ok {
		return nil, fmt.Errorf("tools/call: unexpected result type %T", res)
	}
	out := &toolCallResult{Content: call.Content, IsError: call.IsError}
	if !call.IsError {
		out.StructuredContent = call.StructuredContent
	}
	if e == eraModern {
		out.ResultType = "complete"
	}
	return out, nil
}

// capabilities is what this server offers: tools, and a list that could
// change (it never does; the reference advertises it all the same).
func capabilities() *sdk.ServerCapabilities {
	return &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}}
}

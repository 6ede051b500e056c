package mcphttp

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// StreamableOptions are the options of go-sdk's streamable HTTP handler
// (sdk.NewStreamableHTTPHandler) for a Corpus.Handler behind the front:
//
//   - Stateless: no session ids; any replica answers any request, and a
//     2025-era request needs no initialize first.
//   - JSONResponse: one JSON answer per POST, no event stream.
//   - PropagateRequestCancellation: a 2026-era call whose client has gone
//     away stops instead of reading a corpus for nobody.
//   - DisableLocalhostProtection: the front already refuses a Host that a
//     loopback connection must not carry (and, with AllowedHosts, on
//     other connections too), before the token is checked and the body
//     read; the rule lives in one place.
//
// The SDK's own body limit (4 MiB) stays: the front's smaller one applies
// first.
func StreamableOptions() *sdk.StreamableHTTPOptions {
	return &sdk.StreamableHTTPOptions{
		Stateless:                    true,
		JSONResponse:                 true,
		PropagateRequestCancellation: true,
		DisableLocalhostProtection:   true,
	}
}

// Package mcp serves the decision tools of a ToolService (app.Service,
// built and handed over by the composition root, cmd/internal/entry) over
// the Model Context Protocol: on a byte stream pair (New: stdin/stdout in
// the binaries), in both protocol eras on one connection, the initialize
// handshake revisions (2024-10-07 to 2025-11-25) and revision 2026-07-28
// with its per-request _meta envelope; and over streamable HTTP, one
// service per HTTPHandler (NewHTTP), both eras per request. Both build the
// same engine (newEngine: go-sdk's server, the tool table's tools, the
// middleware), so a request gets the same answer bytes over either. It
// reads no corpus and imports no other adapter.
//
// go-sdk is the protocol engine (ADR 0003): it decodes, dispatches, runs
// the tools (registered with the low-level Server.AddTool, so arguments
// reach app untouched and are validated there) and encodes. Where it
// differs from the contract, this package corrects it around the SDK:
//
//   - stdioConn frames one JSON message per line (one trailing
//     carriage return removed; a final line without its newline ends at
//     end of input). A blank line is nothing; any other line that is not
//     a JSON-RPC 2.0 message (not JSON, no "jsonrpc":"2.0", a batch,
//     params that are not an object, …) gets no answer and one
//     diagnostic, and serving goes on. A line over MaxLineBytes is
//     discarded as it streams in, with one diagnostic. At end of input
//     every request already read is answered; a cancelled one is not.
//   - The era pin (era.go), in arrival order, fixes a connection's era
//     from its opening messages (ADR 0031) and refuses what the era does
//     not serve; the transport answers its refusals itself. A served
//     request reaches the SDK with its _meta rewritten for its era (the
//     claim stripped on the legacy era, pinned to 2026-07-28 on the
//     modern one), which is all the middleware needs to know its era.
//     Its params are decoded once, by parseFrame; the SDK gets them as
//     sent unless that rewrite changes them (withClaim).
//   - The receiving middleware answers initialize itself, shapes
//     tools/list and tools/call answers for the era, ignores tools/list
//     cursors, and turns a panic into an error answer.
//
// Failures no request can be told about go to Options.OnError; the
// binaries print them as "<program>: transport error: …" and end with
// status 1.
package mcp

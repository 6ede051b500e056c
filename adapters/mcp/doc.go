// Package mcp serves the decision tools over the Model Context Protocol on
// a byte stream pair (stdin/stdout in the adrkit-mcp binary), in both
// protocol eras on one connection: the initialize handshake revisions
// (2024-10-07 to 2025-11-25) and revision 2026-07-28 with its per-request
// _meta envelope; and over streamable HTTP, one corpus per HTTPHandler,
// both eras per request (see HTTPHandler).
//
// The ways in are New, which returns a sealed *Server with Serve and
// Close, and NewHTTP, which returns an http.Handler; the SDK server, its
// registrations and the transports are not reachable through them. Both
// build the same engine (newEngine), so a request gets the same answer
// bytes over either transport.
//
// # Engine and what surrounds it
//
// The MCP Go SDK (github.com/modelcontextprotocol/go-sdk) is the protocol
// engine: it decodes requests, dispatches them, runs the tools (the four
// of the contract, plus get_supersession_chain and list_decision_changes
// when Options.ExtendedTools opts in to the extended surface; each
// registered with the low-level Server.AddTool, so the arguments reach
// the application untouched and are validated there) and encodes every
// answer. Where the SDK's behaviour differs from the contract, this
// package corrects it around the SDK, never inside it:
//
//   - stdioTransport, our own transport, does the framing: one JSON
//     message per line, one trailing carriage return removed. A line that
//     is not JSON (an empty one included) is skipped without a word; JSON
//     that is not a JSON-RPC 2.0 message (no "jsonrpc":"2.0", an id with
//     neither method nor result nor error, a batch, params that are not an
//     object, …) gets no answer and one diagnostic, and serving goes on.
//     A final line without its newline is never processed. A line longer
//     than MaxLineBytes (16 MiB) is discarded as it streams in, without
//     being held whole, with one diagnostic.
//   - At end of input every request already read is answered before the
//     connection ends (the SDK would refuse to write them); a request the
//     client cancelled with notifications/cancelled gets no answer at all.
//     Requests are handled concurrently, so answers may come out of order.
//   - Era pinning, in the transport and in arrival order, fixes the era of
//     the connection from its opening messages: an initialize without a
//     valid envelope, or any message without an envelope claim, pins the
//     legacy era; a request with a valid 2026-07-28 envelope pins the
//     modern era, except server/discover, which only probes (a following
//     initialize still falls back to the legacy era). An invalid envelope
//     (-32602) or an unsupported revision (-32022, with a diagnostic) while
//     opening pins nothing. On a legacy connection envelopes are ignored;
//     on a modern one every request needs one (-32602), and a late legacy
//     initialize is refused with -32022 and a diagnostic. The era pin also
//     refuses the methods an era does not serve (-32601) and malformed
//     tools/call (-32602) and initialize (-32603) params, which the SDK
//     would answer with other codes before any middleware could.
//   - The receiving middleware answers initialize itself (the SDK refuses a
//     second one and does not know 2024-10-07), shapes tools/list and
//     tools/call answers for the era (no resultType, cache hints or _meta
//     on legacy answers; resultType and serverInfo on modern ones, cache
//     hints on modern lists only), ignores tools/list cursors, and turns a
//     panic into an error answer instead of a crash.
//
// Failures that no request can be told about go to Options.OnError; the
// binary prints them as "adrkit-mcp: transport error: …" and ends with
// status 1.
package mcp

// Package mcphttp serves the MCP tools over streamable HTTP to a team:
// one process, one or many repositories, bearer tokens, and the limits and
// logs a shared endpoint needs. It holds the HTTP front and not the
// protocol: each corpus's MCP handler is given to it (adapters/mcp's
// HTTPHandler, go-sdk's streamable HTTP handler, stateless, on the engine
// the stdio server uses), and so is each corpus's readiness check.
//
// # Pieces
//
//   - LoadConfig reads the --config file (YAML, strict): corpora
//     {name, cwd, dir, rev} and scoped tokens {sha256, corpora}.
//   - LoadTokens reads the --token-file (one token, or "sha256:" and a
//     digest, per line; "#" comments) and merges the config's tokens;
//     Tokens.Reload reads the file again (on SIGHUP, in the cmd).
//   - LoadSetup does both for the cmd: the config's corpora (or the one
//     corpus of --cwd, --dir and --rev) and the tokens, nil when none is
//     configured (a config file must then say auth: none).
//   - New builds the Front, the http.Handler: /mcp for the only corpus or
//     /mcp/<name> for named ones, /healthz and /readyz.
//   - Listen opens the port with the server's timeouts and connection
//     accounting (connections that have sent no request apart, the
//     silent ones shed first and, on Linux, held back by the kernel),
//     refusing before it binds a non-loopback address when no token is
//     required (*ExposureError); Server.Run serves, reloads the tokens
//     beside its loop (SIGHUP) and shuts down (SIGTERM: the listener
//     first, then the calls in flight, and a kept-alive connection gets a
//     moment for a request on its way), and Server.Serve and
//     Server.Shutdown are its parts.
//
// # What every MCP request goes through
//
// In this order, so that a request to be refused costs as little as
// possible and no body is read for a caller who is not let in:
//
//  1. Host: on a connection accepted at a loopback address only loopback
//     names (or Options.AllowedHosts) are answered, which defeats DNS
//     rebinding; elsewhere any Host, or only AllowedHosts when listed.
//     403.
//  2. Origin: a cross-origin browser request (Sec-Fetch-Site, or an
//     Origin naming another host) is refused unless its origin is in
//     Options.AllowedOrigins (net/http's CrossOriginProtection). 403.
//  3. Token, when tokens are configured: 401 with a Bearer challenge for
//     none or an unknown one, 403 (insufficient_scope) for one that does
//     not reach the corpus, whether or not the corpus exists.
//  4. Corpus: 404 for an unknown name.
//  5. Body: one of Options.MaxBodies slots (64, shared per corpus and
//     token as the places are), else 503 at once and the connection
//     closed; then at most Options.MaxBodyBytes (1 MiB), else 413; what
//     was sent beyond is read and discarded up to Options.DrainBytes so
//     that the connection stays usable. It is read before a place is
//     taken, so a slow sender holds only its connection and its slot, and
//     bodies hold at most MaxBodies × MaxBodyBytes. A request refused
//     before its body is read is given a moment for the rest, no more.
//  6. A place in flight: at most Options.MaxInFlight requests are served
//     at once, and when several corpora are served (or several tokens
//     known) none of them holds more than three quarters of the places; a request waits up to
//     Options.InFlightWait for a place, then gets 503 with Retry-After.
//
// Then the corpus's handler gets the body unchanged, decodes it, and tells
// the front what it dispatches (adapters/mcp's DispatchNoter): the access
// log's method and tool, and whether the request is a
// subscriptions/listen stream, which gives its place back for one of
// Options.MaxStreams and ends after Options.StreamLife. Each request gets
// one JSON record (log/slog) with method, tool, corpus, status and
// duration, none of them text the client chose ("other" instead): never a
// header, a token, an argument or an address.
package mcphttp

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
//     configured.
//   - New builds the Front, the http.Handler: /mcp for the only corpus or
//     /mcp/<name> for named ones, /healthz and /readyz.
//   - Listen opens the port with the server's timeouts, refusing a
//     non-loopback address when no token is required (*ExposureError);
//     Server.Serve and Server.Shutdown run and stop it (SIGTERM, in the
//     cmd).
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
//  5. A place in flight: at most Options.MaxInFlight requests are served
//     at once; a request waits up to Options.InFlightWait for a place,
//     then gets 503 with Retry-After.
//  6. Body: at most Options.MaxBodyBytes (1 MiB), else 413; what was sent
//     beyond is read and discarded up to Options.DrainBytes so that the
//     connection stays usable.
//
// Then the access log learns the JSON-RPC method and tool from the body
// (one decode that skips the arguments) and the corpus's handler gets the
// body unchanged. Each request gets one JSON record (log/slog) with
// method, tool, corpus, status and duration: never a header, a token, an
// argument or an address.
package mcphttp

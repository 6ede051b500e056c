// Package entry is the composition root of both binaries, adrkit and
// adrkit-mcp, and what they do the same way before and around their work:
// the corpus options (--cwd, --dir, --rev and their variables), finding
// the repository root and the ADR directory when no option names them
// (Locate, once per run), choosing what reads the corpus there (the
// working tree or a git revision), building the clock and the app.Service
// over it (Location.Service, Location.Open) and handing that service to
// the driving adapters: the MCP server over stdio (Serve; `adrkit mcp` and
// adrkit-mcp are one entry under two names) and, in cmd/adrkit-mcp, the
// HTTP front. It also holds the one wording of a corpus that cannot be
// read, of a command-line parse failure, and the collector policy of a
// serving process.
//
// No adapter builds another adapter: the protocol is adapters/mcp's, the
// readers adapters/filesystem's and adapters/gitrev's, the search for
// .git and .adr-dir adapters/workspace's, and they meet here.
package entry

// Package entry is what both binaries, adrkit and adrkit-mcp, do the same
// way before and around their work: the corpus options (--cwd, --dir,
// --rev and their ADRKIT_MCP_* variables), finding the repository root
// and the ADR directory when no option names them, the one wording of a
// corpus that cannot be read, the one wording of a command-line parse
// failure, the collector policy of a serving process, and the MCP server
// over stdio (its options, serving, exit status and start-up words), so
// that `adrkit mcp` and adrkit-mcp are one entry under two names.
//
// It holds flags and wiring only: the protocol is adapters/mcp's, the
// corpus source adapters/source's, the search for .git and .adr-dir
// adapters/workspace's.
package entry

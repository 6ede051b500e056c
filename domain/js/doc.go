// Package js gathers the code that reproduces JavaScript behaviour. The
// reference implementation is a JavaScript program and the contract is
// written in its semantics: lengths in UTF-16 code units, the bytes of
// JSON.stringify, and what picomatch, node-semver, yaml@2.9.0 and
// `new URL` accept. Where Go's standard library answers otherwise, a
// subpackage answers as JavaScript does, behind a few narrow functions:
//
//   - jsstring: UTF-16 length, order and truncation, JavaScript
//     whitespace, WHATWG UTF-8 decoding and the search normalisation (Len,
//     Compare, Truncate, TrimSpace, DecodeUTF8, Normalize).
//   - jsvalue: JSON-like values with insertion-ordered objects, written as
//     JSON.stringify writes them (AppendJSON) or canonically
//     (AppendCanonical).
//   - yaml12: one YAML 1.2 Core-schema document read as yaml@2.9.0 reads
//     it, into jsvalue values with line positions (Parse, ParseValue); a
//     fast path held to the yaml.v3 one (ADR 0013) and the YAML 1.1 object
//     tags refused (ADR 0030).
//   - glob: the path-matcher dialect of picomatch 4.0.5, translated to
//     picomatch's regex and run by our own JavaScript regex engine, linear
//     on hostile patterns (Compile, Glob.Match; ADR 0029).
//   - semver: node-semver 7.8.5's range validity (ValidRange).
//   - whatwgurl: whether `new URL(s)` accepts s (CanParse).
//
// Each is held to the JavaScript it reproduces by recorded answers (the
// testdata of glob and yaml12, the tables of semver and whatwgurl) and,
// for glob and semver, by differential runs against node itself
// (internal/oracletest). ADR 0041 measured the Go libraries that could
// replace them on those answers; none gives them all, so the code is ours.
// Nothing imports this package: it is where the reason is written down.
package js

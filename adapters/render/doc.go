// Package render lays out what the adrkit command prints: the corpus overview,
// human tables for the decision tools' whole answers (supersession
// chains and the change feed included), lint reports
// (text, JSON, SARIF, GitHub workflow commands), relation graphs
// (Mermaid, DOT) and the diagnostics for an unusable corpus.
//
// It decides nothing about decisions: the app package answers, and this
// package only lays answers out. Every renderer writes in a fixed order
// (never a map's), reads no clock, and shows repository-relative paths
// only. Colour is an explicit Style, so output piped to a file or another
// program is plain text unless the caller asked otherwise.
package render

package adr

import (
	"slices"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// Severity grades a finding.
type Severity string

// The three severities.
const (
	SeverityError Severity = "error"
	SeverityWarn  Severity = "warn"
	SeverityInfo  Severity = "info"
)

// Finding is one validation or resolution result about the corpus. Rule,
// severity, path, id, field and pattern are the contract; Message is our
// own wording and must never hold an absolute path.
//
// An empty optional member is absent on the wire. (A record whose YAML id
// is the empty string therefore reports no id; the reference would send
// "id":"". The id is invalid either way.)
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Path     string   `json:"path,omitempty"`
	ID       string   `json:"id,omitempty"`
	Field    string   `json:"field,omitempty"`
	Pattern  string   `json:"pattern,omitempty"`
	// Line is the 1-based line in the source file the finding points at,
	// or 0 when unknown. It is for human reports (lint, SARIF) only: it is
	// not part of the wire shape or the fingerprint.
	Line int `json:"-"`
}

// CompareFindings is the canonical finding order: by rule, id, pattern,
// path, field, then message, each in UTF-16 code-unit order, an absent
// member comparing as "".
func CompareFindings(a, b Finding) int {
	if c := jsstring.Compare(a.Rule, b.Rule); c != 0 {
		return c
	}
	if c := jsstring.Compare(a.ID, b.ID); c != 0 {
		return c
	}
	if c := jsstring.Compare(a.Pattern, b.Pattern); c != 0 {
		return c
	}
	if c := jsstring.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	if c := jsstring.Compare(a.Field, b.Field); c != 0 {
		return c
	}
	return jsstring.Compare(a.Message, b.Message)
}

// CompareRecords is the canonical record order: id, then source path,
// both in code-unit order (ids are strings: "0031" < "12345" < "9999").
func CompareRecords(a, b *Record) int {
	if c := jsstring.Compare(a.Frontmatter.ID, b.Frontmatter.ID); c != 0 {
		return c
	}
	return jsstring.Compare(a.SourcePath, b.SourcePath)
}

// SortFindings sorts fs into canonical order; the sort is stable.
func SortFindings(fs []Finding) { slices.SortStableFunc(fs, CompareFindings) }

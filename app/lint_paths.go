package app

import (
	"slices"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// Knows reports whether lint saw the file at path (repository-relative,
// as SourcePath and Finding.Path are): a record it read, or a file it
// reported.
func (r *LintReport) Knows(path string) bool {
	for _, s := range r.Records {
		if string(s.SourcePath) == path {
			return true
		}
	}
	for _, f := range r.Findings {
		if f.Path == path {
			return true
		}
	}
	return false
}

// Only is the report limited to the files at paths: their findings,
// every other member unchanged (the corpus was read whole, since
// cross-record findings such as dangling references need all of it).
func (r *LintReport) Only(paths []string) *LintReport {
	out := *r
	out.Findings = []adr.Finding{}
	for _, f := range r.Findings {
		if slices.Contains(paths, f.Path) {
			out.Findings = append(out.Findings, f)
		}
	}
	return &out
}

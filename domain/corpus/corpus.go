// Package corpus projects a set of candidate files into records, findings,
// counts and a fingerprint: the single view every answer is built from.
package corpus

import "github.com/adrkit/adrkit-go/domain/adr"

// MaxRecordBytes is the size cap of a record file.
const MaxRecordBytes = 64 * 1024

// Exclusion says why a candidate was dropped before it could be parsed.
type Exclusion int

// Pre-parse exclusions.
const (
	NotExcluded       Exclusion = iota
	ExcludedTooLarge            // record-too-large
	ExcludedStatError           // record-stat-error
	ExcludedReadError           // file-read
)

// Candidate is one discovered record file and what reading it gave.
type Candidate struct {
	Path      string // display path
	Content   []byte // the bytes, when not excluded
	Exclusion Exclusion
	// Cause describes a read error in our own words (no absolute path).
	Cause string
}

// Projection is the corpus as one call sees it.
type Projection struct {
	// Records are the valid records in canonical (id, sourcePath) order.
	Records []*adr.Record
	// ByID maps an id to every record holding it, in canonical order.
	ByID map[string][]*adr.Record
	// Findings are the corpus findings in canonical order.
	Findings      []adr.Finding
	RecordCount   int
	ExcludedCount int
	// Fingerprint is the lower-case hex SHA-256 of the canonical projection.
	Fingerprint string
}

// IsCandidateName reports whether a top-level regular file named name is a
// record candidate: NNNN-*.md (four or more digits), not 0000-template.md.
func IsCandidateName(name string) bool {
	panic("corpus.IsCandidateName: not implemented yet")
}

// ParseFunc turns one candidate's bytes into a record or findings. The
// default is frontmatter.ParseRecord over WHATWG-decoded text; callers may
// supply a memoising one.
type ParseFunc func(path string, content []byte) (*adr.Record, []adr.Finding)

// Build projects the candidates. A nil parse uses the default.
func Build(cands []Candidate, parse ParseFunc) *Projection {
	panic("corpus.Build: not implemented yet")
}

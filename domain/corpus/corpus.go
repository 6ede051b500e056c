// Package corpus projects a set of candidate files into records, findings,
// counts and a fingerprint: the single view every answer is built from.
package corpus

import (
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

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
//
// It is the reference's regular expression ^[0-9]{4,}-.+\.md$ written out:
// the run of leading digits is greedy and a digit can never be the dash,
// so no backtracking is needed; "." matches anything but a line
// terminator (\n, \r, U+2028, U+2029), and the template name is excluded
// by exact, case-sensitive comparison.
func IsCandidateName(name string) bool {
	if name == templateName {
		return false
	}
	i := 0
	for i < len(name) && name[i] >= '0' && name[i] <= '9' {
		i++
	}
	if i < 4 || i == len(name) || name[i] != '-' {
		return false
	}
	slug, ok := strings.CutSuffix(name[i+1:], ".md")
	if !ok || slug == "" {
		return false
	}
	// Byte searches: ContainsAny with non-ASCII characters decodes the
	// name rune by rune, which showed in every call's profile. The
	// separators' UTF-8 forms cannot straddle other characters.
	return strings.IndexByte(slug, '\n') < 0 && strings.IndexByte(slug, '\r') < 0 &&
		!strings.Contains(slug, "\u2028") && !strings.Contains(slug, "\u2029")
}

// DefaultDir is the ADR directory, relative to the repository root, that
// is read when nothing names one and nothing else is found: the one
// default of both binaries and of the library.
const DefaultDir = "docs/adr"

// templateName is the one name the pattern admits that is never a record:
// projects keep their ADR template beside the records.
const templateName = "0000-template.md"

// ParseFunc turns one candidate's bytes into a record or findings. The
// default is frontmatter.ParseRecord over WHATWG-decoded text; callers may
// supply a memoising one.
type ParseFunc func(path string, content []byte) (*adr.Record, []adr.Finding)

// Build projects the candidates. A nil parse uses the default.
//
// Exclusions decided before reading become findings without an id or a
// field; every other candidate is parsed in display-path order. The
// invariants then run over the valid records only, the findings are put
// in canonical order and the projection is fingerprinted. Build does not
// modify cands.
func Build(cands []Candidate, parse ParseFunc) *Projection {
	if parse == nil {
		parse = defaultParse
	}
	records := make([]*adr.Record, 0, len(cands))
	var findings []adr.Finding
	for _, i := range candidateOrder(cands) {
		c := &cands[i]
		if c.Exclusion != NotExcluded {
			findings = append(findings, exclusionFinding(c))
			continue
		}
		rec, fs := parse(c.Path, c.Content)
		if rec != nil {
			records = append(records, rec)
		}
		findings = append(findings, fs...)
	}
	slices.SortStableFunc(records, adr.CompareRecords)

	p := &Projection{
		Records:       records,
		ByID:          indexByID(records),
		RecordCount:   len(records),
		ExcludedCount: len(cands) - len(records),
	}
	p.Findings = checkInvariants(records, p.ByID, findings)
	adr.SortFindings(p.Findings)
	p.Fingerprint = fingerprint(p.Records, p.Findings, p.RecordCount, p.ExcludedCount)
	return p
}

// defaultParse is the production pipeline: WHATWG decoding (no BOM
// stripping, no newline normalisation), then the frontmatter pipeline.
func defaultParse(path string, content []byte) (*adr.Record, []adr.Finding) {
	return frontmatter.ParseRecord(path, jsstring.DecodeUTF8(content))
}

// candidateOrder returns the indexes of cands in display-path code-unit
// order. Readers usually list in that order already, so the common case
// costs one pass and one small allocation.
func candidateOrder(cands []Candidate) []int {
	order := make([]int, len(cands))
	sorted := true
	for i := range order {
		order[i] = i
		if i > 0 && jsstring.Compare(cands[i-1].Path, cands[i].Path) > 0 {
			sorted = false
		}
	}
	if !sorted {
		slices.SortStableFunc(order, func(a, b int) int {
			return jsstring.Compare(cands[a].Path, cands[b].Path)
		})
	}
	return order
}

// indexByID buckets records (already in canonical order) by id. Each
// bucket is a capacity-limited window onto records, so the index costs no
// copies and an append by a caller cannot clobber a neighbouring bucket.
func indexByID(records []*adr.Record) map[string][]*adr.Record {
	byID := make(map[string][]*adr.Record, len(records))
	for i := 0; i < len(records); {
		id := records[i].Frontmatter.ID
		j := i + 1
		for j < len(records) && records[j].Frontmatter.ID == id {
			j++
		}
		byID[id] = records[i:j:j]
		i = j
	}
	return byID
}

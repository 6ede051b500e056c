package app

import (
	"context"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// governInput names the files an agent is about to write.
type governInput struct {
	// files are repository-relative and "/"-separated; they need not
	// exist (a file being created is governed by its path).
	files []string
	// markers is what the heads of the files declare (ReadMarkers).
	markers MarkerReport
}

// governance is what covers some files at the moment of an edit: the
// rules of explain and check (affects patterns and @adr markers), read
// from the valid records even when the corpus has errors (unlike
// explain, which withholds its answer then), with the sentence that
// states each decision.
type governance struct {
	// Files are the files asked about, in UTF-16 code-unit order, each
	// with what covers it.
	Files []governedFile
	// Holds are the governing decisions whose line of supersession is on
	// hold, in record order (as check reports them).
	Holds []CheckHold
	// Errors counts the corpus's error findings: the records they are
	// about are not among the valid ones the answer is read from.
	Errors int
}

// governedFile is one file and the decisions that cover it, by bucket.
type governedFile struct {
	Path            string
	Governing       []governEntry
	ActiveProposals []governEntry
	History         []governEntry
}

// covered reports whether any decision covers the file.
func (f governedFile) covered() bool {
	return len(f.Governing)+len(f.ActiveProposals)+len(f.History) > 0
}

// governEntry is a covering record with the sentence that states its
// decision ("" when its body has none that can be found).
type governEntry struct {
	ContextEntry
	Decision string
}

// govern answers, for files about to be written, which decisions of the
// corpus ix indexes cover them: the walk of check (checkFiles,
// checkHolds) over the records the index stands for, so that no rule is
// written twice. It reads nothing; ctx is checked between files, so
// that a cancelled hook stops at once.
func (s *Service) govern(ctx context.Context, ix *governIndex, in governInput) (*governance, error) {
	p, decisions := ix.projection()
	files := slices.Clone(in.files)
	slices.SortFunc(files, jsstring.Compare)
	files = slices.Compact(files)

	// Only path matchers can fire for a file; the findings the others
	// raise (a package range that does not parse...) are lint's, and
	// working them out (semver's expressions) would cost a cold process
	// more than the match. Nor can a path pattern whose leading
	// directories name none of the files: compiling every glob of a
	// corpus is most of what a hook pays once the records are read, and
	// the zero Compiled matches nothing and says nothing, as such a
	// pattern would.
	norm := make([]string, len(files))
	for i, f := range files {
		norm[i] = affects.NormalizePath(f)
	}
	may := map[string]bool{}
	mayMatchAny := func(pattern string) bool {
		ok, seen := may[pattern]
		if !seen {
			ok = mayMatch(pattern, norm)
			may[pattern] = ok
		}
		return ok
	}
	compile := func(typ adr.MatcherType, pattern string) affects.Compiled {
		if typ != adr.MatcherPath || !mayMatchAny(pattern) {
			return affects.Compiled{}
		}
		return s.memo.compile(typ, pattern)
	}
	// Nor can a record with no such pattern cover any file, unless a
	// marker declares it: the walk of each file skips the others (over a
	// large corpus, walking every record for every file was most of
	// what a patch cost). Holds are walked over the whole corpus.
	declared := map[string]bool{}
	for _, d := range in.markers.Declarations() {
		declared[d.ID] = true
	}
	walked := &corpus.Projection{ByID: p.ByID}
	for _, r := range p.Records {
		if declared[r.Frontmatter.ID] || slices.ContainsFunc(r.Frontmatter.Affects, func(m adr.Matcher) bool {
			return !m.Negate && mayMatchAny(m.Pattern)
		}) {
			walked.Records = append(walked.Records, r)
		}
	}
	checked, err := checkFiles(ctx, walked, files, in.markers, compile)
	if err != nil {
		return nil, err
	}
	records := make(map[Text]*adr.Record, len(p.Records))
	for _, r := range p.Records {
		records[Text(r.SourcePath)] = r
	}
	withDecision := func(es []ContextEntry) []governEntry {
		out := make([]governEntry, len(es))
		for i, e := range es {
			out[i] = governEntry{ContextEntry: e}
			if e.Status.Bucket() == adr.BucketGoverning {
				out[i].Decision = decisions[records[e.SourcePath]]
			}
		}
		return out
	}
	g := &governance{Files: make([]governedFile, len(checked)), Holds: checkHolds(p, checked), Errors: ix.Errors}
	for i, f := range checked {
		g.Files[i] = governedFile{
			Path: f.Path, Governing: withDecision(f.Governing),
			ActiveProposals: withDecision(f.ActiveProposals), History: withDecision(f.History),
		}
	}
	return g, nil
}

// mayMatch reports whether path pattern may match one of files
// (normalised, affects.NormalizePath): false only when the pattern
// begins with whole directory segments of plain characters (letters,
// digits, "-", "_", "."; no "." or ".." segment) that no file begins
// with, in a pattern without "|". A glob matches such characters as
// themselves only, and "dir/**" also matches "dir" itself, hence the
// file is compared with a "/" after it. TestMayMatch holds it to the
// reference's recorded patterns.
func mayMatch(pattern string, files []string) bool {
	i := 0
	for i < len(pattern) && plainGlobByte(pattern[i]) {
		i++
	}
	lit := pattern[:strings.LastIndexByte(pattern[:i], '/')+1]
	// A "|" anywhere is an alternation of the whole pattern's regex
	// (the reference's "a/b|c" matches "c").
	if lit == "" || strings.Contains(pattern, "|") {
		return true
	}
	for seg := range strings.SplitSeq(lit[:len(lit)-1], "/") {
		if seg == "" || seg == "." || seg == ".." {
			return true
		}
	}
	for _, f := range files {
		if strings.HasPrefix(f, lit) || len(f)+1 == len(lit) && strings.HasPrefix(lit, f) {
			return true
		}
	}
	return false
}

// plainGlobByte reports whether c stands for itself wherever it is in a
// path glob (domain/js/glob's dialect), "/" included.
func plainGlobByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '/'
}

// governIndex is all govern and digestOf read of a corpus, small
// enough for a hook (a new process per edit) to keep between runs
// instead of parsing every record again: per valid record, in record
// order, what the affects walk, the @adr markers and the chain verdicts
// look at and the sentence that states its decision; and the corpus's
// error count. Every hook answer is read from one (hookindex.go keeps
// it).
type governIndex struct {
	Records []indexRecord
	Errors  int
}

// indexRecord is one valid record as a governIndex keeps it.
type indexRecord struct {
	SourcePath, ID, Title string
	Status                adr.Status
	Supersedes            []string
	SupersededBy          string
	RelatesTo             []string
	ConflictsWith         []string
	// Paths are the path matchers of this log (no repo), in record
	// order: no other matcher can fire for a file.
	Paths []indexMatcher
	// Decision is adr.DecisionSentence of the body.
	Decision string
}

// indexMatcher is a path matcher of an indexRecord.
type indexMatcher struct {
	Pattern string
	Negate  bool
}

// indexOf is the governIndex of a projection.
func indexOf(p *corpus.Projection) *governIndex {
	ix := &governIndex{Records: make([]indexRecord, len(p.Records)), Errors: countErrors(p.Findings)}
	for i, r := range p.Records {
		fm := r.Frontmatter
		ir := indexRecord{
			SourcePath: r.SourcePath, ID: fm.ID, Title: fm.Title, Status: fm.Status,
			Supersedes: fm.Supersedes, SupersededBy: fm.SupersededBy, RelatesTo: fm.RelatesTo, ConflictsWith: fm.ConflictsWith,
			Decision: adr.DecisionSentence(r.Body),
		}
		for _, m := range fm.Affects {
			if m.Type == adr.MatcherPath && m.Repo == "" {
				ir.Paths = append(ir.Paths, indexMatcher{Pattern: m.Pattern, Negate: m.Negate})
			}
		}
		ix.Records[i] = ir
	}
	return ix
}

// projection is the part of a projection the index stands for: records
// holding the index's fields only, in the index's (record) order, and
// the index by id; and each record's decision sentence.
func (ix *governIndex) projection() (*corpus.Projection, map[*adr.Record]string) {
	p := &corpus.Projection{Records: make([]*adr.Record, len(ix.Records)), ByID: make(map[string][]*adr.Record, len(ix.Records))}
	decisions := make(map[*adr.Record]string, len(ix.Records))
	for i, ir := range ix.Records {
		fm := &adr.Frontmatter{
			ID: ir.ID, Title: ir.Title, Status: ir.Status,
			Supersedes: ir.Supersedes, SupersededBy: ir.SupersededBy, RelatesTo: ir.RelatesTo, ConflictsWith: ir.ConflictsWith,
		}
		for _, m := range ir.Paths {
			fm.Affects = append(fm.Affects, adr.Matcher{Type: adr.MatcherPath, Pattern: m.Pattern, Negate: m.Negate})
		}
		r := &adr.Record{SourcePath: ir.SourcePath, Frontmatter: fm}
		p.Records[i] = r
		// Records are in (id, path) order: each id's holders in
		// canonical order, as the projection's ByID has them.
		p.ByID[ir.ID] = append(p.ByID[ir.ID], r)
		decisions[r] = ir.Decision
	}
	p.RecordCount = len(p.Records)
	return p, decisions
}

// digest is a short account of the whole corpus for the start of an
// agent's session.
type digest struct {
	// Counts are the valid records by status, in schema order, statuses
	// with none left out.
	Counts []statusCount
	// Rejected are the rejected decisions, in record order.
	Rejected []indexRecord
	// Records counts the valid records; Errors the error findings.
	Records, Errors int
}

// statusCount is how many valid records have one status.
type statusCount struct {
	Status adr.Status
	Count  int
}

// digestOf counts the valid records of the corpus ix indexes.
func digestOf(ix *governIndex) *digest {
	by := map[adr.Status]int{}
	d := &digest{Records: len(ix.Records), Errors: ix.Errors}
	for _, r := range ix.Records {
		by[r.Status]++
		if r.Status == adr.StatusRejected {
			d.Rejected = append(d.Rejected, r)
		}
	}
	for _, st := range adr.Statuses {
		if by[st] > 0 {
			d.Counts = append(d.Counts, statusCount{Status: st, Count: by[st]})
		}
	}
	return d
}

// countErrors counts the findings of error severity.
func countErrors(fs []adr.Finding) int {
	n := 0
	for _, f := range fs {
		if f.Severity == adr.SeverityError {
			n++
		}
	}
	return n
}

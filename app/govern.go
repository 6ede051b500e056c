package app

import (
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// GovernInput names the files an agent is about to write, for Govern.
type GovernInput struct {
	// Files are repository-relative and "/"-separated; they need not
	// exist (a file being created is governed by its path).
	Files []string
	// Markers is what the heads of the files declare (ReadMarkers).
	Markers MarkerReport
}

// Governance is what covers some files at the moment of an edit: the
// rules of explain and check (affects patterns and @adr markers), read
// from the valid records even when the corpus has errors (unlike
// explain, which withholds its answer then), with the sentence that
// states each decision.
type Governance struct {
	// Files are the files asked about, in UTF-16 code-unit order, each
	// with what covers it.
	Files []GovernedFile
	// Holds are the governing decisions whose line of supersession is on
	// hold, in record order (as check reports them).
	Holds []CheckHold
	// Errors counts the corpus's error findings: the records they are
	// about are not among the valid ones the answer is read from.
	Errors int
}

// GovernedFile is one file and the decisions that cover it, by bucket.
type GovernedFile struct {
	Path            string
	Governing       []GovernEntry
	ActiveProposals []GovernEntry
	History         []GovernEntry
}

// Covered reports whether any decision covers the file.
func (f GovernedFile) Covered() bool {
	return len(f.Governing)+len(f.ActiveProposals)+len(f.History) > 0
}

// GovernEntry is a covering record with the sentence that states its
// decision ("" when its body has none that can be found).
type GovernEntry struct {
	ContextEntry
	Decision string
}

// Govern answers, for files about to be written, which decisions cover
// them. It reads the projection only (not lint's extra checks), so that
// it costs one read of the corpus. An unusable corpus is an
// *ports.UnavailableError (wrapped).
func (s *Service) Govern(ctx context.Context, in GovernInput) (*Governance, error) {
	p, err := s.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.governOver(p, countErrors(p.Findings), func(r *adr.Record) string { return adr.DecisionSentence(r.Body) }, in), nil
}

// governOver is Govern over a projection p with errs error findings,
// decision giving the sentence that states a record's decision.
func (s *Service) governOver(p *corpus.Projection, errs int, decision func(*adr.Record) string, in GovernInput) *Governance {
	files := slices.Clone(in.Files)
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
	compile := func(typ adr.MatcherType, pattern string) affects.Compiled {
		if typ != adr.MatcherPath || !mayMatch(pattern, norm) {
			return affects.Compiled{}
		}
		return s.memo.compile(typ, pattern)
	}
	checked := checkFiles(p, files, in.Markers, compile)
	records := make(map[Text]*adr.Record, len(p.Records))
	for _, r := range p.Records {
		records[Text(r.SourcePath)] = r
	}
	withDecision := func(es []ContextEntry) []GovernEntry {
		out := make([]GovernEntry, len(es))
		for i, e := range es {
			out[i] = GovernEntry{ContextEntry: e}
			if e.Status.Bucket() == adr.BucketGoverning {
				out[i].Decision = decision(records[e.SourcePath])
			}
		}
		return out
	}
	g := &Governance{Files: make([]GovernedFile, len(checked)), Holds: checkHolds(p, checked), Errors: errs}
	for i, f := range checked {
		g.Files[i] = GovernedFile{
			Path: f.Path, Governing: withDecision(f.Governing),
			ActiveProposals: withDecision(f.ActiveProposals), History: withDecision(f.History),
		}
	}
	return g
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
		if strings.HasPrefix(f, lit) || f+"/" == lit {
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

// GovernIndex is all Govern and Digest read of a corpus, small enough
// for a hook (a new process per edit) to keep between runs instead of
// parsing every record again: per valid record, in record order, what
// the affects walk, the @adr markers and the chain verdicts look at and
// the sentence that states its decision; and the corpus's error count.
// GovernFrom over an index answers as Govern over the projection it was
// made from, byte for byte.
type GovernIndex struct {
	Records []IndexRecord
	Errors  int
}

// IndexRecord is one valid record as a GovernIndex keeps it.
type IndexRecord struct {
	SourcePath, ID, Title string
	Status                adr.Status
	Supersedes            []string
	SupersededBy          string
	RelatesTo             []string
	ConflictsWith         []string
	// Paths are the path matchers of this log (no repo), in record
	// order: no other matcher can fire for a file.
	Paths []IndexMatcher
	// Decision is adr.DecisionSentence of the body.
	Decision string
}

// IndexMatcher is a path matcher of an IndexRecord.
type IndexMatcher struct {
	Pattern string
	Negate  bool
}

// ReadFile is a record file as the read pipeline read it: its display
// path and the SHA-256 of its bytes, or why it was left out (then Sum is
// zero).
type ReadFile struct {
	Path      string
	Sum       Sum
	Exclusion corpus.Exclusion
}

// IndexCorpus reads the corpus once, as Govern does, and returns its
// GovernIndex with the files the index was made from (so that a caller
// that hashed the directory itself can tell whether the index is that of
// the bytes it hashed). An unusable corpus is an
// *ports.UnavailableError (wrapped).
func (s *Service) IndexCorpus(ctx context.Context) (*GovernIndex, []ReadFile, error) {
	ld, err := s.load(ctx, false)
	if err != nil {
		return nil, nil, err
	}
	read := make([]ReadFile, len(ld.files))
	for i, f := range ld.files {
		read[i] = ReadFile{Path: f.Path, Sum: f.sum, Exclusion: f.Exclusion}
	}
	return IndexOf(ld.proj), read, nil
}

// Snapshot lists the corpus and reads and hashes every record file as
// the read pipeline does (the same reader, the same candidates, the same
// exclusions), on one goroutine, without parsing anything: what a short
// process (a hook) keys what it keeps between runs on. A read of the
// corpus (IndexCorpus) that returns the same files read the same bytes.
// An unusable corpus is an *ports.UnavailableError (wrapped).
func (s *Service) Snapshot(ctx context.Context) ([]ReadFile, error) {
	view, err := s.reader.Open(ctx)
	if err != nil {
		return nil, fmt.Errorf("open corpus: %w", err)
	}
	entries, err := view.List(ctx, false)
	if err != nil {
		return nil, fmt.Errorf("list ADR directory: %w", err)
	}
	buf := make([]byte, 0, corpus.MaxRecordBytes+1)
	var out []ReadFile
	for _, e := range entries {
		if !isCandidate(e) {
			continue
		}
		f := ReadFile{Path: e.Path}
		data, err := view.Read(ctx, e.Name, corpus.MaxRecordBytes, buf)
		if err != nil {
			c := corpus.Candidate{Path: e.Path}
			if err := exclude(&c, err); err != nil {
				return nil, err
			}
			f.Exclusion = c.Exclusion
		} else {
			f.Sum = sha256.Sum256(data)
		}
		out = append(out, f)
	}
	return out, nil
}

// IndexOf is the GovernIndex of a projection.
func IndexOf(p *corpus.Projection) *GovernIndex {
	ix := &GovernIndex{Records: make([]IndexRecord, len(p.Records)), Errors: countErrors(p.Findings)}
	for i, r := range p.Records {
		fm := r.Frontmatter
		ir := IndexRecord{
			SourcePath: r.SourcePath, ID: fm.ID, Title: fm.Title, Status: fm.Status,
			Supersedes: fm.Supersedes, SupersededBy: fm.SupersededBy, RelatesTo: fm.RelatesTo, ConflictsWith: fm.ConflictsWith,
			Decision: adr.DecisionSentence(r.Body),
		}
		for _, m := range fm.Affects {
			if m.Type == adr.MatcherPath && m.Repo == "" {
				ir.Paths = append(ir.Paths, IndexMatcher{Pattern: m.Pattern, Negate: m.Negate})
			}
		}
		ix.Records[i] = ir
	}
	return ix
}

// projection is the part of a projection the index stands for: records
// holding the index's fields only, in the index's (record) order, and
// the index by id; and each record's decision sentence.
func (ix *GovernIndex) projection() (*corpus.Projection, map[*adr.Record]string) {
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

// GovernFrom is Govern over an index instead of a fresh read: the same
// answer for the corpus the index was made from. It reads nothing.
func (s *Service) GovernFrom(ix *GovernIndex, in GovernInput) *Governance {
	p, decisions := ix.projection()
	return s.governOver(p, ix.Errors, func(r *adr.Record) string { return decisions[r] }, in)
}

// DigestFrom is Digest over an index: the same digest for the corpus
// the index was made from.
func DigestFrom(ix *GovernIndex) *Digest {
	p, _ := ix.projection()
	return digestOf(p, ix.Errors)
}

// Digest is a short account of the whole corpus for the start of an
// agent's session.
type Digest struct {
	// Counts are the valid records by status, in schema order, statuses
	// with none left out.
	Counts []StatusCount
	// Rejected are the rejected decisions, in record order.
	Rejected []Summary
	// Records counts the valid records; Errors the error findings.
	Records, Errors int
}

// StatusCount is how many valid records have one status.
type StatusCount struct {
	Status adr.Status
	Count  int
}

// Digest reads the corpus once and counts it. An unusable corpus is an
// *ports.UnavailableError (wrapped).
func (s *Service) Digest(ctx context.Context) (*Digest, error) {
	p, err := s.Project(ctx)
	if err != nil {
		return nil, err
	}
	return digestOf(p, countErrors(p.Findings)), nil
}

// digestOf counts the valid records of p, with errs error findings.
func digestOf(p *corpus.Projection, errs int) *Digest {
	by := map[adr.Status]int{}
	d := &Digest{Records: len(p.Records), Errors: errs}
	for _, r := range p.Records {
		by[r.Frontmatter.Status]++
		if r.Frontmatter.Status == adr.StatusRejected {
			d.Rejected = append(d.Rejected, summaryOf(r))
		}
	}
	for _, st := range adr.Statuses {
		if by[st] > 0 {
			d.Counts = append(d.Counts, StatusCount{Status: st, Count: by[st]})
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

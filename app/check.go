package app

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/lineage"
	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/ports"
)

// RuleHold is the finding check gives for a decision that governs a
// changed file but whose line of supersession is on hold (the chain
// verdict: replaced by a deprecated record, dangling, a cycle...). It
// warns: the change did not make the line unsettled, it only touches what
// the line governs.
const RuleHold = "governing-decision-on-hold"

// RuleNumberTaken is the finding check gives for a record the change adds
// whose id, or the number its file name starts with, the revision it is
// compared with already uses at its tip (another branch took the number
// first). An error: merging would give two records one number.
const RuleNumberTaken = "number-taken"

// RuleResemblesRejected is the finding check gives for a record the
// change adds or edits, still a proposal or a draft, whose title asks
// what a rejected decision already answered (query_decision's ranking
// and confidence, ADR 0038). It warns: the proposal may differ where the
// words cannot tell, but its authors should read the rejection first.
const RuleResemblesRejected = "resembles-rejected"

// Cause says why check reports a finding, and so whether it can fail the
// change (docs/adr, the check gate's record).
type Cause string

// The causes of check findings.
const (
	// CauseChanged: the finding is about a file the change adds or
	// modifies. An error fails.
	CauseChanged Cause = "changed"
	// CauseBroken: the finding is about an untouched record, but the
	// change made it (a record it deleted or renumbered was referenced).
	// An error fails.
	CauseBroken Cause = "broken-by-change"
	// CauseUntouched: an error on an untouched record that was already
	// there before the change. It is reported as a warning and never
	// fails.
	CauseUntouched Cause = "already-broken"
	// CauseMarker: an @adr marker of a changed file that binds to nothing
	// or to history. A marker lives in a file the corpus does not own:
	// it never fails.
	CauseMarker Cause = "marker"
	// CauseHold: a decision governing a changed file is on hold. Never
	// fails.
	CauseHold Cause = "hold"
)

// CheckInput configures one check run.
type CheckInput struct {
	// Files are the changed files, repository-relative and "/"-separated,
	// deleted ones included.
	Files []string
	// Markers is what the heads of the files declare (ReadMarkers).
	Markers MarkerReport
	// Base is the corpus before the change (the merge base), or nil when
	// it is not known (files named on the command line). With a base, a
	// finding on an untouched record fails exactly when the change made
	// it; without one, when it is about a relation to a changed record.
	Base ports.CorpusReader
	// Tip is the corpus at the tip of the revision the change is
	// compared with (--changed-since), and TipName that revision as the
	// user named it; nil when there is none. A record the change adds
	// whose id or file number is taken there fails (RuleNumberTaken).
	Tip     ports.CorpusReader
	TipName string
	// AsOf and Clock date the reviewBy check, as for Lint.
	AsOf  string
	Clock ports.Clock
}

// CheckReport is the outcome of one check run.
type CheckReport struct {
	// Lint is the report of the corpus after the change (every finding,
	// before check sorted them).
	Lint *LintReport
	// BaseKnown says whether findings were compared with the corpus
	// before the change.
	BaseKnown bool
	// Files are the changed files in UTF-16 code-unit order, each with
	// the decisions that cover it.
	Files []CheckFile
	// ChangedRecords are the changed files that are (or, before the
	// change, were) record files of the corpus.
	ChangedRecords []string
	// Holds are the governing decisions whose line is on hold, in record
	// order.
	Holds []CheckHold
	// Findings are what check reports, in canonical order within each
	// file, files in code-unit order.
	Findings []CheckFinding
}

// CheckFile is one changed file and what covers it.
type CheckFile struct {
	Path string
	// Markers is how the file was read for "@adr" markers.
	Markers         markers.FileScan
	Governing       []ContextEntry
	ActiveProposals []ContextEntry
	History         []ContextEntry
}

// CheckHold is a decision that governs changed files but whose line of
// supersession is on hold.
type CheckHold struct {
	Decision Summary
	Reason   lineage.Reason
	// At is the record where the walk stopped; Refs the references
	// behind the hold (lineage.Judgement).
	At     string
	Refs   []string
	Action string
	// Files are the changed files the decision governs.
	Files []string
}

// CheckFinding is a finding and why check reports it. Severity may be
// lower than the rule's: an error on an untouched record that was
// already broken is reported as a warning.
type CheckFinding struct {
	adr.Finding
	Cause Cause
	// Fails says the finding fails the check: an error on a changed
	// record, or one the change caused.
	Fails bool
}

// Failed reports whether the run fails: any failing finding, or with
// warnings any warning too.
func (r *CheckReport) Failed(warnings bool) bool {
	for _, f := range r.Findings {
		if f.Fails || (warnings && f.Severity == adr.SeverityWarn) {
			return true
		}
	}
	return false
}

// Count returns how many findings check reports with severity sev.
func (r *CheckReport) Count(sev adr.Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == sev {
			n++
		}
	}
	return n
}

// Check reports, for a change to the repository, the decisions that
// cover each changed file (by affects patterns and @adr markers), the
// holds on the lines of those that govern, and the findings the change
// is answerable for. An unusable corpus is an *ports.UnavailableError
// (wrapped); a base that cannot be read at all is an error too, except
// for an ADR directory the base does not have yet (the change adds it).
func (s *Service) Check(ctx context.Context, in CheckInput) (*CheckReport, error) {
	rep, p, err := s.lintAndProject(ctx, in)
	if err != nil {
		return nil, err
	}
	out := &CheckReport{Lint: rep}

	files := slices.Clone(in.Files)
	slices.SortFunc(files, jsstring.Compare)
	files = slices.Compact(files)
	changed := map[string]bool{}
	for _, f := range files {
		changed[f] = true
	}

	var base *LintReport
	if in.Base != nil {
		base, err = New(in.Base, Options{}).Lint(ctx, LintInput{AsOf: rep.AsOf})
		var u *ports.UnavailableError
		switch {
		case errors.As(err, &u) && (u.Reason == corpus.DirNotFound):
			base = &LintReport{AsOf: rep.AsOf}
		case err != nil:
			return nil, fmt.Errorf("reading the corpus before the change: %w", err)
		}
		out.BaseKnown = true
	}

	out.ChangedRecords = changedRecords(files, rep, base)
	if out.Files, err = checkFiles(ctx, p, files, in.Markers, s.memo.compile); err != nil {
		return nil, err
	}
	out.Holds = checkHolds(p, out.Files)
	out.Findings = checkFindings(p, rep, base, changed, out.ChangedRecords, in.Markers, out.Files, out.Holds)
	out.Findings = append(out.Findings, resemblesRejected(p, s.memo.ask.index(p), changed)...)
	slices.SortStableFunc(out.Findings, compareCheckFindings)
	if in.Tip != nil {
		tip, err := New(in.Tip, Options{}).load(ctx, false)
		var u *ports.UnavailableError
		switch {
		case errors.As(err, &u) && u.Reason == corpus.DirNotFound:
		case err != nil:
			return nil, fmt.Errorf("reading the corpus at %s: %w", in.TipName, err)
		default:
			out.Findings = append(out.Findings, numbersTaken(p, base, changed, tip, in.TipName)...)
			slices.SortStableFunc(out.Findings, compareCheckFindings)
		}
	}
	return out, nil
}

// numbersTaken reports each record the change adds (a changed record
// file the base did not have, with an id no record of the base held: a
// renamed record is not new) whose id a different record holds at the
// tip of the revision compared with, or whose file number a different
// record file's name starts with there, valid or not: a file takes its
// number whether or not it lints.
func numbersTaken(p *corpus.Projection, base *LintReport, changed map[string]bool, tip *loaded, tipName string) []CheckFinding {
	baseIDs := map[string]bool{}
	if base != nil {
		for _, r := range base.Records {
			baseIDs[string(r.ID)] = true
		}
	}
	var out []CheckFinding
	for _, r := range p.Records {
		src := r.SourcePath
		if !changed[src] || (base != nil && base.Knows(src)) || baseIDs[r.Frontmatter.ID] {
			continue
		}
		id, num := r.Frontmatter.ID, fileNumber(path.Base(src))
		what, by := "", ""
		for _, t := range tip.proj.Records {
			if t.SourcePath != src && t.Frontmatter.ID == id {
				what, by = "its id "+id, t.SourcePath
				break
			}
		}
		for _, f := range tip.files {
			if what == "" && num != "" && f.Path != src && sameNumber(fileNumber(path.Base(f.Path)), num) {
				what, by = "its file number "+num, f.Path
			}
		}
		if what == "" {
			continue
		}
		out = append(out, CheckFinding{Cause: CauseChanged, Fails: true, Finding: adr.Finding{
			Rule: RuleNumberTaken, Severity: adr.SeverityError, Path: src, ID: id,
			Message: src + " is new in this change, but " + what + " is taken on " + tipName + " by " + by +
				": give it a free number with adrkit renumber " + id + " --next",
		}})
	}
	return out
}

// resemblesRejected reports each changed record that is still a
// proposal or a draft and whose title query_decision would answer, among
// the rejected records, with one of them.
func resemblesRejected(p *corpus.Projection, ix *askIndex, changed map[string]bool) []CheckFinding {
	var out []CheckFinding
	for i, r := range p.Records {
		fm := r.Frontmatter
		if !changed[r.SourcePath] || (fm.Status != adr.StatusProposed && fm.Status != adr.StatusDraft) {
			continue
		}
		doc, conf, ok := resemblesRejectedText(ix.rank, fm.Title, func(doc int) bool {
			return doc != i && p.Records[doc].Frontmatter.Status == adr.StatusRejected
		})
		if !ok {
			continue
		}
		rej := p.Records[doc]
		out = append(out, CheckFinding{Cause: CauseChanged, Finding: adr.Finding{
			Rule: RuleResemblesRejected, Severity: adr.SeverityWarn, Path: r.SourcePath, ID: fm.ID,
			Message: resemblesMessage(fm.ID, rej.Frontmatter.ID, rej.Frontmatter.Title, rej.SourcePath, conf),
		}})
	}
	return out
}

// fileNumber is the run of digits a file name starts with, "" for none.
func fileNumber(name string) string {
	n := 0
	for n < len(name) && name[n] >= '0' && name[n] <= '9' {
		n++
	}
	return name[:n]
}

// compareCheckFindings orders check's findings: by file in code-unit
// order, then canonically.
func compareCheckFindings(a, b CheckFinding) int {
	if c := jsstring.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	return adr.CompareFindings(a.Finding, b.Finding)
}

// lintAndProject lints the corpus and projects it, from one state of it:
// the two reads are compared by fingerprint and made again once if the
// corpus changed between them.
func (s *Service) lintAndProject(ctx context.Context, in CheckInput) (*LintReport, *corpus.Projection, error) {
	for attempt := 0; ; attempt++ {
		rep, err := s.Lint(ctx, LintInput{AsOf: in.AsOf, Clock: in.Clock})
		if err != nil {
			return nil, nil, err
		}
		p, err := s.Project(ctx)
		if err != nil {
			return nil, nil, err
		}
		if p.Fingerprint == rep.Fingerprint {
			return rep, p, nil
		}
		if attempt == 1 {
			return nil, nil, &ports.UnavailableError{Reason: corpus.CorpusChangedDuringLoad}
		}
	}
}

// changedRecords are the changed files that are record files now (a
// record read, or a file a finding is about) or were before the change.
// Without a base, a deleted file is taken for a record when it is named
// like one (NNNN-slug.md) in a directory that holds records.
func changedRecords(files []string, rep, base *LintReport) []string {
	dirs := map[string]bool{}
	for _, r := range rep.Records {
		dirs[path.Dir(string(r.SourcePath))] = true
	}
	out := []string{}
	for _, f := range files {
		named := base == nil && dirs[path.Dir(f)] && corpus.IsCandidateName(path.Base(f))
		if rep.Knows(f) || (base != nil && base.Knows(f)) || named {
			out = append(out, f)
		}
	}
	return out
}

// checkFiles resolves each changed file on its own: its affects matches
// and the records its own markers declare.
func checkFiles(ctx context.Context, p *corpus.Projection, files []string, rep MarkerReport, compile affects.CompileFunc) ([]CheckFile, error) {
	scans := map[string]markers.FileScan{}
	for _, f := range rep.Files {
		scans[f.Path] = f
	}
	out := make([]CheckFile, len(files))
	for i, f := range files {
		// Each file is a walk of the whole corpus: a cancelled call (a
		// hook's SIGTERM, its time budget) stops between two.
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("matching the files: %w", err)
		}
		scan, ok := scans[markers.NormalizePath(f)]
		if !ok {
			scan = markers.FileScan{Path: f, State: markers.Skipped, FileBytes: -1}
		}
		walk, _ := contextWalk(p, []string{f}, scan.Declarations, compile)
		cf := CheckFile{Path: f, Markers: scan, Governing: []ContextEntry{}, ActiveProposals: []ContextEntry{}, History: []ContextEntry{}}
		for _, e := range walk {
			switch e.Status.Bucket() {
			case adr.BucketGoverning:
				cf.Governing = append(cf.Governing, e)
			case adr.BucketActiveProposals:
				cf.ActiveProposals = append(cf.ActiveProposals, e)
			default:
				cf.History = append(cf.History, e)
			}
		}
		out[i] = cf
	}
	return out, nil
}

// checkHolds walks the line of every record that governs a changed file
// and keeps those on hold.
func checkHolds(p *corpus.Projection, files []CheckFile) []CheckHold {
	governs := map[string][]string{} // source path → changed files
	for _, f := range files {
		for _, e := range f.Governing {
			governs[string(e.SourcePath)] = append(governs[string(e.SourcePath)], f.Path)
		}
	}
	if len(governs) == 0 {
		return nil
	}
	ix := lineage.NewIndex(p.Records, p.ByID)
	var out []CheckHold
	for _, r := range p.Records {
		gov, ok := governs[r.SourcePath]
		if !ok {
			continue
		}
		c := lineage.Walk(ix, r)
		if c.Verdict != lineage.Hold {
			continue
		}
		out = append(out, CheckHold{
			Decision: summaryOf(r), Reason: c.Reason, At: c.At.Frontmatter.ID,
			Refs: nonNil(c.Refs), Action: c.Action, Files: gov,
		})
	}
	return out
}

// findingKey identifies a finding across two states of the corpus: the
// line may move, everything else is the same finding.
func findingKey(f adr.Finding) adr.Finding {
	f.Line = 0
	return f
}

// checkFindings sorts the findings into what check reports (see Cause).
// Findings on untouched records that are not errors are left to lint
// unless the change made them.
func checkFindings(p *corpus.Projection, rep, base *LintReport, changed map[string]bool, changedRecs []string,
	scans MarkerReport, files []CheckFile, holds []CheckHold) []CheckFinding {
	var before map[adr.Finding]bool
	if base != nil {
		before = make(map[adr.Finding]bool, len(base.Findings))
		for _, f := range base.Findings {
			before[findingKey(f)] = true
		}
	}
	ids := changedIDs(p, changedRecs)
	var out []CheckFinding
	for _, f := range rep.Findings {
		cf := CheckFinding{Finding: f}
		switch {
		case changed[f.Path]:
			cf.Cause = CauseChanged
		case base != nil && !before[findingKey(f)]:
			cf.Cause = CauseBroken
		case base == nil && breaksRelation(p, f, ids):
			cf.Cause = CauseBroken
		case f.Severity == adr.SeverityError:
			cf.Cause = CauseUntouched
			cf.Severity = adr.SeverityWarn
		default:
			continue
		}
		cf.Fails = cf.Severity == adr.SeverityError
		out = append(out, cf)
	}

	// The markers of the changed files: what binds to nothing or to
	// history, and declarations past the caps.
	var decls []markers.Declaration
	for _, f := range files {
		decls = append(decls, f.Markers.Declarations...)
	}
	for _, f := range markers.Resolve(p.Records, p.ByID, decls).Findings {
		out = append(out, CheckFinding{Finding: f, Cause: CauseMarker})
	}
	for _, f := range scans.Findings() {
		out = append(out, CheckFinding{Finding: f, Cause: CauseMarker})
	}
	for _, h := range holds {
		for _, file := range h.Files {
			out = append(out, CheckFinding{Cause: CauseHold, Finding: adr.Finding{
				Rule: RuleHold, Severity: adr.SeverityWarn, Path: file, ID: string(h.Decision.ID),
				Message: string(h.Decision.ID) + " governs this file but its line is on hold (" + string(h.Reason) + "): " + h.Action,
			}})
		}
	}
	slices.SortStableFunc(out, compareCheckFindings)
	return out
}

// changedIDs are the ids the changed record files hold now, or are named
// after (NNNN-slug.md): what a relation of an untouched record may have
// named before the change, when there is no base to tell.
func changedIDs(p *corpus.Projection, changedRecs []string) map[string]bool {
	ids := map[string]bool{}
	bySource := map[string]*adr.Record{}
	for _, r := range p.Records {
		bySource[r.SourcePath] = r
	}
	for _, f := range changedRecs {
		if r, ok := bySource[f]; ok {
			ids[r.Frontmatter.ID] = true
		}
		if name := path.Base(f); corpus.IsCandidateName(name) {
			ids[fileNumber(name)] = true
		}
	}
	return ids
}

// breaksRelation reports, without a base, whether a finding on an
// untouched record is about a relation to a changed record: a reference
// that dangles and names an id a changed file held (or is named after),
// or an id a changed record now shares.
func breaksRelation(p *corpus.Projection, f adr.Finding, ids map[string]bool) bool {
	if f.Rule == corpus.RuleUniqueID {
		return ids[f.ID]
	}
	var refs []string
	for _, r := range p.Records {
		if r.SourcePath != f.Path {
			continue
		}
		fm := r.Frontmatter
		switch f.Field {
		case "supersedes":
			refs = fm.Supersedes
		case "supersededBy":
			refs = []string{fm.SupersededBy}
		case "relatesTo":
			refs = fm.RelatesTo
		case "conflictsWith":
			refs = fm.ConflictsWith
		}
	}
	for _, ref := range refs {
		// Only a reference that dangles now can be what the finding is
		// about.
		r := adr.ParseRef(ref)
		if !r.Federated() && len(p.ByID[r.ID]) == 0 && ids[r.ID] {
			return true
		}
	}
	return false
}

// checkRules are the rules only check reports.
var checkRules = []LintRule{
	{markers.RuleDangling, adr.SeverityWarn, "An @adr marker in a changed file names no record in the corpus."},
	{markers.RuleUnresolvable, adr.SeverityInfo, "An @adr marker in a changed file names another decision log, which cannot be read here."},
	{markers.RuleStale, adr.SeverityWarn, "An @adr marker in a changed file names a superseded, rejected or deprecated record."},
	{markers.RuleCapped, adr.SeverityWarn, "A changed file, or all of them, declares more decisions with @adr markers than are read."},
	{RuleHold, adr.SeverityWarn, "A decision governing a changed file is on hold: its line of supersession is not settled."},
	{RuleResemblesRejected, adr.SeverityWarn, "A proposal or draft the change adds or edits asks what a rejected decision already answered."},
	{RuleNumberTaken, adr.SeverityError, "A record the change adds has an id or file number that the revision compared with already uses at its tip."},
}

// CheckRules lists every rule check can report, lint's and its own,
// sorted by id in code-unit order.
func CheckRules() []LintRule {
	rules := append(LintRules(), checkRules...)
	slices.SortFunc(rules, func(a, b LintRule) int { return jsstring.Compare(a.ID, b.ID) })
	return rules
}

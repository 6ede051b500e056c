package markers

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// Rule ids of the findings markers give. A marker lives in a file the
// corpus does not own, so none of them is an error: a claim that cannot
// be honoured is reported, and never fails a run.
const (
	// RuleDangling: the marker names an id no record holds.
	RuleDangling = "dangling-marker"
	// RuleUnresolvable: the marker names another decision log, which
	// cannot be read here; it is inert, not broken.
	RuleUnresolvable = "marker-unresolvable"
	// RuleStale: the marker names a superseded, rejected or deprecated
	// record. It still binds to that record (history is not rewritten),
	// but the file most likely means its successor.
	RuleStale = "stale-marker"
	// RuleCapped: declarations were left out because a file or a batch
	// of files held more than the caps allow.
	RuleCapped = "marker-declarations-capped"
)

// fieldMarker is the field every marker finding names.
const fieldMarker = "marker"

// Site is where a record was declared.
type Site struct {
	Path string
	Line int
	Ref  string
}

// Match is a record and every place a file declared it.
type Match struct {
	Record *adr.Record
	// DeclaredBy is sorted by path (UTF-16 code units), line, then ref.
	DeclaredBy []Site
}

// Resolution binds declarations to records.
type Resolution struct {
	// Matches are in the order of the records given.
	Matches []Match
	// Findings are in canonical order.
	Findings []adr.Finding
}

// Resolve binds decls to records (in canonical order; byID maps an id to
// every record holding it). A declaration repeated at the same place
// counts once. A log-qualified ref is reported as unresolvable, an id no
// record holds as dangling; an id several records hold binds to each of
// them, as every relation in the corpus does. Binding to a superseded,
// rejected or deprecated record also reports the marker as stale, naming
// the live record at the end of the supersession line when there is one.
func Resolve(records []*adr.Record, byID map[string][]*adr.Record, decls []Declaration) Resolution {
	var res Resolution
	sites := map[*adr.Record][]Site{}
	type key struct {
		path, ref string
		line      int
	}
	seen := map[key]bool{}
	for _, d := range decls {
		k := key{d.Path, d.Ref, d.Line}
		if seen[k] {
			continue
		}
		seen[k] = true
		if d.Log != "" {
			res.Findings = append(res.Findings, finding(d, RuleUnresolvable, adr.SeverityInfo,
				"names the decision log "+strconv.Quote(d.Log)+", which cannot be read here, so it governs nothing in this corpus"))
			continue
		}
		holders := byID[d.ID]
		if len(holders) == 0 {
			res.Findings = append(res.Findings, finding(d, RuleDangling, adr.SeverityWarn,
				"names no record in the corpus; correct the id or remove the marker"))
			continue
		}
		for _, r := range holders {
			if f, ok := stale(d, r, byID); ok {
				res.Findings = append(res.Findings, f)
			}
			sites[r] = append(sites[r], Site{Path: d.Path, Line: d.Line, Ref: d.Ref})
		}
	}
	for _, r := range records {
		if s := sites[r]; len(s) > 0 {
			slices.SortFunc(s, compareSites)
			res.Matches = append(res.Matches, Match{Record: r, DeclaredBy: s})
		}
	}
	adr.SortFindings(res.Findings)
	res.Findings = slices.Compact(res.Findings)
	return res
}

func compareSites(a, b Site) int {
	return cmp.Or(jsstring.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), jsstring.Compare(a.Ref, b.Ref))
}

// where names a declaration for a message: the marker and its place.
func where(d Declaration) string {
	return "the marker \"@adr " + d.Ref + "\" at " + d.Path + ":" + strconv.Itoa(d.Line)
}

func finding(d Declaration, rule string, sev adr.Severity, what string) adr.Finding {
	return adr.Finding{
		Rule:     rule,
		Severity: sev,
		Message:  where(d) + " " + what,
		Path:     d.Path,
		Field:    fieldMarker,
		Pattern:  d.Ref,
		Line:     d.Line,
	}
}

// stale reports a declaration of a record that is history.
func stale(d Declaration, r *adr.Record, byID map[string][]*adr.Record) (adr.Finding, bool) {
	st := r.Frontmatter.Status
	if st.Bucket() != adr.BucketHistory {
		return adr.Finding{}, false
	}
	what := "names " + d.ID + ", which is " + string(st) + "; "
	if st == adr.StatusSuperseded {
		if next, ok := liveSuccessor(r, byID); ok {
			return finding(d, RuleStale, adr.SeverityWarn, what+"point it at "+next+", or re-affirm "+d.ID), true
		}
	}
	return finding(d, RuleStale, adr.SeverityWarn, what+"update the marker, or re-affirm "+d.ID), true
}

// liveSuccessor follows supersededBy from r to the first record that is
// accepted, proposed or a draft. It gives up on a ref that no single
// local record holds, on a record that is rejected or deprecated, and on
// a loop.
func liveSuccessor(r *adr.Record, byID map[string][]*adr.Record) (string, bool) {
	seen := map[string]bool{r.Frontmatter.ID: true}
	for next := r.Frontmatter.SupersededBy; next != ""; {
		if seen[next] {
			return "", false
		}
		seen[next] = true
		holders := byID[next]
		if len(holders) != 1 {
			return "", false
		}
		s := holders[0].Frontmatter
		switch s.Status {
		case adr.StatusAccepted, adr.StatusProposed, adr.StatusDraft:
			return s.ID, true
		case adr.StatusSuperseded:
			next = s.SupersededBy
		default:
			return "", false
		}
	}
	return "", false
}

// CappedFinding reports declarations left out of a scan: omitted past
// the per-file cap in path, or, when path is empty, past a batch's cap.
func CappedFinding(path string, omitted, limit int) adr.Finding {
	f := adr.Finding{Rule: RuleCapped, Severity: adr.SeverityWarn, Path: path, Field: fieldMarker}
	if path != "" {
		f.Message = "the file declares more than " + strconv.Itoa(limit) + " decisions with @adr markers; only the first " +
			strconv.Itoa(limit) + " are read and " + strconv.Itoa(omitted) + " more are left out"
	} else {
		f.Message = "the files declare more than " + strconv.Itoa(limit) + " decisions with @adr markers in all; only the first " +
			strconv.Itoa(limit) + " (by path, then line) are read and " + strconv.Itoa(omitted) + " more are left out"
	}
	return f
}

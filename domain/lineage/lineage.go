// Package lineage walks the supersession lineage of one decision record
// and judges whether an agent may act on it.
//
// The rules are docs/adr/0006-extended-tools.md; in short:
//
//   - An edge "new replaces old" is declared by old.supersededBy naming
//     new, by new.supersedes naming old, or by both. Declarations are
//     refs; a ref forms an edge only when exactly one local record holds
//     it. A rejected record's own supersedes list declares nothing: a
//     rejected proposal never replaced anything. A draft's or a
//     proposal's supersedes list is pending (ADR 0045): it names what the
//     record would replace once accepted, and the old record keeps
//     governing until then.
//   - The forward walk (towards newer records) follows one replacement
//     per step and stops at the first problem; the backward walk (towards
//     older records) collects every record the requested one transitively
//     replaces. Each direction takes at most MaxHops steps.
//   - The verdict is decided by the forward walk only: the first problem
//     met, in walk order, or else the status of the newest record.
//
// Everything here is pure and deterministic: ties are broken by the
// canonical record order (id, then source path, in UTF-16 code-unit
// order).
package lineage

import (
	"slices"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// MaxHops bounds each direction of the walk. Real lineages are a handful
// of records long; a longer one is almost certainly a data error, and the
// bound keeps the answer small whatever the corpus holds.
const MaxHops = 12

// Verdict is the answer to "may I act on this line of decisions?".
type Verdict string

// The two verdicts.
const (
	// Current: the newest record of the line is accepted and nothing
	// replaces it.
	Current Verdict = "current"
	// Hold: something about the line must be settled first; Reason says
	// what.
	Hold Verdict = "hold"
)

// Reason says why a walk holds, or why the backward walk left a gap.
type Reason string

// Hold reasons. The first four come from the newest record's status, the
// others from the walk's structure.
const (
	// Ungoverned: the newest record is a draft or a proposal, so no
	// accepted decision is the line's last word.
	Ungoverned Reason = "ungoverned"
	// Rejected: the newest record was rejected.
	Rejected Reason = "rejected"
	// Deprecated: the newest record is deprecated and nothing replaces it.
	Deprecated Reason = "deprecated"
	// Cycle: the replacements lead back to a record already in the line.
	Cycle Reason = "cycle"
	// Truncated: the line goes on for more than MaxHops steps.
	Truncated Reason = "truncated"
	// Dangling: a replacement ref names no local record (or a record is
	// marked superseded without naming its replacement).
	Dangling Reason = "dangling"
	// Ambiguous: the replacement is not one record: its ref is held by
	// several records, or the declarations name different replacements.
	Ambiguous Reason = "ambiguous"
	// NotObserved: the replacement is a log:id ref into another decision
	// log, which cannot be seen from here; its absence proves nothing.
	NotObserved Reason = "not-observed"
)

// Node is one record of the line.
type Node struct {
	Record *adr.Record
	// Hop is the signed number of replacement steps from the requested
	// record: 0 for it, negative for records it replaced (the shortest
	// distance), positive for its replacements.
	Hop int
}

// Gap is a place where the backward walk could not go on. Gaps never
// change the verdict: what the requested record replaced is history, and
// an unreadable history does not make the newest record less current.
type Gap struct {
	// At is the record whose older side could not be followed.
	At *adr.Record
	// Ref is the reference that could not be followed (a ref as written,
	// or the id of a record the walk did not enter).
	Ref    string
	Reason Reason
}

// Judgement is the verdict with what an agent needs to act on it.
type Judgement struct {
	Verdict Verdict
	// Reason is empty when Verdict is Current.
	Reason Reason
	// At is the record where the forward walk stopped: the newest record
	// for Current and the status reasons, the record whose replacement
	// could not be followed otherwise.
	At *adr.Record
	// Refs are the references behind a structural hold, in a fixed order:
	// the unresolved ref (dangling, ambiguous, not-observed), the ids of
	// competing replacements (ambiguous), the id the walk met again
	// (cycle) or the id it did not enter (truncated). Empty otherwise.
	Refs []string
	// Action is one sentence an agent can act on, without a final period.
	Action string
	// Pending are the drafts and proposals whose supersedes names At, the
	// newest record, in canonical order: what would replace it once
	// accepted. Only a head has them.
	Pending []*adr.Record
}

// Chain is the outcome of a walk.
type Chain struct {
	// Nodes are oldest first: every record the requested one transitively
	// replaced (each after everything it replaced), the requested record,
	// then its replacements in order.
	Nodes []Node
	// Gaps are the backward walk's dead ends, sorted.
	Gaps []Gap
	Judgement
}

// Index holds the reverse declarations of a corpus, so that each step of
// a walk costs a few map lookups. Build it once per projection.
type Index struct {
	byID map[string][]*adr.Record
	// claims maps a ref to the records whose supersedes lists it.
	claims map[string][]*adr.Record
	// replacedBy maps a ref to the records whose supersededBy names it.
	replacedBy map[string][]*adr.Record
}

// NewIndex indexes records (in canonical order) and byID (every holder of
// an id, in canonical order), as corpus.Projection holds them.
func NewIndex(records []*adr.Record, byID map[string][]*adr.Record) *Index {
	ix := &Index{byID: byID, claims: map[string][]*adr.Record{}, replacedBy: map[string][]*adr.Record{}}
	for _, r := range records {
		fm := r.Frontmatter
		for i, ref := range fm.Supersedes {
			// A ref listed twice is one declaration.
			if !slices.Contains(fm.Supersedes[:i], ref) {
				ix.claims[ref] = append(ix.claims[ref], r)
			}
		}
		if fm.SupersededBy != "" {
			ix.replacedBy[fm.SupersededBy] = append(ix.replacedBy[fm.SupersededBy], r)
		}
	}
	return ix
}

// Walk walks the line of start, which must be a record of the indexed
// corpus.
func Walk(ix *Index, start *adr.Record) Chain {
	forward, j := ix.forward(start)
	inForward := make(map[*adr.Record]bool, len(forward))
	for _, r := range forward {
		inForward[r] = true
	}
	older, gaps := ix.backward(start, inForward)

	c := Chain{Nodes: older, Gaps: gaps, Judgement: j}
	for k, r := range forward[1:] {
		c.Nodes = append(c.Nodes, Node{Record: r, Hop: k + 1})
	}
	return c
}

// stepKind is what one forward step found.
type stepKind int

const (
	stepHead    stepKind = iota // nothing replaces the record
	stepNext                    // exactly one record replaces it
	stepProblem                 // the replacement cannot be determined
)

type step struct {
	kind   stepKind
	next   *adr.Record
	reason Reason
	refs   []string
	// holders is the number of records holding the ambiguous ref.
	holders int
	// claimants are the competing replacements of an ambiguous step.
	claimants []*adr.Record
}

// next determines what replaces x. The checks run in this order, and the
// first that applies decides:
//
//  1. x.supersededBy is a log:id ref: not-observed;
//  2. x.supersededBy is held by several records: ambiguous;
//  3. x.supersededBy is held by no record: dangling;
//  4. a record's supersedes names x's id, but several records hold that
//     id: ambiguous (the claim cannot be attributed to x);
//  5. x.supersededBy's record and the claiming records are not all the
//     same record: ambiguous (the declarations disagree);
//  6. one replacement: next; none: x is the head.
func (ix *Index) next(x *adr.Record) step {
	fm := x.Frontmatter
	var cands []*adr.Record
	if by := fm.SupersededBy; by != "" {
		ref := adr.ParseRef(by)
		if ref.Federated() {
			return step{kind: stepProblem, reason: NotObserved, refs: []string{by}}
		}
		switch holders := ix.byID[ref.ID]; len(holders) {
		case 0:
			return step{kind: stepProblem, reason: Dangling, refs: []string{by}}
		case 1:
			cands = append(cands, holders[0])
		default:
			return step{kind: stepProblem, reason: Ambiguous, refs: []string{by}, holders: len(holders)}
		}
	}
	claims := ix.activeClaims(fm.ID)
	if len(claims) > 0 && len(ix.byID[fm.ID]) > 1 {
		return step{kind: stepProblem, reason: Ambiguous, refs: []string{fm.ID}, holders: len(ix.byID[fm.ID]), claimants: claims}
	}
	for _, c := range claims {
		if !slices.Contains(cands, c) {
			cands = append(cands, c)
		}
	}
	switch len(cands) {
	case 0:
		return step{kind: stepHead}
	case 1:
		return step{kind: stepNext, next: cands[0]}
	}
	slices.SortStableFunc(cands, adr.CompareRecords)
	return step{kind: stepProblem, reason: Ambiguous, refs: uniqueIDs(cands), claimants: cands}
}

// activeClaims are the records whose supersedes names id, rejected and
// pending ones left out: a rejected proposal's supersedes list records
// what it proposed, not what happened, and a pending one's what has not
// happened yet.
func (ix *Index) activeClaims(id string) []*adr.Record {
	var out []*adr.Record
	for _, r := range ix.claims[id] {
		if st := r.Frontmatter.Status; st != adr.StatusRejected && !Pending(st) {
			out = append(out, r)
		}
	}
	return out
}

// Pending reports whether a record of status s is not decided yet (a
// draft or a proposal): what its supersedes names still governs, and is
// replaced only when the record is accepted (ADR 0045).
func Pending(s adr.Status) bool {
	return s == adr.StatusDraft || s == adr.StatusProposed
}

// pendingClaims are the drafts and proposals whose supersedes names the
// record head, which must hold its id alone (a claim on a shared id
// cannot be attributed to one of its holders).
func (ix *Index) pendingClaims(head *adr.Record) []*adr.Record {
	id := head.Frontmatter.ID
	if len(ix.byID[id]) != 1 {
		return nil
	}
	var out []*adr.Record
	for _, r := range ix.claims[id] {
		if Pending(r.Frontmatter.Status) && r != head {
			out = append(out, r)
		}
	}
	return out
}

// forward walks from start towards newer records and judges the line.
// It returns the records walked (start first) and the judgement.
func (ix *Index) forward(start *adr.Record) ([]*adr.Record, Judgement) {
	path := []*adr.Record{start}
	x := start
	for {
		st := ix.next(x)
		switch st.kind {
		case stepHead:
			j := judgeHead(start, x)
			if j.Pending = ix.pendingClaims(x); len(j.Pending) > 0 {
				j.Action += "; " + listIDs(j.Pending) + " would " + plural(len(j.Pending), "", "each ") +
					"replace " + x.Frontmatter.ID + " once accepted"
			}
			return path, j
		case stepProblem:
			return path, judgeProblem(start, x, st)
		}
		if slices.Contains(path, st.next) {
			return path, Judgement{
				Verdict: Hold, Reason: Cycle, At: x, Refs: []string{st.next.Frontmatter.ID},
				Action: refuse(start, "its replacements loop back to "+st.next.Frontmatter.ID),
			}
		}
		if len(path)-1 == MaxHops {
			return path, Judgement{
				Verdict: Hold, Reason: Truncated, At: x, Refs: []string{st.next.Frontmatter.ID},
				Action: refuse(start, "its replacements go on for more than "+itoa(MaxHops)+" steps; look up the chain of "+
					x.Frontmatter.ID+" to see the rest"),
			}
		}
		path = append(path, st.next)
		x = st.next
	}
}

// judgeHead judges a line whose newest record is head.
func judgeHead(start, head *adr.Record) Judgement {
	s, h := start.Frontmatter.ID, head.Frontmatter.ID
	st := head.Frontmatter.Status
	j := Judgement{Verdict: Hold, At: head, Refs: []string{}}
	same := head == start
	switch st {
	case adr.StatusAccepted:
		j.Verdict = Current
		if same {
			j.Action = "proceed on " + s + ": it is accepted and nothing replaces it"
		} else {
			j.Action = "proceed on " + h + " instead of " + s + ": " + h + " replaced it and is accepted"
		}
	case adr.StatusRejected:
		j.Reason = Rejected
		if same {
			j.Action = refuse(start, "it was rejected")
		} else {
			j.Action = refuse(start, "replaced by "+h+", which was rejected")
		}
	case adr.StatusDeprecated:
		j.Reason = Deprecated
		if same {
			j.Action = refuse(start, "it is deprecated and nothing replaces it")
		} else {
			j.Action = refuse(start, "replaced by "+h+", which is deprecated")
		}
	case adr.StatusSuperseded:
		// Only a record built without the schema can be superseded
		// without naming its replacement; the replacement is missing.
		j.Reason = Dangling
		j.Action = refuse(start, subject(start, head)+"marked superseded but names no replacement")
	default:
		// Draft, proposed, and any status the schema does not know: not
		// accepted, so nothing governs yet.
		j.Reason = Ungoverned
		if same {
			j.Action = refuse(start, "it is still "+string(st)+" and nothing accepted replaces it")
		} else {
			j.Action = refuse(start, "replaced by "+h+", which is still "+string(st))
		}
	}
	return j
}

// judgeProblem words a structural hold found at x.
func judgeProblem(start, x *adr.Record, st step) Judgement {
	j := Judgement{Verdict: Hold, Reason: st.reason, At: x, Refs: st.refs}
	subj := subject(start, x)
	switch st.reason {
	case NotObserved:
		ref := adr.ParseRef(st.refs[0])
		j.Action = refuse(start, subj+"replaced by "+st.refs[0]+" in the "+ref.Log+
			" decision log, which this server cannot see")
	case Dangling:
		j.Action = refuse(start, subj+"replaced by "+st.refs[0]+", which no record in this corpus holds")
	case Ambiguous:
		switch {
		case st.claimants != nil && st.holders > 0:
			j.Action = refuse(start, listIDs(st.claimants)+" "+plural(len(uniqueIDs(st.claimants)), "claims", "claim")+
				" to replace "+st.refs[0]+", but "+itoa(st.holders)+" records hold that id")
		case st.claimants != nil:
			target := x.Frontmatter.ID
			if x == start {
				target = "it"
			}
			who := listIDs(st.claimants) + " both"
			switch ids := uniqueIDs(st.claimants); {
			case len(ids) == 1:
				who = itoa(len(st.claimants)) + " records with the id " + ids[0]
			case len(ids) > 2:
				who = listIDs(st.claimants) + " all"
			}
			j.Action = refuse(start, who+" claim to replace "+target)
		default:
			j.Action = refuse(start, subj+"replaced by "+st.refs[0]+", which "+itoa(st.holders)+
				" records hold; call get_decision with ref "+st.refs[0]+" to list them")
		}
	}
	return j
}

// refuse is the sentence of every hold.
func refuse(start *adr.Record, why string) string {
	return "do not proceed on " + start.Frontmatter.ID + ": " + why
}

// subject names x in a sentence about start: nothing when they are the
// same record ("replaced by ..."), "x is " otherwise ("0007 is replaced
// by ...").
func subject(start, x *adr.Record) string {
	if start == x {
		return ""
	}
	return x.Frontmatter.ID + " is "
}

// backward collects every record start transitively replaces, up to
// MaxHops steps, and orders the result oldest first. Records of the
// forward walk are not entered again: meeting one means the line loops.
func (ix *Index) backward(start *adr.Record, inForward map[*adr.Record]bool) ([]Node, []Gap) {
	var gaps []Gap
	dist := map[*adr.Record]int{start: 0}
	preds := map[*adr.Record][]*adr.Record{}
	queue := []*adr.Record{start}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		ps, gs := ix.predecessors(x)
		gaps = append(gaps, gs...)
		for _, p := range ps {
			// inForward holds start itself.
			if inForward[p] {
				gaps = append(gaps, Gap{At: x, Ref: p.Frontmatter.ID, Reason: Cycle})
				continue
			}
			if dist[x] == MaxHops {
				if _, seen := dist[p]; !seen {
					gaps = append(gaps, Gap{At: x, Ref: p.Frontmatter.ID, Reason: Truncated})
					continue
				}
			}
			preds[x] = append(preds[x], p)
			if _, seen := dist[p]; !seen {
				dist[p] = dist[x] + 1
				queue = append(queue, p)
			}
		}
	}

	// Depth-first, predecessors in canonical order, each record after
	// everything it replaced: a deterministic oldest-first order even
	// when a record replaced several others. An edge back into the
	// records being visited closes a loop among the older records.
	const (
		unvisited = iota
		active
		done
	)
	state := map[*adr.Record]int{}
	var order []Node
	var visit func(x *adr.Record)
	visit = func(x *adr.Record) {
		state[x] = active
		for _, p := range preds[x] {
			switch state[p] {
			case active:
				gaps = append(gaps, Gap{At: x, Ref: p.Frontmatter.ID, Reason: Cycle})
			case unvisited:
				visit(p)
			}
		}
		state[x] = done
		order = append(order, Node{Record: x, Hop: -dist[x]})
	}
	visit(start)
	return order, sortGaps(gaps)
}

// predecessors resolves what x replaced: the refs of x.supersedes (unless
// x was rejected) and the records whose supersededBy names x's id. It
// returns the resolved records in canonical order, without repeats, and
// a gap for every declaration that does not resolve to one record.
func (ix *Index) predecessors(x *adr.Record) ([]*adr.Record, []Gap) {
	fm := x.Frontmatter
	var out []*adr.Record
	var gaps []Gap
	if fm.Status != adr.StatusRejected {
		for _, s := range fm.Supersedes {
			ref := adr.ParseRef(s)
			if ref.Federated() {
				gaps = append(gaps, Gap{At: x, Ref: s, Reason: NotObserved})
				continue
			}
			switch holders := ix.byID[ref.ID]; len(holders) {
			case 0:
				gaps = append(gaps, Gap{At: x, Ref: s, Reason: Dangling})
			case 1:
				out = append(out, holders[0])
			default:
				gaps = append(gaps, Gap{At: x, Ref: s, Reason: Ambiguous})
			}
		}
	}
	if decl := ix.replacedBy[fm.ID]; len(decl) > 0 {
		if len(ix.byID[fm.ID]) > 1 {
			gaps = append(gaps, Gap{At: x, Ref: fm.ID, Reason: Ambiguous})
		} else {
			out = append(out, decl...)
		}
	}
	slices.SortStableFunc(out, adr.CompareRecords)
	return slices.Compact(out), gaps
}

// sortGaps orders gaps by their record (canonical order), then ref, then
// reason, and drops exact repeats (a ref listed twice, say).
func sortGaps(gaps []Gap) []Gap {
	slices.SortStableFunc(gaps, func(a, b Gap) int {
		if c := adr.CompareRecords(a.At, b.At); c != 0 {
			return c
		}
		if c := jsstring.Compare(a.Ref, b.Ref); c != 0 {
			return c
		}
		return jsstring.Compare(string(a.Reason), string(b.Reason))
	})
	return slices.Compact(gaps)
}

// uniqueIDs lists the ids of records (already in canonical order) once
// each.
func uniqueIDs(rs []*adr.Record) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		if id := r.Frontmatter.ID; len(out) == 0 || out[len(out)-1] != id {
			out = append(out, id)
		}
	}
	return out
}

// listIDs joins ids for a sentence: "a", "a and b", "a, b and c".
func listIDs(rs []*adr.Record) string {
	ids := uniqueIDs(rs)
	switch len(ids) {
	case 1:
		return ids[0]
	case 2:
		return ids[0] + " and " + ids[1]
	}
	return strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func itoa(n int) string { return strconv.Itoa(n) }

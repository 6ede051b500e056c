package app

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/domain/lineage"
)

// chainRecord writes a record's text: "id status [supersededBy] [supersedes...]"
// with "-" for no supersededBy.
func chainRecord(spec string) string {
	f := strings.Fields(spec)
	var b strings.Builder
	b.WriteString("---\nid: \"" + f[0] + "\"\ntitle: Decision " + f[0] + "\nstatus: " + f[1] + "\ndate: 2026-0" + f[0][3:] + "-01\n")
	if f[1] == "accepted" || f[1] == "superseded" || f[1] == "deprecated" {
		b.WriteString("deciders: [\"@team\"]\n")
	}
	if len(f) > 2 && f[2] != "-" {
		b.WriteString("supersededBy: \"" + f[2] + "\"\n")
	}
	if len(f) > 3 {
		b.WriteString("supersedes: [\"" + strings.Join(f[3:], "\", \"") + "\"]\n")
	}
	b.WriteString("---\n\n# Decision " + f[0] + "\n")
	return b.String()
}

// chainCorpus is the fixture of the chain tool: a line 0001 → 0002 →
// 0003 (accepted); 0004 replaced by the proposal 0005; 0006 replaced by
// a missing 0099; two records with id 0007; 0008 replaced in another log.
func chainCorpus() []corpus.Candidate {
	specs := map[string]string{
		"0001-first.md":       "0001 superseded 0002",
		"0002-second.md":      "0002 superseded 0003 0001",
		"0003-third.md":       "0003 accepted - 0002",
		"0004-old.md":         "0004 superseded 0005",
		"0005-proposal.md":    "0005 proposed - 0004",
		"0006-dangling.md":    "0006 superseded 0099",
		"0007-one.md":         "0007 accepted",
		"0007-two.md":         "0007 draft",
		"0008-federated.md":   "0008 superseded payments:0001",
		"0009-claims-0007.md": "0009 accepted - 0007",
	}
	var cands []corpus.Candidate
	for path, spec := range specs {
		cands = append(cands, corpus.Candidate{Path: "docs/adr/" + path, Content: []byte(chainRecord(spec))})
	}
	return cands
}

func chainProjection() *corpus.Projection { return corpus.Build(chainCorpus(), nil) }

func TestChainOutcomes(t *testing.T) {
	p := chainProjection()
	cases := []struct {
		ref, outcome, text string
	}{
		{"0001", OutcomeChain, `Chain of 3 decisions for "0001" is current: proceed on 0003 instead of 0001: 0003 replaced it and is accepted; 4 findings on this page.`},
		{"0003", OutcomeChain, `Chain of 3 decisions for "0003" is current: proceed on 0003: it is accepted and nothing replaces it; 4 findings on this page.`},
		{"0004", OutcomeChain, `Chain of 2 decisions for "0004" is on hold (ungoverned): do not proceed on 0004: replaced by 0005, which is still proposed; 4 findings on this page.`},
		{"0006", OutcomeChain, `Chain of 1 decision for "0006" is on hold (dangling): do not proceed on 0006: replaced by 0099, which no record in this corpus holds; 4 findings on this page.`},
		{"0008", OutcomeChain, `Chain of 1 decision for "0008" is on hold (not-observed): do not proceed on 0008: replaced by payments:0001 in the payments decision log, which this server cannot see; 4 findings on this page.`},
		{"0007", OutcomeAmbiguousLocalID, `Returned 2 candidates for ambiguous local ref "0007"; 4 findings on this page.`},
		{"0042", OutcomeNotFound, `No local decision matches "0042"; 4 findings on this page.`},
		{"payments:0003", OutcomeFederated, `Named-log federation is unavailable for "payments:0003"; 4 findings on this page.`},
	}
	for _, tc := range cases {
		res := answerChain(p, ChainInput{Ref: tc.ref})
		if got := tree(t, res)["result"].(map[string]any)["outcome"]; got != tc.outcome {
			t.Errorf("%s: outcome %v, want %s", tc.ref, got, tc.outcome)
		}
		if res.Text != tc.text {
			t.Errorf("%s:\n got %s\nwant %s", tc.ref, res.Text, tc.text)
		}
	}
}

func TestChainFindingsChannel(t *testing.T) {
	p := chainProjection()
	first := answerChain(p, ChainInput{Ref: "0001", FindingsLimit: 2})
	fp := first.Structured.Result.(ChainAnswer).Findings
	if len(fp.Items) != 2 || fp.Cursor == nil {
		t.Fatalf("first page: %+v", fp)
	}
	// The findings cursor survives a change of ref, as get_decision's does.
	next := answerChain(p, ChainInput{Ref: "0004", FindingsLimit: 2, FindingsCursor: fp.Cursor})
	np := next.Structured.Result.(ChainAnswer).Findings
	if len(np.Items) != 2 || np.Items[0] == fp.Items[0] {
		t.Errorf("second page: %+v", np)
	}
	// Every outcome has the channel, the not-found one included.
	nf := answerChain(p, ChainInput{Ref: "0042", FindingsLimit: 2, FindingsCursor: fp.Cursor})
	if nf.Structured.Result.(NotFound).Findings.Items[0] != np.Items[0] {
		t.Error("not-found does not page the same findings")
	}

	for _, tc := range []struct {
		in   ChainInput
		want cursor.Reason
	}{
		{ChainInput{Ref: "0001", FindingsCursor: ptr("garbage")}, cursor.DecodeFailed},
		{ChainInput{Ref: "0001", FindingsLimit: 3, FindingsCursor: fp.Cursor}, cursor.QueryMismatch},
		{ChainInput{Ref: "0001", FindingsCursor: ptr(cursor.Mint(cursor.SearchFindings, p.Fingerprint, testFP, 1))}, cursor.WrongChannel},
	} {
		res := answerChain(p, tc.in)
		ic, ok := res.Structured.Result.(InvalidCursor)
		if !ok || ic.Reason != tc.want || res.Structured.CorpusHealth == nil {
			t.Errorf("%+v: %s", tc.in, res.Text)
		}
	}
}

// TestChainFindingsCursorsAreTheirOwn: get_decision's findings channel
// and this tool's hold the same findings under the same query shape, but
// each has its own scope, so a cursor of one given to the other is
// wrong-channel both ways, whatever the refs and however it would
// otherwise verify.
func TestChainFindingsCursorsAreTheirOwn(t *testing.T) {
	p := chainProjection()
	getCursor := answerGet(p, GetInput{Ref: "0001", Page: Page{FindingsLimit: 2}}).Structured.Result.(Found).Findings.Cursor
	chainCursor := answerChain(p, ChainInput{Ref: "0001", FindingsLimit: 2}).Structured.Result.(ChainAnswer).Findings.Cursor
	if getCursor == nil || chainCursor == nil || *getCursor == *chainCursor {
		t.Fatalf("cursors %v and %v: want two different findings cursors", getCursor, chainCursor)
	}
	reason := func(res Result) cursor.Reason {
		ic, ok := res.Structured.Result.(InvalidCursor)
		if !ok {
			return cursor.OK
		}
		return ic.Reason
	}
	cases := []struct {
		name string
		res  Result
		want cursor.Reason
	}{
		{"chain cursor to the chain", answerChain(p, ChainInput{Ref: "0004", FindingsLimit: 2, FindingsCursor: chainCursor}), cursor.OK},
		{"get_decision cursor to get_decision", answerGet(p, GetInput{Ref: "0004", Page: Page{FindingsLimit: 2, FindingsCursor: getCursor}}), cursor.OK},
		{"get_decision cursor to the chain", answerChain(p, ChainInput{Ref: "0001", FindingsLimit: 2, FindingsCursor: getCursor}), cursor.WrongChannel},
		{"chain cursor to get_decision", answerGet(p, GetInput{Ref: "0001", Page: Page{FindingsLimit: 2, FindingsCursor: chainCursor}}), cursor.WrongChannel},
		{"chain cursor to get_decision, not found", answerGet(p, GetInput{Ref: "0042", Page: Page{FindingsLimit: 2, FindingsCursor: chainCursor}}), cursor.WrongChannel},
		{"get_decision cursor to the chain, ambiguous", answerChain(p, ChainInput{Ref: "0007", FindingsLimit: 2, FindingsCursor: getCursor}), cursor.WrongChannel},
		{"chain cursor to get_decision's candidates", answerGet(p, GetInput{Ref: "0007", Page: Page{Cursor: chainCursor}}), cursor.WrongChannel},
	}
	for _, tc := range cases {
		if got := reason(tc.res); got != tc.want {
			t.Errorf("%s: %q (%s), want %q", tc.name, got, tc.res.Text, tc.want)
		}
	}
}

func TestChainVerdictShapes(t *testing.T) {
	p := chainProjection()
	cur := answerChain(p, ChainInput{Ref: "0002"}).Structured.Result.(ChainAnswer)
	if v, ok := cur.Verdict.(ChainCurrent); !ok || v.Verdict != lineage.Current || v.At != "0003" {
		t.Errorf("current: %+v", cur.Verdict)
	}
	if len(cur.Chain) != 3 || cur.Chain[0].Hop != -1 || cur.Chain[1].Hop != 0 || cur.Chain[2].Hop != 1 ||
		cur.Chain[0].Date != "2026-01-01" || cur.Chain[2].SourcePath != "docs/adr/0003-third.md" {
		t.Errorf("chain: %+v", cur.Chain)
	}
	hold := answerChain(p, ChainInput{Ref: "0009"}).Structured.Result.(ChainAnswer)
	if len(hold.Gaps) != 1 || hold.Gaps[0] != (ChainGap{At: "0009", Ref: "0007", Reason: lineage.Ambiguous}) {
		t.Errorf("gaps: %+v", hold.Gaps)
	}
	if v, ok := hold.Verdict.(ChainCurrent); !ok || v.At != "0009" {
		t.Errorf("a gap behind does not hold: %+v", hold.Verdict)
	}
}

func TestChainValidation(t *testing.T) {
	svc := New(corpusOf(), Options{Extended: true})
	cases := []struct{ args, want string }{
		{`{}`, "ref: is required"},
		{`{"ref":"x"}`, `ref: must be an ADR id such as "0042" (four or more digits, or a 26-character ULID), optionally prefixed with a lower-case log name as in "payments:0042", got "x"`},
		{`{"ref":"0001","findingsLimit":101}`, "findingsLimit: must be an integer from 1 to 100, got 101"},
		{`{"ref":"0001","limit":5,"cursor":"c"}`, `unknown arguments "limit", "cursor"`},
		{`{"ref":"0001","findingsCursor":7}`, "findingsCursor: must be a string, got number"},
	}
	for _, tc := range cases {
		res, err := svc.Call(context.Background(), ToolGetSupersessionChain, json.RawMessage(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		want := "Input validation error: Invalid arguments for tool get_supersession_chain: " + tc.want
		if !res.IsError || res.Text != want {
			t.Errorf("%s:\n got %q\nwant %q", tc.args, res.Text, want)
		}
	}
	reader := corpusOf()
	typed, _ := New(reader, Options{}).CallInput(context.Background(), ChainInput{Ref: "nope", FindingsLimit: -1})
	if !typed.IsError || reader.Opens() != 0 {
		t.Errorf("typed refusal: %q (opens %d)", typed.Text, reader.Opens())
	}
	if _, err := svc.Call(context.Background(), ToolGetSupersessionChain, json.RawMessage(`[1]`)); !errors.Is(err, ErrArgumentsNotObject) {
		t.Errorf("array arguments: %v", err)
	}
}

func TestChainCorpusUnavailable(t *testing.T) {
	svc := New(openFails(unavailableErr(corpus.DirNotFound)), Options{Extended: true})
	res, err := svc.Call(context.Background(), ToolGetSupersessionChain, json.RawMessage(`{"ref":"0001"}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "Configured ADR directory was not found." || res.Structured.CorpusHealth != nil {
		t.Errorf("%s", res.Text)
	}
}

// The goldens pin whole answers of both extended tools: key order, nulls,
// absent members, cursors and summary lines. Regenerate with
// go test ./app/... -update and review every diff.
func TestGoldenExtended(t *testing.T) {
	p := chainProjection()
	h, _ := sampleHistory()
	ctx := context.Background()
	svc := New(corpusOf(), Options{Extended: true, History: h})
	changes := func(in ChangesInput) func() Result {
		return func() Result {
			res, err := svc.CallInput(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
	}
	rewritten := &fakeHistory{}
	rewritten.commit("other", "0001-a.md=0001 accepted")
	gone := feed0(h)
	cases := []struct {
		name string
		res  func() Result
	}{
		{"chain-current", func() Result { return answerChain(p, ChainInput{Ref: "0002", FindingsLimit: 1}) }},
		{"chain-hold", func() Result { return answerChain(p, ChainInput{Ref: "0004"}) }},
		{"chain-gap", func() Result { return answerChain(p, ChainInput{Ref: "0009", FindingsLimit: 1}) }},
		{"chain-ambiguous", func() Result { return answerChain(p, ChainInput{Ref: "0007", FindingsLimit: 1}) }},
		{"chain-invalid-cursor", func() Result { return answerChain(p, ChainInput{Ref: "0001", FindingsCursor: ptr("x")}) }},
		{"changes-head", changes(ChangesInput{})},
		{"changes-replay", changes(ChangesInput{Since: ptr("0_"), Limit: 4})},
		{"changes-restart", func() Result {
			res, err := New(corpusOf(), Options{Extended: true, History: rewritten}).CallInput(ctx, ChangesInput{Since: &gone})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}},
		{"changes-invalid-cursor", changes(ChangesInput{Since: ptr("AAAA")})},
		{"changes-unavailable", func() Result {
			res, _ := New(corpusOf(), Options{Extended: true}).CallInput(ctx, ChangesInput{})
			return res
		}},
		{"changes-validation-error", func() Result {
			res, _ := svc.Call(ctx, ToolListDecisionChanges, json.RawMessage(`{"limit":500,"since":3}`))
			return res
		}},
	}
	g := goldie.New(t, goldie.WithFixtureDir(goldenDir))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g.Assert(t, tc.name, render(t, tc.res()))
		})
	}
}

// feed0 is the head cursor of h.
func feed0(h *fakeHistory) string {
	res, _ := New(corpusOf(), Options{Extended: true, History: h}).CallInput(context.Background(), ChangesInput{})
	return res.Structured.Result.(ChangesAnswer).Cursor
}

package app

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// goldenDir holds the app's goldens, in the module's one golden home
// beside the protocol transcripts.
const goldenDir = "../golden/testdata/answers"

// The goldens pin whole answers over the hand-built edge projection: key
// order, nulls, empty arrays, cursors and summary lines. Regenerate with
// go test ./app/... -update and review every diff.
func TestGoldenAnswers(t *testing.T) {
	p := edgeProjection()
	cases := []struct {
		name string
		res  func() Result
	}{
		{"search-results", func() Result {
			return answerSearch(p, SearchInput{Query: "cache", Page: Page{Limit: 2, FindingsLimit: 1}})
		}},
		{"search-empty", func() Result { return answerSearch(p, SearchInput{Query: "zzz"}) }},
		{"get-found", func() Result { return answerGet(p, GetInput{Ref: "0014"}) }},
		{"get-not-found", func() Result { return answerGet(p, GetInput{Ref: "0099"}) }},
		{"get-ambiguous", func() Result { return answerGet(p, GetInput{Ref: "0010", Page: Page{Limit: 1}}) }},
		{"get-federated", func() Result { return answerGet(p, GetInput{Ref: "payments:0020"}) }},
		{"superseded-entries", func() Result { return answerSuperseded(p, SupersededInput{}) }},
		{"invalid-cursor", func() Result {
			return answerSuperseded(p, SupersededInput{Page: Page{Cursor: ptr("not-a-real-cursor")}})
		}},
		{"corpus-unavailable", func() Result { return unavailable(&ports.UnavailableError{Reason: corpus.DirNotFound}) }},
		{"validation-error", func() Result {
			res, err := New(corpusOf(), Options{}).Call(context.Background(), ToolSearchDecisions,
				json.RawMessage(`{"bogus":1,"query":"  ","status":["x","accepted"],"limit":1.5}`))
			if err != nil {
				t.Fatal(err)
			}
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

func TestGoldenContext(t *testing.T) {
	p := edgeProjection()
	g := goldie.New(t, goldie.WithFixtureDir(goldenDir))
	g.Assert(t, "context-matches", render(t, answerContext(p, ContextInput{Files: []string{"src/app.ts", "src/events/a.ts"}, Page: Page{Limit: 3}}, nil)))
}

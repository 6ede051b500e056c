// Package askdev is the development set of adrkit ask (docs/ask.md):
// questions labeled with the record that answers them, asked of named
// corpora, and how often the answers are right, per kind of question.
// The set tunes domain/ask; TestAccuracy holds it to issue 31's
// thresholds and adrkit-bench prints the numbers.
package askdev

import (
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

// Question is one labeled question.
type Question struct {
	Corpus   string `json:"corpus"`
	Kind     string `json:"kind"`
	Question string `json:"question"`
	// Answer is the id the answer's decision, or the record in force on
	// its line, must have; empty for a question no record answers, whose
	// right answer is no_record.
	Answer string `json:"answer,omitempty"`
}

// Unanswerable is the kind of the questions no record answers.
const Unanswerable = "unanswerable"

//go:embed testdata/devset.json
var devset []byte

// Questions is the development set.
func Questions() ([]Question, error) {
	var qs []Question
	if err := json.Unmarshal(devset, &qs); err != nil {
		return nil, fmt.Errorf("the development set: %w", err)
	}
	return qs, nil
}

// corpora are the directories under the repository root whose docs/adr
// the questions are asked of, beside "generated" (corpusgen's).
var corpora = map[string]string{
	"adrkit": ".",
	"shop":   "internal/askdev/testdata/shop",
	"chains": "cmd/adrkit/testdata/corpora/chains",
	"mcp":    "adapters/mcp/testdata/corpus",
}

// Generated is the generated corpus the "generated" questions were
// written against.
var Generated = corpusgen.Config{N: 300, Seed: 7}

// Open is the named corpus, read from the repository at root: the files
// of its docs/adr, held in memory.
func Open(root, name string) (ports.CorpusReader, error) {
	files := corpusgen.New(Generated).Files
	if name != "generated" {
		dir, ok := corpora[name]
		if !ok {
			return nil, fmt.Errorf("no corpus %q", name)
		}
		dir = filepath.Join(root, dir, "docs", "adr")
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("corpus %s: %w", name, err)
		}
		files = map[string][]byte{}
		for _, e := range entries {
			if e.Type().IsRegular() {
				if files[e.Name()], err = os.ReadFile(filepath.Join(dir, e.Name())); err != nil {
					return nil, fmt.Errorf("corpus %s: %w", name, err)
				}
			}
		}
	}
	r := memcorpus.New("docs/adr")
	for _, f := range slices.Sorted(maps.Keys(files)) {
		r.WriteFile(f, files[f])
	}
	return r, nil
}

// Tally is how many questions of a kind were asked and answered right.
type Tally struct {
	Kind  string
	Asked int
	Right int
	// NoRecord is how many got no_record.
	NoRecord int
}

// Rate is the share answered right.
func (t Tally) Rate() float64 { return float64(t.Right) / float64(max(t.Asked, 1)) }

// Miss is a question answered wrong, with what was answered.
type Miss struct {
	Question
	Got app.AskAnswer
}

// Report is the accuracy of one run over the set.
type Report struct {
	// Kinds are the tallies per kind, by name.
	Kinds []Tally
	// Answerable adds up every kind but Unanswerable.
	Answerable Tally
	Misses     []Miss
}

// Run asks every question of its corpus, read from the repository at
// root, and tallies the answers.
func Run(ctx context.Context, root string, qs []Question) (Report, error) {
	services := map[string]*app.Service{}
	kinds := map[string]*Tally{}
	rep := Report{Answerable: Tally{Kind: "answerable"}}
	for _, q := range qs {
		svc := services[q.Corpus]
		if svc == nil {
			r, err := Open(root, q.Corpus)
			if err != nil {
				return Report{}, err
			}
			svc = app.New(r, app.Options{})
			services[q.Corpus] = svc
		}
		a, err := svc.Ask(ctx, app.AskInput{Question: q.Question})
		if err != nil {
			return Report{}, fmt.Errorf("%s: %q: %w", q.Corpus, q.Question, err)
		}
		right := a.Outcome == app.AskNoRecord
		if q.Answer != "" {
			right = a.Decision != nil && (string(a.Decision.ID) == q.Answer || a.Current != nil && string(a.Current.ID) == q.Answer)
		}
		t := kinds[q.Kind]
		if t == nil {
			t = &Tally{Kind: q.Kind}
			kinds[q.Kind] = t
		}
		tallies := []*Tally{t}
		if q.Kind != Unanswerable {
			tallies = append(tallies, &rep.Answerable)
		}
		for _, t := range tallies {
			t.Asked++
			if right {
				t.Right++
			}
			if a.Outcome == app.AskNoRecord {
				t.NoRecord++
			}
		}
		if !right {
			rep.Misses = append(rep.Misses, Miss{Question: q, Got: a})
		}
	}
	for _, t := range kinds {
		rep.Kinds = append(rep.Kinds, *t)
	}
	slices.SortFunc(rep.Kinds, func(a, b Tally) int { return cmp.Compare(a.Kind, b.Kind) })
	return rep, nil
}

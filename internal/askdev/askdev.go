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
	"github.com/adrkit/adrkit-go/domain/migrate"
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
// the questions are asked of, beside "generated" (corpusgen's); adopted
// are folders in other formats (migrate's fixtures of the formats in
// docs/adopting.md's table), asked once adrkit migrate has planned them.
var (
	corpora = map[string]string{
		"adrkit": "docs/adr",
		"shop":   "internal/askdev/testdata/shop/docs/adr",
		"chains": "cmd/adrkit/testdata/corpora/chains/docs/adr",
		"mcp":    "adapters/mcp/testdata/corpus/docs/adr",
		"nygard": "domain/migrate/testdata/folders/nygard",
		"madr3":  "domain/migrate/testdata/folders/madr3",
	}
	adopted = map[string]bool{"nygard": true, "madr3": true}
)

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
		dir = filepath.Join(root, dir)
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
		if adopted[name] {
			files = migrated(files)
		}
	}
	r := memcorpus.New("docs/adr")
	for _, f := range slices.Sorted(maps.Keys(files)) {
		r.WriteFile(f, files[f])
	}
	return r, nil
}

// migrated is the records adrkit migrate would leave for files: a
// decision in another format with its new frontmatter, a record as it
// is; anything else is left out.
func migrated(files map[string][]byte) map[string][]byte {
	var in []migrate.File
	for _, name := range slices.Sorted(maps.Keys(files)) {
		in = append(in, migrate.File{Name: name, Path: "docs/adr/" + name, Content: files[name]})
	}
	out := map[string][]byte{}
	for i, f := range migrate.Build(in, migrate.Options{}).Files {
		switch f.Action {
		case migrate.ActionMigrate:
			out[in[i].Name] = f.Content
		case migrate.ActionUnchanged:
			out[in[i].Name] = in[i].Content
		}
	}
	return out
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

// Answered is a question with its answer.
type Answered struct {
	Question
	Got   app.AskAnswer
	Right bool
}

// Report is the accuracy of one run over the set.
type Report struct {
	// Kinds are the tallies per kind, by name.
	Kinds []Tally
	// Answerable adds up every kind but Unanswerable.
	Answerable Tally
	// Answers are every question with its answer, in the set's order.
	Answers []Answered
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
		rep.Answers = append(rep.Answers, Answered{Question: q, Got: a, Right: right})
	}
	for _, t := range kinds {
		rep.Kinds = append(rep.Kinds, *t)
	}
	slices.SortFunc(rep.Kinds, func(a, b Tally) int { return cmp.Compare(a.Kind, b.Kind) })
	return rep, nil
}

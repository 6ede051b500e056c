package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// freshness drives one memoising Service over a generated corpus on disk
// and, after each change to the files, checks that every tool answers
// exactly as a Service without the memo does (the ground truth: it parses
// everything afresh), and that the fingerprint moved or stayed as the
// change says it must.
type freshness struct {
	t      *testing.T
	root   string
	dir    string
	memo   *app.Service
	lastFP string
	// fpAtStart is the fingerprint of the corpus as generated.
	fpAtStart string
}

const freshN = 200 // above the parallel-read threshold

func newFreshness(t *testing.T) *freshness {
	root := t.TempDir()
	dir, _, err := corpusgen.WriteRepo(root, corpusgen.Config{N: freshN, Seed: 5, Broken: 0.02, Federated: 1})
	if err != nil {
		t.Fatal(err)
	}
	f := &freshness{t: t, root: root, dir: dir, memo: app.New(filesystem.New(root, "docs/adr"), app.Options{})}
	f.lastFP = f.check("initial")
	f.fpAtStart = f.lastFP
	return f
}

// calls is every tool on arguments that touch the edited records.
func calls(id string) []corpusgen.Call {
	return []corpusgen.Call{
		{Tool: app.ToolGetDecision, Args: json.RawMessage(`{"ref":"` + id + `"}`)},
		{Tool: app.ToolSearchDecisions, Args: json.RawMessage(`{"query":"edited","limit":100}`)},
		{Tool: app.ToolSearchDecisions, Args: json.RawMessage(`{"query":"postgresql","limit":100}`)},
		{Tool: app.ToolGetDecisionContext, Args: json.RawMessage(`{"files":["services/payments/api/x.go","web/src/cart/a.tsx"],"limit":100}`)},
		{Tool: app.ToolListSuperseded, Args: json.RawMessage(`{"limit":100}`)},
	}
}

// check compares every answer of the memoising Service with a fresh
// Service's and returns the fingerprint.
func (f *freshness) check(step string) string {
	f.t.Helper()
	ctx := context.Background()
	truth := app.New(filesystem.New(f.root, "docs/adr"), app.Options{})
	fp := ""
	for _, c := range calls(corpusgen.ID(9, freshN)) {
		got, err := f.memo.Call(ctx, c.Tool, c.Args)
		if err != nil {
			f.t.Fatalf("%s: %s: %v", step, c.Tool, err)
		}
		want, err := truth.Call(ctx, c.Tool, c.Args)
		if err != nil {
			f.t.Fatalf("%s: %s (no memo): %v", step, c.Tool, err)
		}
		g, w := encode(f.t, got), encode(f.t, want)
		if !bytes.Equal(g, w) {
			f.t.Fatalf("%s: %s %s answered from stale data:\n got %.400s\nwant %.400s", step, c.Tool, c.Args, g, w)
		}
		h := got.Structured.CorpusHealth
		if fp != "" && h.Fingerprint != fp {
			f.t.Fatalf("%s: fingerprint differs between calls on an unchanged corpus", step)
		}
		fp = h.Fingerprint
	}
	return fp
}

func encode(t *testing.T, r app.Result) []byte {
	t.Helper()
	b, err := json.Marshal(struct {
		Text       string
		Structured any
		IsError    bool
	}{r.Text, r.Structured, r.IsError})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// changed checks after a change that must alter the fingerprint.
func (f *freshness) changed(step string) {
	f.t.Helper()
	fp := f.check(step)
	if fp == f.lastFP {
		f.t.Fatalf("%s: the fingerprint did not change", step)
	}
	f.lastFP = fp
}

func (f *freshness) path(i int) string {
	f.t.Helper()
	matches, err := filepath.Glob(filepath.Join(f.dir, corpusgen.ID(i, freshN)+"-*.md"))
	if err != nil || len(matches) != 1 {
		f.t.Fatalf("record %d: %v %v", i, matches, err)
	}
	return matches[0]
}

func TestFreshnessUnderMemo(t *testing.T) {
	f := newFreshness(t)
	rec := f.path(9)
	orig, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(rec)
	if err != nil {
		t.Fatal(err)
	}

	// One byte of the body, same size, and the old mtime put back: the
	// memo is keyed by the bytes' hash, not by what stat says.
	edited := bytes.Clone(orig)
	k := bytes.LastIndex(edited, []byte("\n## ")) + 4
	edited[k] ^= 0x20 // "Consequences" → "consequences"
	writeKeepingTime(t, rec, edited, st.ModTime())
	f.changed("one body byte")

	// The word "edited" enters a body: search must find it at once.
	edited2 := bytes.Replace(edited, []byte("\n## "), []byte("\nedited\n## "), 1)
	writeKeepingTime(t, rec, edited2, st.ModTime())
	f.changed("a word added")

	// Back to the original bytes: the original fingerprint again.
	initial := f.fpAtStart
	writeKeepingTime(t, rec, orig, st.ModTime())
	if fp := f.check("reverted"); fp != initial {
		t.Fatal("reverted: the fingerprint is not the original one")
	}
	f.lastFP = initial

	// A record added.
	added := bytes.Replace(orig, []byte(`id: "`+corpusgen.ID(9, freshN)+`"`), []byte(`id: "9999"`), 1)
	if err := os.WriteFile(filepath.Join(f.dir, "9999-added.md"), added, 0o644); err != nil {
		t.Fatal(err)
	}
	f.changed("record added")

	// A record removed.
	if err := os.Remove(f.path(10)); err != nil {
		t.Fatal(err)
	}
	f.changed("record removed")

	// A record renamed, bytes untouched: only its path changes, which
	// answers and the fingerprint show.
	if err := os.Rename(rec, filepath.Join(f.dir, corpusgen.ID(9, freshN)+"-renamed.md")); err != nil {
		t.Fatal(err)
	}
	f.changed("record renamed")

	// A valid record broken, then a broken one repaired.
	if err := os.WriteFile(f.path(11), []byte("no frontmatter\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.changed("record broken")
	if err := os.WriteFile(f.path(11), orig, 0o644); err != nil {
		t.Fatal(err)
	}
	f.changed("record repaired (as a duplicate of another id)")
}

// TestFreshnessManyEdits makes many small edits in a row, each checked
// against the ground truth, so that the parse cache's eviction and the
// projection memo's reuse are both exercised.
func TestFreshnessManyEdits(t *testing.T) {
	f := newFreshness(t)
	for i := range 6 {
		p := f.path(20 + i)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, strings.Repeat("x", i+1)...)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		f.changed("append to record " + corpusgen.ID(20+i, freshN))
	}
}

func writeKeepingTime(t *testing.T, p string, b []byte, mtime time.Time) {
	t.Helper()
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// TestServerBinaryFreshness drives the built adrkit-mcp, whose Service
// memoises parses and projections: one byte of a record edited between two
// calls (same size, old mtime restored) changes the answer and the
// fingerprint, and so do a record added, removed and renamed.
func TestServerBinaryFreshness(t *testing.T) {
	if testing.Short() {
		t.Skip("builds adrkit-mcp")
	}
	tmp := t.TempDir()
	bin, err := goBuild(context.Background(), tmp, "adrkit-mcp", "github.com/adrkit/adrkit-go/cmd/adrkit-mcp")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(tmp, "repo")
	const n = 150
	dir, _, err := corpusgen.WriteRepo(root, corpusgen.Config{N: n, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := startServer(bin, root)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.stop()
	if err := srv.initialize(); err != nil {
		t.Fatal(err)
	}

	type answer struct {
		CorpusHealth struct {
			Fingerprint string `json:"fingerprint"`
			RecordCount int    `json:"recordCount"`
		} `json:"corpusHealth"`
		Result struct {
			Outcome  string `json:"outcome"`
			Decision struct {
				Body       string `json:"body"`
				SourcePath string `json:"sourcePath"`
			} `json:"decision"`
		} `json:"result"`
	}
	get := func(id string) answer {
		t.Helper()
		raw, err := srv.callStructured("get_decision", json.RawMessage(`{"ref":"`+id+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		var a answer
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatal(err)
		}
		return a
	}

	id := corpusgen.ID(4, n)
	matches, _ := filepath.Glob(filepath.Join(dir, id+"-*.md"))
	if len(matches) != 1 {
		t.Fatalf("record %s: %v", id, matches)
	}
	rec := matches[0]
	before := get(id)
	if before.Result.Outcome != "found" || before.CorpusHealth.RecordCount != n {
		t.Fatalf("before: %+v", before)
	}

	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(rec)
	if err != nil {
		t.Fatal(err)
	}
	k := bytes.LastIndex(b, []byte("\n## ")) + 4
	b[k] ^= 0x20
	if err := os.WriteFile(rec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(rec, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	after := get(id)
	if after.CorpusHealth.Fingerprint == before.CorpusHealth.Fingerprint || after.Result.Decision.Body == before.Result.Decision.Body {
		t.Fatal("one edited byte was not seen by the next call")
	}

	added := filepath.Join(dir, "99999-added.md")
	if err := os.WriteFile(added, bytes.Replace(b, []byte(`id: "`+id+`"`), []byte(`id: "99999"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if a := get("99999"); a.Result.Outcome != "found" || a.CorpusHealth.RecordCount != n+1 {
		t.Fatalf("added record: %+v", a)
	}
	if err := os.Remove(added); err != nil {
		t.Fatal(err)
	}
	if a := get("99999"); a.Result.Outcome != "not-found" || a.CorpusHealth.Fingerprint != after.CorpusHealth.Fingerprint {
		t.Fatalf("removed record: %+v", a)
	}
	renamed := filepath.Join(dir, id+"-renamed.md")
	if err := os.Rename(rec, renamed); err != nil {
		t.Fatal(err)
	}
	a := get(id)
	if a.Result.Decision.SourcePath != "docs/adr/"+filepath.Base(renamed) || a.CorpusHealth.Fingerprint == after.CorpusHealth.Fingerprint {
		t.Fatalf("renamed record: %+v", a)
	}
}

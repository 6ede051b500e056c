package hooks

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/markers"
)

// The key changes with anything the answer is worked out from, and with
// nothing else.
func TestAnswerKey(t *testing.T) {
	file := func(name, body string) app.ReadFile {
		return app.ReadFile{Path: "docs/adr/" + name, Sum: sha256.Sum256([]byte(body))}
	}
	snap := []app.ReadFile{file("0001-a.md", "one")}
	files := []string{"src/a.go"}
	scans := []markers.FileScan{{Path: "src/a.go", State: markers.Absent, FileBytes: -1}}
	build, root := "v1", "/r"
	key := func() string { return CorpusKey(build, root, "/r/docs/adr", snap).AnswerKey(files, scans) }
	k0 := key()
	if k0 == "" || key() != k0 {
		t.Fatal("the key is not a function of its inputs")
	}
	seen := map[string]string{k0: "start"}
	change := func(what string, do func()) {
		t.Helper()
		do()
		k := key()
		if prev, ok := seen[k]; ok {
			t.Errorf("%s: the key is that of %s", what, prev)
		}
		seen[k] = what
	}
	change("a record's bytes", func() { snap = []app.ReadFile{file("0001-a.md", "two")} })
	change("a new file", func() { snap = append(snap, file("0002-b.md", "")) })
	change("a file left out", func() { snap[1] = app.ReadFile{Path: snap[1].Path, Exclusion: corpus.ExcludedTooLarge} })
	change("another file asked about", func() { files = []string{"src/b.go"} })
	change("a marker", func() {
		scans = []markers.FileScan{{Path: "src/b.go", State: markers.Scanned, Scan: markers.Scan{Declarations: []markers.Declaration{{Ref: "0001", Line: 1}}}}}
	})
	change("another build", func() { build = "v2" })
	change("another root", func() { root = "/s" })
}

func TestAnswerRoundTrip(t *testing.T) {
	dir := t.TempDir()
	blocks := []Block{{Path: "a.go", Lines: []string{"governs: 0001 \"x\""}, History: true}}
	if _, _, ok := LoadAnswer(dir, "k"); ok {
		t.Fatal("an answer before any was kept")
	}
	if err := StoreAnswer(dir, "k", blocks, 3); err != nil {
		t.Fatal(err)
	}
	got, errs, ok := LoadAnswer(dir, "k")
	if !ok || errs != 3 || len(got) != 1 || got[0].Path != "a.go" || !slices.Equal(got[0].Lines, blocks[0].Lines) || !got[0].History {
		t.Fatalf("LoadAnswer = %+v, %d, %v", got, errs, ok)
	}
	if _, _, ok := LoadAnswer(dir, ""); ok {
		t.Fatal("an answer for no key")
	}
	if err := os.WriteFile(filepath.Join(dir, "answers", "broken"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := LoadAnswer(dir, "broken"); ok {
		t.Fatal("a broken answer was read")
	}
	for i := range MaxAnswers + 3 {
		if err := StoreAnswer(dir, fmt.Sprint("k", i), blocks, 0); err != nil {
			t.Fatal(err)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "answers")); len(entries) > MaxAnswers {
		t.Fatalf("%d answers kept, at most %d", len(entries), MaxAnswers)
	}
}

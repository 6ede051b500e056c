package migrate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// loadFolder reads a fixture folder as the adapter would.
func loadFolder(t *testing.T, name string) []File {
	t.Helper()
	dir := filepath.Join("testdata", "folders", name)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []File
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, File{Name: e.Name(), Path: "docs/adr/" + e.Name(), Content: b})
	}
	return files
}

func TestDump(t *testing.T) {
	for _, f := range []string{"nygard", "madr2", "madr3", "log4brains"} {
		p := Build(loadFolder(t, f), Options{Rename: f == "madr2"})
		b, _ := json.MarshalIndent(p, "", "  ")
		t.Logf("%s\n%s", f, b)
		for _, fp := range p.Files {
			if fp.Content != nil {
				t.Logf("%s\n%s", fp.Path, fp.Content[:min(len(fp.Content), 400)])
			}
		}
	}
}

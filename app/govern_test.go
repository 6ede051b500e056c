package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/js/glob"
)

// mayMatch is false only where the glob cannot match: every pattern
// recorded from the reference and some of our own, against the
// reference's candidates and more.
func TestMayMatch(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "domain", "js", "glob", "testdata", "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Candidates []string `json:"candidates"`
		Patterns   []struct {
			Pattern string   `json:"pattern"`
			Extra   []string `json:"extra"`
		} `json:"patterns"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	patterns := []string{"src/**", "src/**/*", "a/**", "a/b/**/c", "a/{b,c}/d", "a/b/*(x)", "a/b/+(x)", "a/./b/*", "./a/*",
		"a//b/*", "a/b/", "a/b", ".github/**", "A/b/*", "a/../a/b", "a/b/[c]", "a/b\\/c", "a/b/!(c)", "a.b/c-d_e/*.go",
		"services/session/**", "services/session/store.go", "/abs/**", "a/...//x", "a/b|c", "a/b/(x|y)", "a/b/@(|c)"}
	candidates := append([]string{"a", "a/", "a/b", "a/b/", "a/b/c", "a/b/x", "a/b/xx", "A/b/x", "a/c/d", "src", "src/", "src/a/b",
		".github/x.yml", "a.b/c-d_e/f.go", "services/session", "services/session/store.go", "abs/x", "/abs/x", "a/.../x"}, rec.Candidates...)
	for _, p := range rec.Patterns {
		patterns = append(patterns, p.Pattern)
		candidates = append(candidates, p.Extra...)
	}
	skipped := 0
	for _, p := range patterns {
		g, err := glob.Compile(p)
		if err != nil {
			continue
		}
		for _, c := range candidates {
			c = affects.NormalizePath(c)
			if !mayMatch(p, []string{c}) {
				skipped++
				if g.Match(c) {
					t.Errorf("mayMatch(%q, %q) is false, and the glob matches", p, c)
				}
			}
		}
	}
	if skipped < 1000 {
		t.Errorf("mayMatch ruled out only %d pairs: the test proves little", skipped)
	}
}

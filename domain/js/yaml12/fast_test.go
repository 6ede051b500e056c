package yaml12

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// checkFastPath requires that, if the fast path reads text, the full path
// reads it too, to the same value and the same Lines (with and without
// lines recorded). It reports whether the fast path read it.
func checkFastPath(t *testing.T, text string) bool {
	t.Helper()
	v, lines, ok := fastParse(text, true)
	if !ok {
		return false
	}
	full, err := parseFull(text, true)
	if err != nil {
		t.Errorf("fast path read %q, full path refuses it: %v", text, err)
		return true
	}
	if got, want := describeString(v), describeString(full.Value); got != want {
		t.Errorf("fast path value of %q:\n got %s\nwant %s", text, got, want)
	}
	if !maps.Equal(lines, full.Lines) {
		t.Errorf("fast path lines of %q:\n got %v\nwant %v", text, lines, full.Lines)
	}
	v2, lines2, ok2 := fastParse(text, false)
	if !ok2 || lines2 != nil || describeString(v2) != describeString(v) {
		t.Errorf("fast path without lines differs on %q", text)
	}
	return true
}

// fastPathInputs gathers documents of every kind the package tests know:
// the reference cases, the known divergences, the fuzz seeds, generated
// frontmatter, and variants of all of them one edit away (a line
// dropped, doubled, indented or outdented, a comment or blanks added), so
// that both sides of every boundary of the fast path are crossed.
func fastPathInputs(t *testing.T) []string {
	t.Helper()
	var docs []string
	for _, f := range []string{"testdata/reference.json", "testdata/divergences.json"} {
		for _, c := range loadCases(t, f) {
			docs = append(docs, c.YAML)
		}
	}
	seeds, _ := filepath.Glob("testdata/fuzz/*/*")
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			if q, ok := strings.CutPrefix(line, "string("); ok {
				if text, err := strconv.Unquote(strings.TrimSuffix(q, ")")); err == nil {
					docs = append(docs, text)
				}
			}
		}
	}
	for seed := range int64(2) {
		c := corpusgen.New(corpusgen.Config{N: 40, Seed: seed + 1, Broken: 0.05, Federated: 2})
		for _, name := range c.Names() {
			text := string(c.Files[name])
			rest, ok := strings.CutPrefix(text, "---\n")
			if !ok {
				continue
			}
			if i := strings.Index(rest, "\n---\n"); i >= 0 {
				docs = append(docs, rest[:i+1])
			}
		}
	}
	docs = append(docs,
		"a:\n- x\n- y\nb: 1\n",
		"a:\n  - k: 1\n    l: [2, \"3\"]\n  - k: 2\n",
		"- a\n",
		"a: b # c\nd: 'e''f' # g\nh: \"i\\\"j\\\\k\"\n",
		"a: [ ]\nb: []\nc: [x , y ]\n",
		"a:\n  b:\n    c:\n      d: e\n",
		"a:   \nb:\n\n  # note\n  c: 1\n",
		"a: http://x.example/y?z=1\nb: C#\nc: 50%\nd: x@y\n",
		"a: v:\n", "a: v: w\n", "a: [v:]\n", "a: [x,]\n", "a: [x,,y]\n", "a: [x] y\n", "a: \"x\"#c\n",
		"a: b\n  c\n", "a:\n - b\n  - c\n", "- a: 1\n  - b\n", "a:\n  b: 1\n c: 2\n",
		"true: 1\n", "null: 1\n", "a: 1\na: 2\n", "_x-1: y\n", "a-: b\n",
		"a: 'x\n  y'\n", "a: \"x\\ty\"\n", "key: value\r\n", "a:\tb\n", "a: b\u2028c\n",
		"a: |\n  x\n", "a: &x 1\n", "a: !!str 1\n", "a: {b: c}\n", "%YAML 1.2\n---\na: 1\n",
		"a: 1\n...\n", "a: 1\n--- \n", "? a\n: b\n", "a:\n-\n", "a:\n- # c\n", "a:\n  - - b\n",
		"a: -1\n", "a: .5\n", "a: 0x1F\n", "a: ~\n", "a: [~, true, 1.5, '', \"\"]\n",
		"a: b\n# tail\n", "\n\na: b", "a: b\nc: d", "  a: b\n", "a:\n    - x\n    - y\nb: z\n",
	)
	var out []string
	for _, d := range docs {
		out = append(out, d)
		lines := strings.SplitAfter(d, "\n")
		if _, _, ok := fastParse(d, false); !ok || len(lines) > 40 {
			// Edits of what the fast path reads reach both sides of its
			// boundaries; edits of the rest mostly stay outside.
			continue
		}
		for i := range lines {
			edit := func(l string) {
				v := slices.Clone(lines)
				v[i] = l
				out = append(out, strings.Join(v, ""))
			}
			edit("")
			edit(lines[i] + lines[i])
			edit(" " + lines[i])
			edit(strings.TrimPrefix(lines[i], " "))
			edit("# x\n" + lines[i])
			edit(strings.Replace(lines[i], "\n", "  \n", 1))
			edit(strings.Replace(lines[i], "\n", " # c\n", 1))
			edit(strings.Replace(lines[i], ": ", ":  ", 1))
			edit(strings.Replace(lines[i], "- ", "-  ", 1))
		}
	}
	return out
}

// TestFastPathMatchesFullPath is the fast path's contract: whatever it
// reads, it reads as the full path does.
func TestFastPathMatchesFullPath(t *testing.T) {
	inputs := fastPathInputs(t)
	read := 0
	for _, text := range inputs {
		if checkFastPath(t, text) {
			read++
		}
	}
	// The fast path must actually carry the common shapes, or this test
	// proves nothing.
	if read < len(inputs)/3 {
		t.Errorf("the fast path read only %d of %d documents", read, len(inputs))
	}
	t.Logf("fast path read %d of %d documents", read, len(inputs))
}

// TestFastPathReadsGeneratedFrontmatter checks that the frontmatter the
// benchmarks use takes the fast path: otherwise its figures would measure
// something else.
func TestFastPathReadsGeneratedFrontmatter(t *testing.T) {
	c := corpusgen.New(corpusgen.Config{N: 200, Seed: 1})
	for _, name := range c.Names() {
		rest, _ := strings.CutPrefix(string(c.Files[name]), "---\n")
		yaml := rest[:strings.Index(rest, "\n---\n")+1]
		if _, _, ok := fastParse(yaml, false); !ok {
			t.Errorf("%s: the fast path does not read\n%s", name, yaml)
		}
	}
}

// FuzzFastPath checks the contract on arbitrary text. Seeds are the
// FuzzParse ones.
func FuzzFastPath(f *testing.F) {
	f.Add("id: \"0001\"\ntitle: Adopt\nstatus: accepted\ndate: 2026-01-01\ntags: [a, b]\naffects:\n  - type: path\n    pattern: \"src/**\"\n")
	f.Add("a:\n- x\n- 'y''z'\nb:\n  c: [1, \"2\", ~]\n")
	f.Fuzz(func(t *testing.T, text string) {
		checkFastPath(t, text)
	})
}

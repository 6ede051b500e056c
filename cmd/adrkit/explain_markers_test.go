package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/internal/fifotest"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/internal/linktest"
)

// TestExplainMarkers runs the scenarios of testdata/markers: each is a
// repository (records, source files, links) and, in its "want" section,
// the buckets explain must give for some files. The scenarios restate the
// reference implementation's own explain and marker cases as facts; the
// comment of each says which.
//
// The want section is a list of explain calls: an unindented line of
// files ($ROOT stands for the repository's absolute path, shown with
// forward slashes), then one indented line per non-empty part of the
// answer:
//
//	governing: | proposals: | history:  records, as ID[matchers](declarations)
//	findings:  marker findings, as rule/severity/ref
//	unread:    files not read for markers, as path state
//	withheld:  the corpus's error findings, as rule/path, when the
//	           buckets were withheld for them (status 1)
//
// Special sections: "symlinks" (one "PATH -> TARGET" per line) and
// "fifos" (one path per line) make what a txtar file cannot hold;
// "want.windows" replaces "want" on Windows.
func TestExplainMarkers(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "markers", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := parseSections(string(data))
			root := filepath.Join(t.TempDir(), "repo")
			must(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
			for _, s := range sections {
				switch s.name {
				case "want", "want.windows":
				case "symlinks":
					for _, l := range nonEmptyLines(s.data) {
						p, target, _ := strings.Cut(l, " -> ")
						dst := filepath.Join(root, filepath.FromSlash(p))
						must(t, os.MkdirAll(filepath.Dir(dst), 0o755))
						linktest.Make(t, target, dst)
					}
				case "fifos":
					fifotest.Require(t)
					for _, l := range nonEmptyLines(s.data) {
						mkfifo(t, filepath.Join(root, filepath.FromSlash(l)))
					}
				default:
					dst := filepath.Join(root, filepath.FromSlash(s.name))
					must(t, os.MkdirAll(filepath.Dir(dst), 0o755))
					must(t, os.WriteFile(dst, []byte(s.data), 0o644))
				}
			}
			// A "want.windows" section, where there is one, is the answer
			// on Windows, which reads a backslash as a separator and a
			// drive as leaving the tree (markers.InTreeOn).
			want := ""
			for _, s := range sections {
				if s.name == "want" && want == "" || s.name == "want.windows" && runtime.GOOS == "windows" {
					want = s.data
				}
			}
			r := newRunner(t)
			var got strings.Builder
			for _, l := range strings.Split(want, "\n") {
				if l == "" || strings.HasPrefix(l, " ") {
					continue
				}
				args := append([]string{"--cwd", root, "explain", "--json"}, strings.Fields(strings.ReplaceAll(l, "$ROOT", root))...)
				o := r.run(args...)
				if o.code == factory.ExitUsage && strings.Contains(o.stderr, "is not a path inside the repository") && o.stdout == "" {
					// A path outside the repository is refused (ADR 0033).
					got.WriteString(l + "\n  refused: outside the repository\n")
					continue
				}
				d := describeExplain(t, o.stdout)
				if want := map[bool]int{false: 0, true: 1}[strings.Contains(d, "  withheld: ")]; o.code != want || o.stderr != "" {
					t.Fatalf("explain %s: want status %d: %s", l, want, o)
				}
				// Paths are shown with forward slashes on every system.
				got.WriteString(l + "\n" + strings.ReplaceAll(d, filepath.ToSlash(root), "$ROOT"))
			}
			if got.String() != want {
				t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
			}
		})
	}
}

type section struct{ name, data string }

// parseSections reads a txtar archive: "-- name --" lines open sections.
func parseSections(text string) []section {
	var out []section
	cur := -1
	for _, line := range strings.SplitAfter(text, "\n") {
		trimmed := strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			out = append(out, section{name: trimmed[3 : len(trimmed)-3]})
			cur = len(out) - 1
			continue
		}
		if cur >= 0 {
			out[cur].data += line
		}
	}
	return out
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// describeExplain writes the indented want lines of one explain --json
// answer.
func describeExplain(t *testing.T, out string) string {
	t.Helper()
	type entry struct {
		ID            string `json:"id"`
		FiredMatchers []struct {
			Type, Pattern string
		} `json:"firedMatchers"`
		DeclaredBy []struct {
			Path string
			Line int
		} `json:"declaredBy"`
	}
	var doc struct {
		Result struct {
			Governing       []entry `json:"governing"`
			ActiveProposals []entry `json:"activeProposals"`
			History         []entry `json:"history"`
			Findings        struct {
				Items []struct{ Rule, Severity, Pattern, Field, Path string }
			} `json:"findings"`
		} `json:"result"`
		Markers struct {
			Files []struct{ Path, State string }
		} `json:"markers"`
		Withheld bool `json:"withheld"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var b strings.Builder
	bucket := func(name string, es []entry) {
		if len(es) == 0 {
			return
		}
		var parts []string
		for _, e := range es {
			s := e.ID
			if len(e.FiredMatchers) > 0 {
				var m []string
				for _, f := range e.FiredMatchers {
					m = append(m, f.Type+" "+f.Pattern)
				}
				s += "[" + strings.Join(m, ",") + "]"
			}
			if len(e.DeclaredBy) > 0 {
				var d []string
				for _, s := range e.DeclaredBy {
					d = append(d, s.Path+":"+strconv.Itoa(s.Line))
				}
				s += "(" + strings.Join(d, ",") + ")"
			}
			parts = append(parts, s)
		}
		b.WriteString("  " + name + ": " + strings.Join(parts, " ") + "\n")
	}
	bucket("governing", doc.Result.Governing)
	bucket("proposals", doc.Result.ActiveProposals)
	bucket("history", doc.Result.History)
	var fs []string
	for _, f := range doc.Result.Findings.Items {
		if f.Field == "marker" {
			fs = append(fs, f.Rule+"/"+f.Severity+"/"+f.Pattern)
		}
	}
	if len(fs) > 0 {
		b.WriteString("  findings: " + strings.Join(fs, " ") + "\n")
	}
	var unread []string
	for _, f := range doc.Markers.Files {
		if f.State != "scanned" {
			unread = append(unread, f.Path+" "+f.State)
		}
	}
	if len(unread) > 0 {
		b.WriteString("  unread: " + strings.Join(unread, ", ") + "\n")
	}
	if doc.Withheld {
		var errs []string
		for _, f := range doc.Result.Findings.Items {
			if f.Severity == "error" {
				errs = append(errs, f.Rule+"/"+f.Path)
			}
		}
		b.WriteString("  withheld: " + strings.Join(errs, " ") + "\n")
	}
	return b.String()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	fifotest.Make(t, p)
}

// With --rev, markers are read from the revision's tree, like the
// decisions: the files and the corpus are of one moment.
func TestExplainMarkersAtRevision(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	must(t, os.MkdirAll(root, 0o755))
	repo := gittest.Init(t, root)
	record := func(id string) string {
		return "---\nid: \"" + id + "\"\ntitle: Decision " + id + "\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@dana\"]\n---\n"
	}
	files := map[string]string{
		"docs/adr/0001-one.md": record("0001"),
		"docs/adr/0002-two.md": record("0002"),
		"src/a.go":             "// @adr 0001\npackage a\n",
	}
	repo.Commit(plumbing.ZeroHash, "first", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), files)
	for p, c := range files {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755))
		must(t, os.WriteFile(filepath.Join(root, p), []byte(c), 0o644))
	}
	must(t, os.WriteFile(filepath.Join(root, "src/a.go"), []byte("// @adr 0002\npackage a\n"), 0o644))

	r := newRunner(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--cwd", root, "--rev", "HEAD", "explain", "--json", "src/a.go"}, "  governing: 0001(src/a.go:1)\n"},
		{[]string{"--cwd", root, "explain", "--json", "src/a.go"}, "  governing: 0002(src/a.go:1)\n"},
		// An absolute path inside the repository is its repository path
		// (ADR 0033), read at the revision as the relative one is.
		{[]string{"--cwd", root, "--rev", "HEAD", "explain", "--json", filepath.Join(root, "src", "a.go")}, "  governing: 0001(src/a.go:1)\n"},
	} {
		o := r.run(tc.args...)
		if o.code != 0 {
			t.Fatalf("%q: %s", tc.args, o)
		}
		if got := describeExplain(t, o.stdout); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.args, got, tc.want)
		}
	}
}

// A binary file is read like any other: the reference decodes it as
// UTF-8 with replacement characters, which never make or hide the ASCII
// of a marker line, so a marker line among NULs and invalid bytes
// declares (reference: markers-scan.test.ts, "does not infer truncation
// when invalid UTF-8 expands during decoding").
func TestExplainMarkersBinary(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	must(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "docs", "adr"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "docs", "adr", "0001-one.md"),
		[]byte("---\nid: \"0001\"\ntitle: The first decision\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@dana\"]\n---\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(root, "assets"), 0o755))
	data := append([]byte{0, 0xff, 0xfe, 0xc3, '\n'}, []byte("// @adr 0001\n")...)
	data = append(data, make([]byte, 3000)...)
	must(t, os.WriteFile(filepath.Join(root, "assets", "blob.bin"), data, 0o644))
	o := newRunner(t).run("--cwd", root, "explain", "--json", "assets/blob.bin")
	if got := describeExplain(t, o.stdout); o.code != 0 || got != "  governing: 0001(assets/blob.bin:2)\n" {
		t.Errorf("got %q: %s", got, o)
	}
}

package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/glob"
	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

func governReader() *memcorpus.Reader { return corpusOf(governFiles()...) }

// governFiles are the records of governReader.
func governFiles() []fakeFile {
	return []fakeFile{
		regular("0001-pg.md", "---\nid: \"0001\"\ntitle: Use PostgreSQL\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@a\"]\n"+
			"affects:\n  - type: path\n    pattern: \"db/**\"\n  - type: package\n    pattern: \"pg@not a range\"\n---\n\n## Decision\n\nWe use PostgreSQL. Always.\n"),
		regular("0002-mongo.md", "---\nid: \"0002\"\ntitle: Use MongoDB\nstatus: rejected\ndate: 2026-01-01\n"+
			"affects:\n  - type: path\n    pattern: \"db/**\"\n---\n\n## Decision\n\nNo.\n"),
		regular("0003-logs.md", "---\nid: \"0003\"\ntitle: Log JSON\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@a\"]\n---\n"),
		regular("0004-broken.md", "---\nid: \"0004\"\ntitle: Broken\nstatus: approved\ndate: 2026-01-01\n"+
			"affects:\n  - type: path\n    pattern: \"db/**\"\n---\n"),
	}
}

// Govern answers from the valid records of a corpus with errors, with the
// decision sentence of governing records only, and markers count.
func TestGovern(t *testing.T) {
	s := New(governReader(), Options{})
	rep := MarkerReport{Files: []markers.FileScan{{Path: "db/conn.go", State: markers.Scanned,
		Scan: markers.Scan{Declarations: []markers.Declaration{{Path: "db/conn.go", Ref: "0003", ID: "0003", Line: 2}}}}}}
	g, err := s.Govern(context.Background(), GovernInput{Files: []string{"db/conn.go", "README.md", "db/conn.go"}, Markers: rep})
	if err != nil {
		t.Fatal(err)
	}
	if g.Errors != 1 || len(g.Files) != 2 || g.Files[0].Path != "README.md" || g.Files[0].Covered() {
		t.Fatalf("governance %+v", g)
	}
	f := g.Files[1]
	if len(f.Governing) != 2 || f.Governing[0].ID != "0001" || f.Governing[0].Decision != "We use PostgreSQL." ||
		f.Governing[1].ID != "0003" || len(f.Governing[1].DeclaredBy) != 1 || f.Governing[1].Decision != "" {
		t.Fatalf("governing %+v", f.Governing)
	}
	if len(f.History) != 1 || f.History[0].ID != "0002" || f.History[0].Decision != "" {
		t.Fatalf("history %+v", f.History)
	}
	d, err := s.Digest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if d.Records != 3 || d.Errors != 1 || len(d.Rejected) != 1 || d.Rejected[0].ID != "0002" ||
		len(d.Counts) != 2 || d.Counts[0] != (StatusCount{adr.StatusAccepted, 2}) || d.Counts[1] != (StatusCount{adr.StatusRejected, 1}) {
		t.Fatalf("digest %+v", d)
	}
}

func TestGovernUnavailable(t *testing.T) {
	s := New(openFails(unavailableErr("dir-not-found")), Options{})
	if _, err := s.Govern(context.Background(), GovernInput{Files: []string{"a"}}); err == nil {
		t.Fatal("no error for an unusable corpus")
	}
	if _, err := s.Digest(context.Background()); err == nil {
		t.Fatal("no error for an unusable corpus")
	}
}

// indexReader is a corpus with everything Govern reads: negated, dot,
// repo-qualified, bad and non-path matchers, a line of supersession on
// hold, history, proposals, an id held twice and a record with errors.
func indexFiles() []fakeFile {
	head := "---\nid: \"%s\"\ntitle: %s\nstatus: %s\ndate: 2026-01-01\ndeciders: [\"@a\"]\n"
	f := func(name, id, title, status, rest, body string) fakeFile {
		return regular(name, fmt.Sprintf(head, id, title, status)+rest+"---\n"+body)
	}
	return append(governFiles(),
		f("0005-svc.md", "0005", "Services speak gRPC", "accepted",
			"affects:\n  - type: path\n    pattern: \"svc/**\"\n  - type: path\n    pattern: \"svc/legacy/**\"\n    negate: true\n"+
				"  - type: path\n    pattern: \"**/*.proto\"\n    repo: other/log\n",
			"\n## Decision\n\nServices speak *gRPC* to each other.\n"),
		f("0006-svc-http.md", "0006", "Services speak HTTP", "proposed",
			"supersedes: [\"0005\"]\naffects:\n  - type: path\n    pattern: \"svc/**\"\n", "\n## Decision\n\nHTTP it is.\n"),
		f("0007-dot.md", "0007", "CI in GitHub Actions", "accepted",
			"relatesTo: [\"0005\"]\naffects:\n  - type: path\n    pattern: \".github/**\"\n  - type: path\n    pattern: \"/abs/**\"\n"+
				"  - type: path\n    pattern: \"**/*\"\n", "\nNo decision heading.\n"),
		f("0008-old.md", "0008", "Services speak SOAP", "superseded",
			"supersededBy: \"0005\"\naffects:\n  - type: path\n    pattern: \"svc/*.go\"\n", "\n## Decision\n\nSOAP.\n"),
		f("0009-twice.md", "0009", "Twice A", "accepted", "affects:\n  - type: path\n    pattern: \"x/**\"\n", ""),
		f("0009-twice-b.md", "0009", "Twice B", "deprecated", "conflictsWith: [\"0001\"]\naffects:\n  - type: path\n    pattern: \"x/**\"\n", ""),
	)
}

// GovernFrom over the index of a corpus answers as Govern over the
// corpus itself, and DigestFrom as Digest, for every file and marker.
func TestGovernFromIndex(t *testing.T) {
	ctx := context.Background()
	for _, files := range [][]fakeFile{governFiles(), indexFiles(), nil} {
		s := New(corpusOf(files...), Options{})
		ix, read, err := s.IndexCorpus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(read) != len(files) {
			t.Fatalf("%d files read, want %d", len(read), len(files))
		}
		p, err := s.Project(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ix, IndexOf(p)) {
			t.Fatal("IndexCorpus differs from IndexOf(Project)")
		}
		decl := func(path, ref string, line int) markers.FileScan {
			return markers.FileScan{Path: path, State: markers.Scanned,
				Scan: markers.Scan{Declarations: []markers.Declaration{{Path: path, Ref: ref, ID: ref, Line: line}}}}
		}
		holds := 0
		for _, in := range []GovernInput{
			{Files: []string{"db/conn.go"}},
			{Files: []string{"svc/api.go", "svc/legacy/old.go", ".github/workflows/ci.yml", "x/y", "README.md"}},
			{Files: []string{"svc/api.go"}, Markers: MarkerReport{Files: []markers.FileScan{decl("svc/api.go", "0008", 3)}}},
			{Files: []string{"a/b.go"}, Markers: MarkerReport{Files: []markers.FileScan{decl("a/b.go", "0009", 1), decl("a/b.go", "0099", 2)}}},
			{Files: []string{"db/x.proto", "./svc\\win.go"}},
		} {
			want, err := s.Govern(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			got := New(corpusOf(), Options{}).GovernFrom(ix, in)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%v: GovernFrom =\n%+v\nGovern =\n%+v", in.Files, got, want)
			}
			holds += len(want.Holds)
		}
		d, err := s.Digest(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := DigestFrom(ix); !reflect.DeepEqual(got, d) {
			t.Errorf("DigestFrom = %+v, Digest = %+v", got, d)
		}
		if len(files) > 6 && holds == 0 {
			t.Error("no hold in the corpus meant to have one")
		}
	}
}

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

// Snapshot reads what the read pipeline reads (the candidates, their
// bytes, the files left out and why) and parses nothing; an unusable
// corpus is an error.
func TestSnapshot(t *testing.T) {
	ctx := context.Background()
	big := regular("0010-big.md", "")
	big.readErr = &ports.ReadError{Kind: ports.ReadTooLarge}
	s := New(corpusOf(append(indexFiles(), big, fakeFile{entry: ports.Entry{Name: "0011-link.md", Path: "docs/adr/0011-link.md", Kind: ports.KindSymlink}},
		regular("README.md", "not a record"))...), Options{})
	snap, err := s.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, read, err := s.IndexCorpus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(snap, read) {
		t.Fatalf("Snapshot =\n%+v\nIndexCorpus read\n%+v", snap, read)
	}
	if len(snap) != 11 || snap[len(snap)-1].Exclusion != corpus.ExcludedTooLarge {
		t.Fatalf("snapshot %+v", snap)
	}
	if _, err := New(openFails(unavailableErr("dir-not-found")), Options{}).Snapshot(ctx); err == nil {
		t.Fatal("no error for an unusable corpus")
	}
}

package corpusgen_test

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

func TestDeterministic(t *testing.T) {
	cfg := corpusgen.Config{N: 300, Seed: 7, Broken: 0.05, Federated: 2}
	a, b := corpusgen.New(cfg), corpusgen.New(cfg)
	if !maps.EqualFunc(a.Files, b.Files, bytes.Equal) {
		t.Fatal("the same config gave different files")
	}
	cfg.Seed = 8
	c := corpusgen.New(cfg)
	if maps.EqualFunc(a.Files, c.Files, bytes.Equal) {
		t.Fatal("another seed gave the same files")
	}

	dir := t.TempDir()
	written, err := corpusgen.Write(dir, corpusgen.Config{N: 40, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if want := corpusgen.New(corpusgen.Config{N: 40, Seed: 3}); !maps.EqualFunc(written.Files, want.Files, bytes.Equal) || len(want.Files) != 40 {
		t.Fatalf("Write returned other files than New, or not 40")
	}
	for name, data := range written.Files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%s on disk differs from New (%v)", name, err)
		}
	}
}

func TestShape(t *testing.T) {
	c := corpusgen.New(corpusgen.Config{N: 2000, Seed: 1})
	for _, name := range c.Names() {
		if !corpus.IsCandidateName(name) {
			t.Fatalf("%s is not a candidate name", name)
		}
		if n := len(c.Files[name]); n < 1024 || n > 4096 {
			t.Errorf("%s has %d bytes, want 1–4 KB", name, n)
		}
	}
	for _, s := range corpusgen.Statuses {
		if c.Stats.ByStatus[s] == 0 {
			t.Errorf("no %s record", s)
		}
	}
	if c.Stats.PackageMatchers == 0 || c.Stats.EntityMatchers == 0 || c.Stats.PathMatchers == 0 {
		t.Errorf("matchers = %+v", c.Stats)
	}
	var negated, globstar, superseding int
	for _, data := range c.Files {
		s := string(data)
		negated += strings.Count(s, "negate: true")
		globstar += strings.Count(s, "**")
		if strings.Contains(s, "supersedes:") {
			superseding++
		}
	}
	if negated == 0 || globstar == 0 || superseding == 0 {
		t.Errorf("negated %d, globstar %d, superseding %d", negated, globstar, superseding)
	}
}

// TestProjects runs the generated corpus through the real pipeline (the
// working-tree reader and app.Project) and checks the counts Stats
// promises: every valid record kept, every broken file excluded with one
// finding, and the federated supersessions dangling.
func TestProjects(t *testing.T) {
	for _, cfg := range []corpusgen.Config{
		{N: 500, Seed: 11},
		{N: 1000, Seed: 12, Broken: 0.03, Federated: 3},
	} {
		root := t.TempDir()
		if _, _, err := corpusgen.WriteRepo(root, cfg); err != nil {
			t.Fatal(err)
		}
		c := corpusgen.New(cfg)
		p, err := app.New(filesystem.New(root, "docs/adr"), app.Options{}).Project(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		st := c.Stats
		if p.RecordCount != st.Valid || p.ExcludedCount != st.Broken || st.Valid+st.Broken != cfg.N {
			t.Errorf("%+v: counts %d/%d, want %d/%d", cfg, p.RecordCount, p.ExcludedCount, st.Valid, st.Broken)
		}
		if len(p.Findings) != st.Findings {
			for _, f := range p.Findings {
				t.Logf("%s %s %s: %s", f.Rule, f.Path, f.Field, f.Message)
			}
			t.Errorf("%+v: %d findings, want %d", cfg, len(p.Findings), st.Findings)
		}
		byStatus := map[string]int{}
		pkg, ent, path := 0, 0, 0
		for _, r := range p.Records {
			byStatus[string(r.Frontmatter.Status)]++
			for _, m := range r.Frontmatter.Affects {
				switch m.Type {
				case adr.MatcherPackage:
					pkg++
				case adr.MatcherEntity:
					ent++
				case adr.MatcherPath:
					path++
				}
			}
		}
		if !maps.Equal(byStatus, st.ByStatus) {
			t.Errorf("%+v: statuses %v, want %v", cfg, byStatus, st.ByStatus)
		}
		if pkg != st.PackageMatchers || ent != st.EntityMatchers || path != st.PathMatchers {
			t.Errorf("%+v: matchers %d/%d/%d, want %+v", cfg, path, pkg, ent, st)
		}
		// Every matcher is well-formed: resolving finds nothing but the
		// unresolvable package and entity matchers.
		fired := 0
		resolver := affects.NewResolver(corpusgen.ContextFiles(), nil)
		for _, r := range p.Records {
			res := resolver.Resolve(r)
			for _, f := range res.Findings {
				if f.Rule != affects.RuleUnresolvable {
					t.Errorf("%s: %s %s", r.SourcePath, f.Rule, f.Message)
				}
			}
			if res.Matched() {
				fired++
			}
		}
		if fired == 0 {
			t.Errorf("%+v: ContextFiles fires no record", cfg)
		}
	}
}

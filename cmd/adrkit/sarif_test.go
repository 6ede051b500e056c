package main

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	// go-sarif ships the official SARIF 2.1.0 schema (OASIS, errata 01)
	// as the source of this package. Importing it keeps the module a
	// test dependency, so the schema is in the module cache whenever the
	// tests build; its typed model also reads our output back.
	gosarif "github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// sarifSchemaPackage is the go-sarif package whose schema.go holds the
// schema text in the unexported constant "schema".
const sarifSchemaPackage = "github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

// officialSARIFSchema reads the SARIF 2.1.0 JSON schema out of go-sarif's
// source in the module cache. Nothing third-party is copied into this
// repository: the schema comes with the pinned module version, checked
// against go.sum like any dependency.
func officialSARIFSchema(t *testing.T) any {
	t.Helper()
	pkg, err := build.Default.Import(sarifSchemaPackage, ".", build.FindOnly)
	if err != nil {
		t.Fatalf("locating %s: %v", sarifSchemaPackage, err)
	}
	file := filepath.Join(pkg.Dir, "schema.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatalf("parsing %s: %v", file, err)
	}
	var text string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "schema" || len(vs.Values) != 1 {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			text, err = strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatalf("schema literal: %v", err)
			}
		}
		return false
	})
	if text == "" {
		t.Fatalf("no schema constant in %s", file)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatalf("schema JSON: %v", err)
	}
	m, _ := doc.(map[string]any)
	if m["$schema"] != "http://json-schema.org/draft-04/schema#" || !strings.Contains(m["title"].(string), "2.1.0") {
		t.Fatalf("unexpected schema: $schema %v, title %v", m["$schema"], m["title"])
	}
	return doc
}

// TestSARIFValidatesAgainstOfficialSchema runs lint --format sarif on the
// clean corpus and on the one with every kind of finding (results with
// and without lines, skipped files, paths that need percent-encoding)
// and validates the exact bytes against the official schema.
func TestSARIFValidatesAgainstOfficialSchema(t *testing.T) {
	schema := compileSARIFSchema(t)
	// The validator is not vacuous: a wrong level and a missing version
	// are refused.
	for name, bad := range map[string]string{
		"bad level":   `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"r","level":"fatal","message":{"text":"m"}}]}]}`,
		"no version":  `{"runs":[]}`,
		"unknown key": `{"version":"2.1.0","runs":[],"extra":1}`,
		"bad uri":     `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"docs/adr/a b%zz.md"}}}]}]}]}`,
		"line 0":      `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.md"},"region":{"startLine":0}}}]}]}]}`,
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if schema.Validate(doc) == nil {
			t.Errorf("%s: the schema accepted %s", name, bad)
		}
	}
	for _, corpus := range []string{"clean", "findings", "chains"} {
		t.Run(corpus, func(t *testing.T) {
			r, root := repoRunner(t, corpus)
			got := r.run("--cwd", root, "lint", "--format", "sarif")
			if got.stderr != "" || (got.code != 0 && got.code != 1) {
				t.Fatalf("lint: %s", got)
			}
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(got.stdout))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Errorf("SARIF output does not validate:\n%v", err)
			}
			// go-sarif's typed model reads it too. (Its Validate is not
			// used: it re-encodes the model, adding members we never
			// wrote, and so checks go-sarif rather than our bytes.)
			rep, err := gosarif.FromBytes([]byte(got.stdout))
			if err != nil {
				t.Fatalf("go-sarif cannot read the output: %v", err)
			}
			if len(rep.Runs) != 1 || rep.Runs[0].Tool.Driver == nil || rep.Runs[0].Tool.Driver.Name == nil || *rep.Runs[0].Tool.Driver.Name != "adrkit" {
				t.Errorf("go-sarif reads an unexpected log: %+v", rep.Runs)
			}
			checkSARIFShape(t, []byte(got.stdout), "docs/adr/")
		})
	}
}

// compileSARIFSchema compiles the official SARIF 2.1.0 schema, asserting
// formats (a URI must be one).
func compileSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	const url = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(url, officialSARIFSchema(t)); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// checkSARIFShape checks what code scanning relies on beyond the schema:
// every result names a declared rule by id and index, locations are
// repository-relative with the %SRCROOT% base (and start with prefix),
// and lines are positive.
func checkSARIFShape(t *testing.T, out []byte, prefix string) {
	t.Helper()
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name, Version, InformationURI string
					Rules                         []struct {
						ID                   string
						ShortDescription     struct{ Text string }
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex *int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           *struct{ StartLine int }
					}
				}
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	if err := dec.Decode(&log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs", len(log.Runs))
	}
	run := log.Runs[0]
	d := run.Tool.Driver
	if d.Name != "adrkit" || d.Version == "" || d.InformationURI == "" || len(d.Rules) == 0 {
		t.Errorf("driver %+v", d)
	}
	for _, r := range d.Rules {
		if r.ShortDescription.Text == "" || r.DefaultConfiguration.Level == "" {
			t.Errorf("rule %+v", r)
		}
	}
	for _, res := range run.Results {
		if res.RuleIndex == nil || *res.RuleIndex >= len(d.Rules) || d.Rules[*res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %s: rule index %v does not name it", res.RuleID, res.RuleIndex)
		}
		if len(res.Locations) != 1 {
			t.Errorf("result %s: %d locations", res.RuleID, len(res.Locations))
			continue
		}
		loc := res.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || !strings.HasPrefix(loc.ArtifactLocation.URI, prefix) || strings.HasPrefix(loc.ArtifactLocation.URI, "/") {
			t.Errorf("result %s: location %+v", res.RuleID, loc.ArtifactLocation)
		}
		if loc.Region != nil && loc.Region.StartLine < 1 {
			t.Errorf("result %s: start line %d", res.RuleID, loc.Region.StartLine)
		}
	}
}

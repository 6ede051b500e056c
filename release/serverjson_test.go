package release

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// serverJSONFlag names one more server.json to check, beside the committed
// one: scripts/release.sh passes the one it wrote for a release.
var serverJSONFlag = flag.String("server-json", "", "also check this server.json (scripts/release.sh passes its own)")

// serverJSON is the part of server.json the cross-checks read.
type serverJSON struct {
	Schema   string `json:"$schema"`
	Name     string `json:"name"`
	Version  string `json:"version"`
	Packages []struct {
		RegistryType string `json:"registryType"`
		Identifier   string `json:"identifier"`
		Version      string `json:"version"`
		FileSHA256   string `json:"fileSha256"`
		Transport    struct {
			Type string `json:"type"`
			URL  string `json:"url"`
		} `json:"transport"`
		RuntimeArguments []argument `json:"runtimeArguments"`
		PackageArguments []argument `json:"packageArguments"`
	} `json:"packages"`
}

type argument struct {
	Type    string `json:"type"`
	Name    string `json:"name"`
	Value   string `json:"value"`
	Default string `json:"default"`
}

// TestServerJSON checks server.json as the official registry would take
// it: valid against the schema its $schema names (the registry's own copy)
// and the reference documentation's, with the registry's semantic rules
// that the schema leaves out, and naming packages that prove ownership:
// the npm package's mcpName and the image's label must be the server's
// name. Versions agree everywhere.
func TestServerJSON(t *testing.T) {
	files := map[string]string{"committed": filepath.Join(top, "server.json")}
	if *serverJSONFlag != "" {
		files["given"] = *serverJSONFlag
	}
	schemas := map[string]*jsonschema.Schema{}
	for _, f := range []string{"server.schema.2025-12-11.json", "server.schema.draft.json"} {
		schemas[f] = compileSchema(t, filepath.Join("testdata", "registry", f))
	}
	for name, file := range files {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			for name, s := range schemas {
				if err := s.Validate(doc); err != nil {
					t.Errorf("not valid against %s: %v", name, err)
				}
			}
			var s serverJSON
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatal(err)
			}
			checkServerSemantics(t, s)
		})
	}
}

// compileSchema compiles a draft-07 schema file, with formats asserted.
func compileSchema(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(path, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// versionRange is what the registry refuses as a version: ranges and
// wildcards.
var versionRange = regexp.MustCompile(`[\^~><=|*]|\s-\s|(^|\.)[xX](\.|$)`)

func checkServerSemantics(t *testing.T, s serverJSON) {
	t.Helper()
	if want := "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"; s.Schema != want {
		t.Errorf("$schema %q, want the registry's current %q", s.Schema, want)
	}
	if !strings.HasPrefix(s.Name, "io.github.adrkit/") {
		t.Errorf("name %q is not in the io.github.adrkit namespace that GitHub authentication grants", s.Name)
	}
	if s.Version == "latest" || versionRange.MatchString(s.Version) {
		t.Errorf("version %q is reserved or a range", s.Version)
	}
	npm := readJSON(t, filepath.Join(top, "release", "npm", "adrkit-mcp", "package.json"))
	types := map[string]bool{}
	for _, p := range s.Packages {
		types[p.RegistryType] = true
		if p.Transport.Type != "stdio" || p.Transport.URL != "" {
			t.Errorf("%s package: transport %+v, want stdio without a url", p.RegistryType, p.Transport)
		}
		if strings.ContainsAny(p.Identifier, " \t") {
			t.Errorf("%s identifier %q has spaces", p.RegistryType, p.Identifier)
		}
		for _, a := range append(p.RuntimeArguments, p.PackageArguments...) {
			if a.Type == "named" && (strings.ContainsAny(a.Name, "<> $") || (a.Value != "" && strings.HasPrefix(a.Value, a.Name)) ||
				(a.Default != "" && strings.HasPrefix(a.Default, a.Name))) {
				t.Errorf("%s argument %+v breaks the registry's naming rules", p.RegistryType, a)
			}
		}
		switch p.RegistryType {
		case "npm":
			if p.Identifier != npm["name"] || npm["mcpName"] != s.Name {
				t.Errorf("npm package %q: package.json has name %q and mcpName %q, want %q and %q",
					p.Identifier, npm["name"], npm["mcpName"], p.Identifier, s.Name)
			}
			if p.Version != s.Version {
				t.Errorf("npm package version %q, server version %q", p.Version, s.Version)
			}
		case "oci":
			if !strings.HasPrefix(p.Identifier, "ghcr.io/") || !strings.HasSuffix(p.Identifier, ":"+s.Version) {
				t.Errorf("image %q, want ghcr.io/...:%s", p.Identifier, s.Version)
			}
			if got := dockerfileLabel(t, "io.modelcontextprotocol.server.name"); got != s.Name {
				t.Errorf("the Dockerfile labels the image %q, want the server name %q", got, s.Name)
			}
		case "mcpb":
			if !strings.HasPrefix(p.Identifier, "https://github.com/adrkit/adrkit-go/releases/download/v"+s.Version+"/") ||
				!strings.HasSuffix(p.Identifier, ".mcpb") || len(p.FileSHA256) != 64 {
				t.Errorf("bundle %q (sha256 %q) is not a .mcpb of this release with its hash", p.Identifier, p.FileSHA256)
			}
		default:
			t.Errorf("unexpected package type %q", p.RegistryType)
		}
	}
	if !types["npm"] || !types["oci"] {
		t.Errorf("packages %v, want npm and oci", types)
	}
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// TestCommittedVersionsAgree: server.json, the npm launcher and the
// bundle manifest name the same release (scripts/release.sh restamps
// them all from the tag).
func TestCommittedVersionsAgree(t *testing.T) {
	var s serverJSON
	b, err := os.ReadFile(filepath.Join(top, "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	npm := readJSON(t, filepath.Join(top, "release", "npm", "adrkit-mcp", "package.json"))
	manifest := readJSON(t, filepath.Join(top, "release", "mcpb", "manifest.json"))
	if npm["version"] != s.Version || manifest["version"] != s.Version {
		t.Errorf("versions: server.json %q, npm %q, bundle %q", s.Version, npm["version"], manifest["version"])
	}
	for dep, v := range npm["optionalDependencies"].(map[string]any) {
		if v != s.Version {
			t.Errorf("optional dependency %s at %v, want %s", dep, v, s.Version)
		}
	}
}

// TestServerJSONSchemasRefuse: the schemas are not vacuous; each refuses
// what the registry would.
func TestServerJSONSchemasRefuse(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(top, "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func(m map[string]any){
		"no name":              func(m map[string]any) { delete(m, "name") },
		"a name without slash": func(m map[string]any) { m["name"] = "adrkit" },
		"a long description":   func(m map[string]any) { m["description"] = strings.Repeat("x", 101) },
		"an unknown transport": func(m map[string]any) {
			m["packages"].([]any)[0].(map[string]any)["transport"] = map[string]any{"type": "carrier-pigeon"}
		},
	} {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		mutate(m)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"server.schema.2025-12-11.json", "server.schema.draft.json"} {
			if compileSchema(t, filepath.Join("testdata", "registry", f)).Validate(doc) == nil {
				t.Errorf("%s: %s accepts it", name, f)
			}
		}
	}
}

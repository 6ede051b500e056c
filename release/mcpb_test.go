package release

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// manifest is the part of the bundle manifest a host reads to start the
// server.
type manifest struct {
	Server struct {
		Type       string `json:"type"`
		EntryPoint string `json:"entry_point"`
		MCPConfig  struct {
			Command           string   `json:"command"`
			Args              []string `json:"args"`
			PlatformOverrides map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"platform_overrides"`
		} `json:"mcp_config"`
	} `json:"server"`
	Compatibility struct {
		Platforms []string `json:"platforms"`
	} `json:"compatibility"`
	UserConfig map[string]struct {
		Type     string `json:"type"`
		Required bool   `json:"required"`
		Default  any    `json:"default"`
	} `json:"user_config"`
}

var userConfigRef = regexp.MustCompile(`\$\{user_config\.([A-Za-z0-9_]+)\}`)

// TestBundleStartsTheServer does what Claude Desktop does with the
// bundle's manifest on this system: picks the command for the platform,
// puts the bundle's directory and the user's settings (the repository
// the user chose, the ADR directory left at its default) into the
// command line, and starts it. The server must answer as the binary run
// by hand does. (mcpb validate, in CI, checks the manifest's schema;
// scripts/release.sh lays the binaries out as the commands name them.)
func TestBundleStartsTheServer(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(top, "release", "mcpb", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Server.Type != "binary" {
		t.Fatalf("server type %q, want binary", m.Server.Type)
	}
	if r := m.UserConfig["repository"]; r.Type != "directory" || !r.Required {
		t.Errorf("user_config.repository %+v, want a required directory", r)
	}
	// Every platform has its binary at server/<platform>/, as
	// scripts/release.sh lays the bundle out.
	commands := map[string]string{"darwin": m.Server.MCPConfig.Command}
	for p, o := range m.Server.MCPConfig.PlatformOverrides {
		commands[p] = o.Command
	}
	for _, p := range m.Compatibility.Platforms {
		want := "${__dirname}/server/" + p + "/adrkit-mcp" + map[bool]string{true: ".exe"}[p == "win32"]
		if commands[p] != want {
			t.Errorf("%s command %q, want %q", p, commands[p], want)
		}
	}
	if "${__dirname}/"+m.Server.EntryPoint != m.Server.MCPConfig.Command {
		t.Errorf("entry point %q is not the default command %q", m.Server.EntryPoint, m.Server.MCPConfig.Command)
	}

	platform := map[string]string{"windows": "win32"}[runtime.GOOS]
	if platform == "" {
		platform = runtime.GOOS
	}
	command, args := m.Server.MCPConfig.Command, m.Server.MCPConfig.Args
	if o, ok := m.Server.MCPConfig.PlatformOverrides[platform]; ok {
		command = o.Command
		if o.Args != nil {
			args = o.Args
		}
	}
	bundle := t.TempDir()
	command = filepath.FromSlash(strings.ReplaceAll(command, "${__dirname}", filepath.ToSlash(bundle)))
	if err := os.MkdirAll(filepath.Dir(command), 0o755); err != nil {
		t.Fatal(err)
	}
	bin := buildServer(t, filepath.Dir(command), "0.0.0-bundle")
	if bin != command {
		t.Fatalf("built %s, the manifest runs %s", bin, command)
	}
	root := repo(t)
	settings := map[string]string{"repository": root}
	var line []string
	for _, a := range args {
		a = userConfigRef.ReplaceAllStringFunc(a, func(ref string) string {
			key := userConfigRef.FindStringSubmatch(ref)[1]
			c, ok := m.UserConfig[key]
			if !ok {
				t.Fatalf("args name user_config.%s, which the manifest does not declare", key)
			}
			if v, ok := settings[key]; ok {
				return v
			}
			d, _ := c.Default.(string)
			return d
		})
		line = append(line, a)
	}
	// Claude Desktop hands the model only a tool answer's content, so the
	// bundle asks for the structured answer there too.
	if !slices.Equal(line[len(line)-2:], []string{"--content", "full"}) {
		t.Errorf("the bundle's command line %q does not end with --content full", line)
	}
	got := run(t, exec.Command(command, line...), conversation)
	want := run(t, exec.Command(bin, "--cwd", root, "--content", "full"), conversation)
	if got.code != 0 || want.code != 0 || frames(got.stdout) != frames(want.stdout) || got.stderr != want.stderr {
		t.Errorf("the bundle's command line %q:\n%s\nthe binary by hand:\n%s", line, got, want)
	}
}

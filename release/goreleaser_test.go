package release

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// goreleaserConfig is the part of .goreleaser.yaml this test holds to
// what the issue and docs/releasing.md promise. GoReleaser itself checks
// the whole file when scripts/release.sh runs it (`goreleaser check`
// first); CI does not build GoReleaser, which would cost minutes on a cold
// cache, so this test is what CI checks.
type goreleaserConfig struct {
	Version int `json:"version"`
	Builds  []struct {
		ID      string   `json:"id"`
		Main    string   `json:"main"`
		Binary  string   `json:"binary"`
		Env     []string `json:"env"`
		Flags   []string `json:"flags"`
		Ldflags []string `json:"ldflags"`
		Goos    []string `json:"goos"`
		Goarch  []string `json:"goarch"`
	} `json:"builds"`
	Archives []struct {
		IDs             []string `json:"ids"`
		Formats         []string `json:"formats"`
		FormatOverrides []struct {
			Goos    string   `json:"goos"`
			Formats []string `json:"formats"`
		} `json:"format_overrides"`
	} `json:"archives"`
	Checksum struct {
		Algorithm string `json:"algorithm"`
	} `json:"checksum"`
	SBOMs []struct {
		Artifacts string `json:"artifacts"`
	} `json:"sboms"`
}

func TestGoreleaserConfig(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(top, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c goreleaserConfig
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if c.Version != 2 {
		t.Errorf("version %d, want 2 (GoReleaser v2)", c.Version)
	}
	var ids []string
	for _, b := range c.Builds {
		ids = append(ids, b.ID)
		if b.Main != "./cmd/"+b.Binary || b.ID != b.Binary {
			t.Errorf("build %q builds %q as %q", b.ID, b.Main, b.Binary)
		}
		if !slices.Contains(b.Env, "CGO_ENABLED=0") || !slices.Contains(b.Flags, "-trimpath") {
			t.Errorf("build %q: env %v, flags %v; want a static, trimmed build", b.ID, b.Env, b.Flags)
		}
		if len(b.Ldflags) != 1 || !strings.Contains(b.Ldflags[0], stampFlag+"{{ .Version }}") {
			t.Errorf("build %q: ldflags %q do not stamp the version as the tests' builds do (%s)", b.ID, b.Ldflags, stampFlag)
		}
		if !slices.Equal(b.Goos, []string{"linux", "darwin", "windows"}) || !slices.Equal(b.Goarch, []string{"amd64", "arm64"}) {
			t.Errorf("build %q: targets %v × %v, want linux, darwin, windows × amd64, arm64", b.ID, b.Goos, b.Goarch)
		}
	}
	if !slices.Equal(ids, []string{"adrkit-mcp", "adrkit"}) {
		t.Errorf("builds %v, want adrkit-mcp and adrkit", ids)
	}
	if len(c.Archives) != 1 || !slices.Equal(c.Archives[0].IDs, ids) || !slices.Equal(c.Archives[0].Formats, []string{"tar.gz"}) ||
		len(c.Archives[0].FormatOverrides) != 1 || c.Archives[0].FormatOverrides[0].Goos != "windows" ||
		!slices.Equal(c.Archives[0].FormatOverrides[0].Formats, []string{"zip"}) {
		t.Errorf("archives %+v, want both binaries in tar.gz, zip on windows", c.Archives)
	}
	if c.Checksum.Algorithm != "sha256" {
		t.Errorf("checksum algorithm %q, want sha256", c.Checksum.Algorithm)
	}
	if len(c.SBOMs) != 1 || c.SBOMs[0].Artifacts != "binary" {
		t.Errorf("sboms %+v, want one per binary", c.SBOMs)
	}
}

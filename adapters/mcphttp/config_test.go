package mcphttp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestLoadConfigValid(t *testing.T) {
	dir, err := filepath.Abs("testdata/config")
	if err != nil {
		t.Fatal(err)
	}
	// rooted is a root written "/x" in a config file: absolute on Unix,
	// on the config file's drive on Windows.
	rooted := func(p string) string { return filepath.Join(filepath.VolumeName(dir), filepath.FromSlash(p)) }
	tests := []struct {
		file string
		want Config
	}{
		{"valid.yaml", Config{
			Corpora: []CorpusConfig{
				// A relative root is taken from the config file's directory.
				{Name: "payments", Cwd: filepath.Join(dir, "mirrors/payments.git"), Rev: "origin/main"},
				{Name: "search", Cwd: rooted("/srv/search"), Dir: "decisions"},
			},
			Tokens: []TokenConfig{
				{SHA256: "53ab761424453342954583b5604363ca9b4e766786ff7feae945303d907e5e5b", Corpora: []string{"payments", "search"}},
				// Upper-case hex is accepted and kept in lower case.
				{SHA256: "93ef582756b955585cc1a600ef7e9235cfbdc517d0e840acf3f2210a699743d4", Corpora: []string{"search"}},
			},
			AllowedHosts:   []string{"adrkit.team.svc.cluster.local", "10.0.0.7", "fd00::1"},
			AllowedOrigins: []string{"https://console.example.com"},
		}},
		{"minimal.yaml", Config{Corpora: []CorpusConfig{{Name: "only", Cwd: rooted("/repo")}}}},
		{"limits.yaml", Config{Corpora: []CorpusConfig{{Name: "only", Cwd: rooted("/repo")}}, Auth: AuthNone, Limits: Limits{
			ReadHeaderTimeout: Duration(500 * time.Millisecond), ReadTimeout: Duration(2 * time.Second),
			WriteTimeout: Duration(time.Minute), IdleTimeout: Duration(90 * time.Second),
			MaxBodyBytes: 65536, MaxInFlight: 8, MaxBodies: 16, MaxConns: 64, MaxNewConns: 8, FirstByteTimeout: Duration(time.Second),
			MaxStreams: 4, StreamLife: Duration(30 * time.Second),
		}}},
		// A revision YAML reads as a number keeps its digits.
		{"numeric-rev.yaml", Config{Corpora: []CorpusConfig{{Name: "dated", Cwd: rooted("/a"), Rev: "20261201"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := LoadConfig(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("LoadConfig(%s)\n got %+v\nwant %+v", tt.file, *got, tt.want)
			}
		})
	}
}

func TestLoadConfigInvalid(t *testing.T) {
	const badName = " is not a corpus name: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
	const badHost = " is not a host name (a DNS name or an IP address, without scheme, port or path)"
	tests := []struct {
		file     string
		problems []string
	}{
		{"empty.yaml", []string{"corpora: at least one corpus is needed"}},
		{"no-corpora.yaml", []string{"corpora: at least one corpus is needed"}},
		{"unknown-key.yaml", []string{`unknown field "token"`}},
		{"unknown-corpus-key.yaml", []string{`unknown field "revision"`}},
		{"duplicate-key.yaml", []string{`yaml: unmarshal errors: line 4: key "cwd" already set in map`}},
		{"wrong-shape.yaml", []string{"cannot unmarshal object into Go struct field Config.corpora of type []mcphttp.CorpusConfig"}},
		{"bad-names.yaml", []string{
			`corpora[0].name: "pay ments"` + badName,
			`corpora[1].name: ".."` + badName,
			`corpora[2].name: ""` + badName,
			`corpora[4].name: "payments" is already the name of corpora[3]`,
			`corpora[5].name: "a/b"` + badName,
			`corpora[6].cwd: the repository root is required`,
		}},
		{"bad-tokens.yaml", []string{
			"tokens[0].sha256: a SHA-256 digest is 64 hex digits, got 3 characters",
			"tokens[1].sha256: a SHA-256 digest is 64 hex digits (0-9, a-f)",
			`tokens[2].sha256: a SHA-256 digest is 64 hex digits, got 1 characters (YAML read it as a number: quote the digest, "…")`,
			"tokens[2].corpora: name at least one corpus",
			`tokens[3].corpora[1]: "payments" is listed twice`,
			`tokens[3].corpora[2]: no corpus is named "search"`,
			`tokens[3].corpora[3]: no corpus is named "no/such" (not a valid name either)`,
		}},
		{"bad-limits.yaml", []string{"limits.readTimeout: must be positive", "limits.firstByteTimeout: must be positive",
			"limits.maxInFlight: must be positive", "limits.maxBodies: must be positive"}},
		{"unitless-limit.yaml", []string{"a duration is written with its unit, like 5s or 2m, not 30"}},
		{"duplicate-digests.yaml", []string{
			"tokens[1].sha256: the same digest as tokens[0]; list every corpus of a token in one entry",
		}},
		{"bad-hosts.yaml", []string{
			`allowedHosts[0]: "https://adrkit.example.com"` + badHost,
			`allowedHosts[1]: "adrkit.example.com:8080"` + badHost,
			"allowedHosts[2]: empty host name",
			`allowedHosts[3]: "-x.example.com"` + badHost,
			`allowedOrigins[1]: "console.example.com" is not an origin (scheme://host[:port], nothing after): invalid origin "console.example.com": scheme is required`,
			`allowedOrigins[2]: "https://x.example.com/path" is not an origin (scheme://host[:port], nothing after): invalid origin "https://x.example.com/path": path, query, and fragment are not allowed`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("testdata/config", tt.file)
			cfg, err := LoadConfig(path)
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("LoadConfig(%s) = %+v, %v; want a *ConfigError", tt.file, cfg, err)
			}
			if ce.Path != path {
				t.Errorf("Path = %q, want %q", ce.Path, path)
			}
			if !reflect.DeepEqual(ce.Problems, tt.problems) {
				t.Errorf("problems of %s:\n got %q\nwant %q", tt.file, ce.Problems, tt.problems)
			}
		})
	}
}

func TestLoadConfigUnreadable(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, maxConfigBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		is         error
	}{
		{"missing", filepath.Join(dir, "nope.yaml"), fs.ErrNotExist},
		{"directory", dir, nil},
		{"too large", big, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadConfig(tt.path)
			var ce *ConfigError
			if !errors.As(err, &ce) || len(ce.Problems) != 1 {
				t.Fatalf("LoadConfig(%s) = %v, want a *ConfigError with one problem", tt.path, err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
		})
	}
}

func TestCheckName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"payments", true},
		{"Payments.v2_api-x", true},
		{"0", true},
		{string(make([]byte, 64)), false},
		{"a234567890123456789012345678901234567890123456789012345678901234", true},
		{"a2345678901234567890123456789012345678901234567890123456789012345", false},
		{".hidden", false},
		{"-x", false},
		{"a b", false},
		{"a%20b", false},
		{"é", false},
		{"", false},
	}
	for _, tt := range tests {
		if err := CheckName(tt.name); (err == nil) != tt.ok {
			t.Errorf("CheckName(%q) = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}

package mcphttp

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoadSetup(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "tokens")
	writeFile(t, tokenFile, deltaToken+"\n") // not one of valid.yaml's digests
	noAuth := filepath.Join(dir, "no-auth.yaml")
	writeFile(t, noAuth, "corpora:\n  - {name: a, cwd: /a}\nauth: none\n")
	single := CorpusConfig{Name: "ignored", Cwd: "/repo", Dir: "decisions", Rev: "main"}
	tests := []struct {
		name, config, tokens string
		corpora              []string
		tokenCount           int // -1: no tokens at all
		hosts                int
	}{
		{"flags alone", "", "", []string{""}, -1, 0},
		{"flags and a token file", "", tokenFile, []string{""}, 1, 0},
		{"config with scoped tokens", "testdata/config/valid.yaml", "", []string{"payments", "search"}, 2, 3},
		{"config and a token file", "testdata/config/valid.yaml", tokenFile, []string{"payments", "search"}, 3, 3},
		{"config with auth: none", noAuth, "", []string{"a"}, -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := LoadSetup(tt.config, tt.tokens, single)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, c := range s.Corpora {
				names = append(names, c.Name)
			}
			if len(names) != len(tt.corpora) || names[0] != tt.corpora[0] {
				t.Errorf("corpora %q, want %q", names, tt.corpora)
			}
			if tt.config == "" && (s.Corpora[0].Cwd != "/repo" || s.Corpora[0].Dir != "decisions" || s.Corpora[0].Rev != "main") {
				t.Errorf("the flags' corpus is %+v", s.Corpora[0])
			}
			switch {
			case tt.tokenCount < 0 && s.Tokens != nil:
				t.Errorf("tokens configured: %d", s.Tokens.Len())
			case tt.tokenCount >= 0 && (s.Tokens == nil || s.Tokens.Len() != tt.tokenCount):
				t.Errorf("tokens %v, want %d", s.Tokens, tt.tokenCount)
			}
			if len(s.AllowedHosts) != tt.hosts {
				t.Errorf("allowed hosts %q", s.AllowedHosts)
			}
		})
	}

	// The config's limits reach the front's and the server's options.
	limited, err := LoadSetup("testdata/config/limits.yaml", "", single)
	if err != nil {
		t.Fatal(err)
	}
	var front Options
	var server ServerOptions
	limited.Apply(&front, &server)
	if front.MaxBodyBytes != 65536 || front.MaxInFlight != 8 || server.ReadHeaderTimeout != 500*time.Millisecond ||
		server.ReadTimeout != 2*time.Second || server.WriteTimeout != time.Minute || server.IdleTimeout != 90*time.Second || server.MaxConns != 64 ||
		front.MaxStreams != 4 || front.StreamLife != 30*time.Second || front.MaxBodies != 16 || server.MaxNewConns != 8 || server.FirstByteTimeout != time.Second {
		t.Errorf("limits applied: %+v, %+v", front, server)
	}

	var ce *ConfigError
	if _, err := LoadSetup("testdata/config/bad-names.yaml", "", single); !errors.As(err, &ce) {
		t.Errorf("a bad config: %v, want a *ConfigError", err)
	}
	var te *TokenFileError
	if _, err := LoadSetup("", "testdata/tokens/empty.txt", single); !errors.As(err, &te) {
		t.Errorf("a bad token file: %v, want a *TokenFileError", err)
	}
}

// A config file that gives no token does not serve without authentication
// unless it says so (auth: none); saying so beside tokens is a
// contradiction. Before, no token (an empty or forgotten tokens: list)
// meant no authentication at all.
func TestLoadSetupAuth(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "tokens")
	writeFile(t, tokenFile, deltaToken+"\n")
	const corpora = "corpora:\n  - {name: a, cwd: /a}\n"
	scoped := "tokens:\n  - {sha256: \"" + digestOf(alphaToken) + "\", corpora: [a]}\n"
	tests := []struct {
		name, config, tokenFile string
		problem                 string // "" when it serves
		authenticates           bool
	}{
		{"no tokens", corpora, "", "no token is given: list tokens, give --token-file, or write auth: none", false},
		{"an empty tokens list", corpora + "tokens: []\n", "", "no token is given: list tokens, give --token-file, or write auth: none", false},
		{"auth: none", corpora + "auth: none\n", "", "", false},
		{"auth: tokens with a token file", corpora + "auth: tokens\n", tokenFile, "", true},
		{"scoped tokens", corpora + scoped, "", "", true},
		{"auth: none and tokens", corpora + "auth: none\n" + scoped, "", "auth: none, but tokens are listed", false},
		{"auth: none and a token file", corpora + "auth: none\n", tokenFile, "auth: none, but --token-file is given", false},
		{"auth: something else", corpora + "auth: open\n", "", `auth: "open" is not tokens or none`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			config := filepath.Join(t.TempDir(), "config.yaml")
			writeFile(t, config, tt.config)
			s, err := LoadSetup(config, tt.tokenFile, CorpusConfig{})
			if tt.problem == "" {
				if err != nil {
					t.Fatal(err)
				}
				if (s.Tokens != nil) != tt.authenticates {
					t.Errorf("tokens %v, want authentication %v", s.Tokens, tt.authenticates)
				}
				return
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.problem) {
				t.Errorf("LoadSetup = %v, want a ConfigError saying %q", err, tt.problem)
			}
		})
	}
}

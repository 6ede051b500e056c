package mcphttp

import (
	"errors"
	"path/filepath"
	"testing"
	"time"
)

func TestLoadSetup(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "tokens")
	writeFile(t, tokenFile, deltaToken+"\n") // not one of valid.yaml's digests
	noTokens := filepath.Join(dir, "no-tokens.yaml")
	writeFile(t, noTokens, "corpora:\n  - {name: a, cwd: /a}\n")
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
		{"config without tokens", noTokens, "", []string{"a"}, -1, 0},
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
		server.ReadTimeout != 2*time.Second || server.WriteTimeout != time.Minute || server.IdleTimeout != 90*time.Second || server.MaxConns != 64 {
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

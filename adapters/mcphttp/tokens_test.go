package mcphttp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Tokens of the fixtures (testdata/tokens/valid.txt holds alpha and beta
// as themselves and gamma as its digest).
const (
	alphaToken = "alpha-token-0123456789"
	betaToken  = "beta-token-0123456789"
	gammaToken = "gamma-token-0123456789"
	deltaToken = "delta-token-0123456789"
)

func digestOf(token string) string {
	d := sha256.Sum256([]byte(token))
	return hex.EncodeToString(d[:])
}

func TestTokenFile(t *testing.T) {
	tokens, err := LoadTokens("testdata/tokens/valid.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	if tokens.Len() != 3 { // alpha is listed twice
		t.Errorf("Len() = %d, want 3", tokens.Len())
	}
	tests := []struct {
		token string
		ok    bool
	}{
		{alphaToken, true},
		{betaToken, true}, // surrounding blanks are not part of it
		{gammaToken, true},
		{deltaToken, false},
		{"# an indented comment", false},
		{"sha256:" + digestOf(gammaToken), false}, // a digest line is not a token
		{digestOf(gammaToken), false},
		{"", false},
	}
	for _, tt := range tests {
		a, ok := tokens.lookup(tt.token)
		if ok != tt.ok || (ok && !a.all) {
			t.Errorf("lookup(%q) = %+v, %v; want ok=%v and every corpus", tt.token, a, ok, tt.ok)
		}
	}
}

func TestTokenFileCRLF(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens")
	writeFile(t, path, "# rotated\r\n"+alphaToken+"\r\nsha256:"+digestOf(betaToken)+"\r\n")
	tokens, err := LoadTokens(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{alphaToken, betaToken} {
		if _, ok := tokens.lookup(tok); !ok {
			t.Errorf("%q is not accepted from a CRLF file", tok)
		}
	}
}

func TestTokenFileInvalid(t *testing.T) {
	const notToken = "not a token: a bearer token is letters, digits and -._~+/, with optional = at the end, and no blanks"
	tests := []struct {
		file    string
		line    int
		problem string
		secret  string // a line of the file that must not be quoted
	}{
		{"empty.txt", 0, "holds no token (every line is empty or a comment)", ""},
		{"blank-inside.txt", 2, notToken, "secret with spaces"},
		{"short.txt", 3, "token too short: use at least 16 characters (or write its sha256: digest)", "short-secret"},
		{"short-digest.txt", 1, `after "sha256:" a SHA-256 digest is 64 hex digits, got 3 characters`, ""},
		{"bad-hex.txt", 1, `after "sha256:" a SHA-256 digest is 64 hex digits (0-9, a-f)`, "zz711642"},
		{"upper-prefix.txt", 1, notToken, "SHA256:"},
		{"missing.txt", 0, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("testdata/tokens", tt.file)
			_, err := LoadTokens(path, nil)
			var te *TokenFileError
			if !errors.As(err, &te) {
				t.Fatalf("LoadTokens(%s) = %v, want a *TokenFileError", tt.file, err)
			}
			if te.Line != tt.line || (tt.problem != "" && te.Problem != tt.problem) {
				t.Errorf("got line %d %q, want line %d %q", te.Line, te.Problem, tt.line, tt.problem)
			}
			if tt.secret != "" && strings.Contains(err.Error(), tt.secret) {
				t.Errorf("the error quotes the file: %v", err)
			}
		})
	}
}

func TestTokensScoped(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tokens")
	// beta is both in the file (every corpus) and scoped: the file wins.
	writeFile(t, file, alphaToken+"\n"+betaToken+"\n")
	tokens, err := LoadTokens(file, []TokenConfig{
		{SHA256: digestOf(gammaToken), Corpora: []string{"payments"}},
		{SHA256: digestOf(betaToken), Corpora: []string{"search"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		token, corpus string
		covers        bool
	}{
		{alphaToken, "payments", true},
		{alphaToken, "anything", true},
		{betaToken, "payments", true},
		{gammaToken, "payments", true},
		{gammaToken, "search", false},
		{gammaToken, "", false},
		{deltaToken, "payments", false},
	}
	for _, tt := range tests {
		a, _ := tokens.lookup(tt.token)
		if got := a.covers(tt.corpus); got != tt.covers {
			t.Errorf("%s covers %q = %v, want %v", tt.token, tt.corpus, got, tt.covers)
		}
	}

	onlyScoped, err := LoadTokens("", []TokenConfig{{SHA256: strings.ToUpper(digestOf(gammaToken)), Corpora: []string{"payments"}}})
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := onlyScoped.lookup(gammaToken); !ok || !a.covers("payments") || a.covers("search") {
		t.Errorf("scoped-only lookup = %+v, %v", a, ok)
	}
	if err := onlyScoped.Reload(context.Background()); err != nil {
		t.Errorf("Reload without a token file = %v, want nil", err)
	}
	if _, err := LoadTokens("", nil); err == nil {
		t.Error("LoadTokens with no token at all succeeded")
	}
}

func TestTokensReload(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tokens")
	writeFile(t, file, alphaToken+"\n")
	tokens, err := LoadTokens(file, []TokenConfig{{SHA256: digestOf(gammaToken), Corpora: []string{"payments"}}})
	if err != nil {
		t.Fatal(err)
	}
	accepted := func(tok string) bool { _, ok := tokens.lookup(tok); return ok }

	// Rotation: beta replaces alpha; the scoped gamma stays.
	writeFile(t, file, "sha256:"+digestOf(betaToken)+"\n")
	if err := tokens.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if accepted(alphaToken) || !accepted(betaToken) || !accepted(gammaToken) {
		t.Errorf("after reload: alpha %v, beta %v, gamma %v; want false, true, true",
			accepted(alphaToken), accepted(betaToken), accepted(gammaToken))
	}

	// A broken file and a missing one leave the tokens in force.
	for _, broken := range []func(){
		func() { writeFile(t, file, "# emptied by mistake\n") },
		func() { writeFile(t, file, betaToken+"\nno good\n") },
		func() { _ = os.Remove(file) },
	} {
		broken()
		var te *TokenFileError
		if err := tokens.Reload(context.Background()); !errors.As(err, &te) {
			t.Errorf("Reload of a broken file = %v, want a *TokenFileError", err)
		}
		if !accepted(betaToken) || !accepted(gammaToken) {
			t.Error("a failed reload dropped the tokens in force")
		}
	}
}

func TestTokensConcurrentReload(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tokens")
	writeFile(t, file, alphaToken+"\n")
	tokens, err := LoadTokens(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 200 {
				if _, ok := tokens.lookup(alphaToken); !ok {
					t.Error("alpha refused during reloads of the same file")
					return
				}
			}
		})
	}
	for range 20 {
		if err := tokens.Reload(context.Background()); err != nil {
			t.Error(err)
		}
	}
	wg.Wait()
}

func TestIsB64Token(t *testing.T) {
	tests := []struct {
		s  string
		ok bool
	}{
		{"abcXYZ019-._~+/", true},
		{"abc==", true},
		{"=", false},
		{"ab=c", false},
		{"a b", false},
		{"a:b", false},
		{"ä", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := isB64Token(tt.s); got != tt.ok {
			t.Errorf("isB64Token(%q) = %v, want %v", tt.s, got, tt.ok)
		}
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A token file or config that is a FIFO is refused without being opened:
// opening a FIFO waits for a writer, and a reload that waits holds the
// tokens' lock for ever. Before, the file was opened first and its kind
// looked at after, so LoadTokens, Reload and LoadConfig all hung. A
// symbolic link to a regular file (a Kubernetes Secret's layout) is read.
func TestTokenFileNotRegular(t *testing.T) {
	if !haveFIFOs {
		t.Skip("this system has no FIFOs")
	}
	dir := t.TempDir()
	real, link, fifo := filepath.Join(dir, "real"), filepath.Join(dir, "link"), filepath.Join(dir, "fifo")
	writeFile(t, real, alphaToken+"\n")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := makeFIFO(fifo); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unblockFIFO(fifo) })
	within := func(what string, f func() error) error {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- f() }()
		guard := time.NewTimer(30 * time.Second) // a hang guard only
		defer guard.Stop()
		select {
		case err := <-done:
			return err
		case <-guard.C:
			unblockFIFO(fifo)
			t.Fatalf("%s hung on a FIFO", what)
			return nil
		}
	}

	tokens, err := LoadTokens(link, nil)
	if err != nil {
		t.Fatalf("a token file behind a symbolic link: %v", err)
	}
	var te *TokenFileError
	if err := within("LoadTokens", func() error { _, err := LoadTokens(fifo, nil); return err }); !errors.As(err, &te) ||
		!strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("LoadTokens(FIFO) = %v, want a TokenFileError saying it is not a regular file", err)
	}
	if err := os.Remove(real); err != nil {
		t.Fatal(err)
	}
	if err := makeFIFO(real); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unblockFIFO(real) })
	if err := within("Reload", func() error { return tokens.Reload(context.Background()) }); !errors.As(err, &te) {
		t.Errorf("Reload of a FIFO behind the link = %v, want a TokenFileError", err)
	}
	if _, ok := tokens.lookup(alphaToken); !ok {
		t.Error("the failed reload dropped the tokens in force")
	}
	var ce *ConfigError
	if err := within("LoadConfig", func() error { _, err := LoadConfig(fifo); return err }); !errors.As(err, &ce) {
		t.Errorf("LoadConfig(FIFO) = %v, want a ConfigError", err)
	}
}

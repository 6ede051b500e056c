package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Tokens of these tests: 16 characters or more, as the token file asks.
const (
	tokenAll   = "all-corpora-token-0123456789"
	tokenAlpha = "alpha-only-token-0123456789"
	tokenLater = "added-on-sighup-0123456789"
)

func digest(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// teamConfig writes a config of two corpora, alpha and beta, each a
// repository of its own, with tokenAlpha scoped to alpha, and returns its
// path and the token file (tokenAll, every corpus).
func teamConfig(t *testing.T, extra string) (config, tokens string) {
	t.Helper()
	dir := t.TempDir()
	config = filepath.Join(dir, "config.yaml")
	writeTestFile(t, config, fmt.Sprintf("corpora:\n  - {name: alpha, cwd: %q}\n  - {name: beta, cwd: %q}\n"+
		"tokens:\n  - sha256: %q\n    corpora: [alpha]\n%s", newRepo(t), newRepo(t), digest(tokenAlpha), extra))
	tokens = filepath.Join(dir, "tokens")
	writeTestFile(t, tokens, "# every corpus\n"+tokenAll+"\n")
	return config, tokens
}

// The flags that only make sense together are refused as command-line
// mistakes, before anything starts.
func TestHTTPFlagMistakes(t *testing.T) {
	clearEnv(t)
	repo := newRepo(t)
	config, tokens := teamConfig(t, "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", config}, "--config configures the HTTP server: give --http too"},
		{[]string{"--token-file", tokens}, "--token-file configures the HTTP server: give --http too"},
		{[]string{"--http", ""}, "--http needs an address"},
		{[]string{"--http", "127.0.0.1:0", "--config", config, "--cwd", repo}, "--config lists the corpora"},
		{[]string{"--http", "127.0.0.1:0", "--config", config, "--dir", "docs/adr"}, "--config lists the corpora"},
		{[]string{"--http", "127.0.0.1:0", "--config", config, "--rev", "HEAD"}, "--config lists the corpora"},
		{[]string{"--http", "127.0.0.1:0", "--config", ""}, "--config needs a file"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", ""}, "--token-file needs a file"},
		{[]string{"--http", "127.0.0.1:0", "--cwd", ""}, `--cwd (or ADRKIT_MCP_CWD) is ""`},
	} {
		got := runCLI(t, "", tc.args...)
		lines := strings.Split(strings.TrimSuffix(got.stderr, "\n"), "\n")
		if got.code != 2 || got.stdout != "" || len(lines) != 2 || !strings.HasPrefix(lines[0], "adrkit-mcp: "+tc.want) ||
			!strings.HasPrefix(lines[1], "usage: adrkit-mcp") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, got.code, got.stdout, got.stderr, tc.want)
		}
	}
}

// The HTTP flags' environment variables count as the flags.
func TestHTTPEnvironment(t *testing.T) {
	clearEnv(t)
	repo := newRepo(t)
	config, _ := teamConfig(t, "")
	t.Setenv("ADRKIT_MCP_CONFIG", config)
	if got := runCLI(t, ""); got.code != 2 || !strings.HasPrefix(got.stderr, "adrkit-mcp: --config configures the HTTP server") {
		t.Errorf("ADRKIT_MCP_CONFIG without --http: exit %d, stderr %q", got.code, got.stderr)
	}
	os.Unsetenv("ADRKIT_MCP_CONFIG")
	t.Setenv("ADRKIT_MCP_HTTP", "0.0.0.0:0")
	if got := runCLI(t, "", "--cwd", repo); got.code != 2 || !strings.HasPrefix(got.stderr, "adrkit-mcp: refusing to listen on 0.0.0.0:0") {
		t.Errorf("ADRKIT_MCP_HTTP beyond loopback without tokens: exit %d, stderr %q", got.code, got.stderr)
	}
	t.Setenv("ADRKIT_MCP_HTTP", "127.0.0.1:0")
	t.Setenv("ADRKIT_MCP_TOKEN_FILE", filepath.Join(t.TempDir(), "missing"))
	if got := runCLI(t, "", "--cwd", repo); got.code != 2 || !strings.HasPrefix(got.stderr, "adrkit-mcp: token file ") {
		t.Errorf("ADRKIT_MCP_TOKEN_FILE naming no file: exit %d, stderr %q", got.code, got.stderr)
	}
}

// Start-up failures of the HTTP server: what cannot be served safely or
// at all stops it with one line on stderr (status 2 for configuration,
// 1 for a port that cannot be had).
func TestHTTPStartupFailures(t *testing.T) {
	repo := newRepo(t)
	dir := t.TempDir()
	badConfig := filepath.Join(dir, "bad.yaml")
	writeTestFile(t, badConfig, "corpora:\n  - {name: a, cwd: /a}\ntoken: []\n")
	noTokens := filepath.Join(dir, "no-tokens.yaml")
	writeTestFile(t, noTokens, "corpora:\n  - {name: a, cwd: /a}\ntokens: []\n")
	emptyTokens := filepath.Join(dir, "empty")
	writeTestFile(t, emptyTokens, "# nothing\n")
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"every interface without tokens", []string{"--http", "0.0.0.0:0", "--cwd", repo}, 2,
			"adrkit-mcp: refusing to listen on 0.0.0.0:0 ("},
		// Refused before binding: the port is taken, and that is not what
		// is reported.
		{"every interface without tokens, on a port taken", []string{"--http", fmt.Sprintf("0.0.0.0:%d", busy.Addr().(*net.TCPAddr).Port), "--cwd", repo}, 2,
			"adrkit-mcp: refusing to listen on 0.0.0.0:"},
		{"a config without tokens", []string{"--http", "127.0.0.1:0", "--config", noTokens}, 2,
			"adrkit-mcp: config " + noTokens + ": no token is given: list tokens, give --token-file, or write auth: none"},
		{"a config with an unknown key", []string{"--http", "127.0.0.1:0", "--config", badConfig}, 2,
			"adrkit-mcp: config " + badConfig + `: unknown field "token"`},
		{"a token file without tokens", []string{"--http", "127.0.0.1:0", "--cwd", repo, "--token-file", emptyTokens}, 2,
			"adrkit-mcp: token file " + emptyTokens + ": holds no token"},
		{"a port already taken", []string{"--http", busy.Addr().String(), "--cwd", repo}, 1,
			"adrkit-mcp: listening on " + busy.Addr().String() + ": "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stderr := runHTTPBinary(t, tc.args...)
			if code != tc.code || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and a line starting %q", code, stderr, tc.code, tc.want)
			}
		})
	}
	if code, stderr := runHTTPBinary(t, "--http", "0.0.0.0:0", "--cwd", repo); !strings.Contains(stderr, "without tokens: only a loopback address may serve without --token-file or tokens in --config") {
		t.Errorf("exit %d: the exposure refusal does not say what to do: %q", code, stderr)
	}

	// With tokens, every interface is allowed.
	s := startHTTP(t, "--http", "0.0.0.0:0", "--cwd", repo, "--token-file", writeTokens(t, tokenAll))
	if code := s.stop(); code != 0 {
		t.Errorf("exit %d after SIGTERM", code)
	}
}

func writeTokens(t *testing.T, tokens ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tokens")
	writeTestFile(t, path, strings.Join(tokens, "\n")+"\n")
	return path
}

// Bearer tokens, their scopes, the Host and Origin checks, and the access
// log, against the binary serving two corpora.
func TestHTTPSecurity(t *testing.T) {
	config, tokens := teamConfig(t, "")
	s := startHTTP(t, "--http", "127.0.0.1:0", "--config", config, "--token-file", tokens)
	const secretArg = "an-argument-value-never-logged"
	call := toolCallHTTP(1, "search_decisions", `{"query":"`+secretArg+`"}`, false)
	bearer := func(token string) map[string]string { return map[string]string{"Authorization": "Bearer " + token} }

	for _, tc := range []struct {
		name, path string
		hdr        map[string]string
		status     int
		challenge  string
	}{
		{"no token", "/mcp/alpha", nil, 401, `Bearer realm="adrkit-mcp"`},
		{"another scheme", "/mcp/alpha", map[string]string{"Authorization": "Basic " + tokenAll}, 401, `Bearer realm="adrkit-mcp"`},
		{"an unknown token", "/mcp/alpha", bearer("not-a-token-anyone-has-0000"), 401, `error="invalid_token"`},
		{"a token out of its scope", "/mcp/beta", bearer(tokenAlpha), 403, `error="insufficient_scope"`},
		{"out of scope, unknown corpus", "/mcp/gamma", bearer(tokenAlpha), 403, `error="insufficient_scope"`},
		{"the scoped token in scope", "/mcp/alpha", bearer(tokenAlpha), 200, ""},
		{"the token file's token", "/mcp/beta", bearer(tokenAll), 200, ""},
		{"an unknown corpus", "/mcp/gamma", bearer(tokenAll), 404, ""},
		{"the unnamed path of a config", "/mcp", bearer(tokenAll), 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := s.call(tc.path, call, tc.hdr)
			if got.status != tc.status {
				t.Errorf("status %d, want %d: %s", got.status, tc.status, got.body)
			}
			if ch := got.header.Get("WWW-Authenticate"); !strings.HasPrefix(ch, "Bearer ") || !strings.Contains(ch, tc.challenge) {
				if tc.challenge != "" {
					t.Errorf("WWW-Authenticate %q, want one with %q", ch, tc.challenge)
				}
			}
			if tc.status == 200 {
				if res := structured(t, got.body)["result"].(map[string]any); res["outcome"] == nil {
					t.Errorf("answer %s", got.body)
				}
			}
		})
	}

	// DNS rebinding: a page whose name now resolves to 127.0.0.1 still
	// sends its own name; a browser page of another origin sends it too.
	for _, tc := range []struct {
		name string
		set  func(*http.Request)
	}{
		{"a foreign Host", func(r *http.Request) { r.Host = "attacker.example:8080" }},
		{"a cross-site browser request", func(r *http.Request) {
			r.Header.Set("Origin", "https://attacker.example")
			r.Header.Set("Sec-Fetch-Site", "cross-site")
		}},
		{"a foreign Origin", func(r *http.Request) { r.Header.Set("Origin", "https://attacker.example") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, s.url+"/mcp/alpha", strings.NewReader(call))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", "Bearer "+tokenAll)
			tc.set(req)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("status %d, want 403", resp.StatusCode)
			}
		})
	}

	// The access log: one record per MCP request with corpus, status and
	// duration, and the method and tool of every request let in (the body
	// of a refused one is never read); never an argument or a token. The
	// unnamed /mcp of a config is no MCP endpoint: no record.
	if code := s.stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
	log := s.log()
	for _, secret := range []string{secretArg, tokenAll, tokenAlpha, digest(tokenAll), "not-a-token-anyone-has"} {
		if strings.Contains(log, secret) {
			t.Errorf("the log holds %q:\n%s", secret, log)
		}
	}
	var requests, ok200 int
	for _, rec := range s.logRecords() {
		if rec["msg"] != "mcp request" {
			continue
		}
		requests++
		for _, key := range []string{"corpus", "status", "durationMs"} {
			if _, has := rec[key]; !has {
				t.Errorf("access record without %s: %v", key, rec)
			}
		}
		if rec["status"] == float64(200) {
			ok200++
			if rec["method"] != "tools/call" || rec["tool"] != "search_decisions" {
				t.Errorf("access record %v", rec)
			}
		}
	}
	if requests != 11 || ok200 != 2 {
		t.Errorf("%d access records (%d of them 200), want 11 (2)\n%s", requests, ok200, log)
	}
}

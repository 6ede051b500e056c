//lint:file-ignore SA1019 go-sdk marks roots deprecated from revision 2026-07-28 on; the handshake revisions under test have them.

package entry

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// record is a decision file with title.
func record(id, title string) string {
	return "---\nschemaVersion: 0.1.0\nid: \"" + id + "\"\ntitle: " + title + "\nstatus: proposed\ndate: 2026-01-02\n---\n\n# " + title + "\n"
}

// lockedBuffer is stderr shared by the server's goroutines and the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// served is one Serve under test and the go-sdk client connected to it.
type served struct {
	session *sdk.ClientSession
	client  *sdk.Client
	stderr  *lockedBuffer
	// uris are the client's roots.
	uris []string
}

// serveClient runs Serve for l (environment env) and connects go-sdk's
// client to it over pipes, on the handshake revision 2025-11-25 (the one
// with roots), with the roots uris; with none, the client does not
// declare the roots capability. The server must end with status 0 at the
// end of the input, when the test ends.
func serveClient(t *testing.T, l Location, env map[string]string, uris ...string) *served {
	t.Helper()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	s := &served{stderr: &lockedBuffer{}}
	code := make(chan int, 1)
	go func() {
		code <- Serve(context.Background(), l, Surface{}, Stdio{
			Program: "adrkit-mcp", Command: "adrkit-mcp", In: serverIn, Out: serverOut, Err: s.stderr,
			Getenv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		})
		serverOut.Close()
	}()
	var opts *sdk.ClientOptions // go-sdk's default capabilities: roots, listChanged
	if len(uris) == 0 {
		opts = &sdk.ClientOptions{Capabilities: &sdk.ClientCapabilities{}}
	}
	s.client = sdk.NewClient(&sdk.Implementation{Name: "roots-test", Version: "1"}, opts)
	s.setRoots(uris...)
	var err error
	s.session, err = s.client.Connect(context.Background(), &sdk.IOTransport{Reader: clientIn, Writer: clientOut},
		&sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		clientOut.Close()
		if c := <-code; c != 0 {
			t.Errorf("Serve ended with status %d; stderr:\n%s", c, s.stderr)
		}
		_ = s.session.Close()
	})
	return s
}

// setRoots replaces the client's roots with uris, which tells a
// connected server that they changed.
func (s *served) setRoots(uris ...string) {
	s.client.RemoveRoots(s.uris...)
	var roots []*sdk.Root
	for _, u := range uris {
		roots = append(roots, &sdk.Root{URI: u})
	}
	s.client.AddRoots(roots...)
	s.uris = uris
}

// fileURI is dir as a file: URI, percent-encoded.
func fileURI(dir string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String()
}

// search is the answer of search_decisions for query: its outcome, the
// ids it found and its summary line.
func (s *served) search(t *testing.T, query string) (outcome string, ids []string, text string) {
	t.Helper()
	res, err := s.session.CallTool(context.Background(), &sdk.CallToolParams{
		Name: "search_decisions", Arguments: map[string]any{"query": query},
	})
	if err != nil {
		t.Fatal(err)
	}
	var answer struct {
		Result struct {
			Outcome string `json:"outcome"`
			Items   []struct {
				ID string `json:"id"`
			} `json:"items"`
		} `json:"result"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &answer); err != nil {
		t.Fatal(err)
	}
	for _, r := range answer.Result.Items {
		ids = append(ids, r.ID)
	}
	return answer.Result.Outcome, ids, res.Content[0].(*sdk.TextContent).Text
}

// TestServeFindsTheRepositoryFromTheClient: adrkit mcp started outside
// any repository serves the first of the client's roots that lies in one
// (a remote root and a folder outside any repository skipped), switches
// when the client's roots change, and says why it reads nothing when the
// client has none, lists none in a repository, or declares no roots at
// all; CLAUDE_PROJECT_DIR names the repository without roots; --cwd wins
// over both.
func TestServeFindsTheRepositoryFromTheClient(t *testing.T) {
	outside := t.TempDir()
	alpha := tree(t, map[string]string{".git/": "", "docs/adr/0001-alpha.md": record("0001", "Alpha store"), "svc/api/": ""})
	beta := tree(t, map[string]string{".git/": "", "decisions/0007-beta.md": record("0007", "Beta store"), ".adr-dir": "decisions\n"})
	unlocated := locate(t, outside, noEnv, ServerEnv)
	if !unlocated.Unlocated() {
		t.Fatalf("%s is inside a repository: the test needs a temporary directory outside any", outside)
	}

	t.Run("roots", func(t *testing.T) {
		remote := "https://example.com/repo"
		s := serveClient(t, unlocated, nil, remote, fileURI(outside), fileURI(filepath.Join(alpha, "svc", "api")), fileURI(beta))
		if outcome, ids, _ := s.search(t, "store"); outcome != "results" || strings.Join(ids, ",") != "0001" {
			t.Errorf("first root in a repository: %s %v, want results [0001]", outcome, ids)
		}
		s.setRoots(fileURI(beta))
		if outcome, ids, _ := s.search(t, "store"); outcome != "results" || strings.Join(ids, ",") != "0007" {
			t.Errorf("after roots/list_changed to beta (.adr-dir): %s %v, want results [0007]", outcome, ids)
		}
		s.setRoots(fileURI(outside))
		if outcome, _, text := s.search(t, "store"); outcome != "corpus-unavailable" || !strings.Contains(text, "none of the client's 1 workspace roots (MCP roots) is inside one.") {
			t.Errorf("roots outside any repository: %s %q", outcome, text)
		}
		s.setRoots(remote, fileURI(outside))
		if _, _, text := s.search(t, "store"); !strings.Contains(text, "none of the client's 2 workspace roots (MCP roots) is inside one (1 of them not a local directory)") {
			t.Errorf("a remote root: %q", text)
		}
		s.setRoots()
		if _, _, text := s.search(t, "store"); !strings.Contains(text, "the client lists no workspace roots") {
			t.Errorf("no roots: %q", text)
		}
		if got := s.stderr.String(); !strings.Contains(got, "serving the repository at "+beta) {
			t.Errorf("stderr does not say which repository is served:\n%s", got)
		}
	})

	t.Run("client without roots", func(t *testing.T) {
		s := serveClient(t, unlocated, nil)
		outcome, _, text := s.search(t, "store")
		want := "No Git repository here: the server started outside a repository, and the client has named no workspace root " +
			"(MCP roots) to find one in. Start the server inside the repository, or name its root with --cwd (or ADRKIT_MCP_CWD)."
		if outcome != "corpus-unavailable" || text != want {
			t.Errorf("got %s %q\nwant corpus-unavailable %q", outcome, text, want)
		}
	})

	t.Run("CLAUDE_PROJECT_DIR", func(t *testing.T) {
		s := serveClient(t, unlocated, map[string]string{ProjectDirVar: filepath.Join(alpha, "svc")})
		if outcome, ids, _ := s.search(t, "store"); outcome != "results" || strings.Join(ids, ",") != "0001" {
			t.Errorf("got %s %v, want results [0001]", outcome, ids)
		}
	})

	t.Run("--cwd wins", func(t *testing.T) {
		named := locate(t, outside, noEnv, ServerEnv, "--cwd", beta, "--dir", "decisions")
		s := serveClient(t, named, map[string]string{ProjectDirVar: alpha}, fileURI(alpha))
		if outcome, ids, _ := s.search(t, "store"); outcome != "results" || strings.Join(ids, ",") != "0007" {
			t.Errorf("got %s %v, want results [0007] from --cwd", outcome, ids)
		}
	})
}

// TestServeRootsNeverAnswered: a client that declares roots, is asked
// for them and ends its input without answering still gets its tool call
// answered, saying why nothing was read, and the server ends with status
// 0.
func TestServeRootsNeverAnswered(t *testing.T) {
	unlocated := locate(t, t.TempDir(), noEnv, ServerEnv)
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	var errs lockedBuffer
	code := make(chan int, 1)
	go func() {
		code <- Serve(context.Background(), unlocated, Surface{}, Stdio{Program: "adrkit-mcp", In: serverIn, Out: serverOut, Err: &errs, Getenv: noEnv})
		serverOut.Close()
	}()
	send := func(line string) {
		if _, err := io.WriteString(clientOut, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	frames := bufio.NewScanner(clientIn)
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	asked := false
	for !asked && frames.Scan() {
		asked = strings.Contains(frames.Text(), `"method":"roots/list"`)
	}
	if !asked {
		t.Fatal("the server did not ask for the roots")
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_decisions","arguments":{"query":"x"}}}`)
	clientOut.Close()
	var rest []string
	answered := false
	for frames.Scan() {
		rest = append(rest, frames.Text())
		answered = answered || strings.Contains(frames.Text(), `"id":2,"result"`) &&
			strings.Contains(frames.Text(), "the client did not list its workspace roots")
	}
	if !answered {
		t.Errorf("after roots/list, unanswered, and the end of input:\n%s", strings.Join(rest, "\n"))
	}
	if c := <-code; c != 0 {
		t.Errorf("status %d, stderr %q", c, errs.String())
	}
}

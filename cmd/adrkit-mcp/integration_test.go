package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// binary builds adrkit-mcp once for the package's tests.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	buildOnce.Do(func() {
		gobin, err := exec.LookPath("go")
		if err != nil {
			buildErr = err
			return
		}
		dir, err := os.MkdirTemp("", "adrkit-mcp-it-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "adrkit-mcp")
		out, err := exec.Command(gobin, "build", "-o", builtBin, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building adrkit-mcp: %v", buildErr)
	}
	return builtBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtBin != "" {
		_ = os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}

// A real client drives the built binary in each era: the go-sdk client
// with an explicit legacy revision runs the initialize handshake, and with
// no revision probes server/discover and speaks 2026-07-28.
func TestGoSDKClientBothEras(t *testing.T) {
	bin := binary(t)
	repo := newRepo(t)
	for _, tc := range []struct {
		name, version, negotiated string
	}{
		{"legacy", "2025-06-18", "2025-06-18"},
		{"modern", "", "2026-07-28"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			client := mcp.NewClient(&mcp.Implementation{Name: "adrkit-it", Version: "0"}, &mcp.ClientOptions{
				// Makes the modern client open subscriptions/listen too.
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {},
			})
			var stderr strings.Builder
			cmd := exec.Command(bin, "--cwd", repo)
			cmd.Stderr = &stderr
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: tc.version})
			if err != nil {
				t.Fatalf("connect: %v (stderr %q)", err, stderr.String())
			}
			init := cs.InitializeResult()
			if init.ProtocolVersion != tc.negotiated || init.ServerInfo.Name != "adrkit-mcp" {
				t.Errorf("negotiated %q with %+v", init.ProtocolVersion, init.ServerInfo)
			}
			if init.Capabilities.Tools == nil || !init.Capabilities.Tools.ListChanged || init.Capabilities.Prompts != nil {
				t.Errorf("capabilities = %+v", init.Capabilities)
			}

			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatalf("tools/list: %v", err)
			}
			var names []string
			for _, tool := range tools.Tools {
				names = append(names, tool.Name)
				if tool.OutputSchema == nil || tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
					t.Errorf("%s is incomplete: %+v", tool.Name, tool)
				}
			}
			if want := []string{"get_decision", "get_decision_context", "list_superseded", "search_decisions"}; !reflect.DeepEqual(names, want) {
				t.Errorf("tools = %v", names)
			}

			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_decision", Arguments: map[string]any{"ref": "0001"}})
			if err != nil {
				t.Fatalf("tools/call: %v", err)
			}
			sc, _ := res.StructuredContent.(map[string]any)
			result, _ := sc["result"].(map[string]any)
			if res.IsError || result["outcome"] != "found" {
				t.Errorf("get_decision 0001 = %+v", res)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; text != `Found decision "0001"; 0 findings on this page.` {
				t.Errorf("summary = %q", text)
			}

			refused, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_decisions", Arguments: map[string]any{"query": "x", "bogus": 1}})
			if err != nil {
				t.Fatalf("tools/call: %v", err)
			}
			if !refused.IsError || refused.StructuredContent != nil ||
				!strings.HasPrefix(refused.Content[0].(*mcp.TextContent).Text, "Input validation error: Invalid arguments for tool search_decisions:") {
				t.Errorf("refused call = %+v", refused)
			}

			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}}); err == nil {
				t.Error("an unknown tool was accepted")
			}

			if err := cs.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			if err := cs.Wait(); err != nil && !errors.Is(err, mcp.ErrConnectionClosed) {
				t.Logf("wait: %v", err)
			}
			if code := cmd.ProcessState.ExitCode(); code != 0 || stderr.String() != "" {
				t.Errorf("exit %d, stderr %q", code, stderr.String())
			}
		})
	}
}

// started is a running binary with its stdin and stdout.
type started struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *strings.Builder
}

func startBinary(t *testing.T, args ...string) *started {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &started{cmd: cmd, stdin: stdin, stdout: bufio.NewReader(stdout), stderr: &strings.Builder{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return s
}

func (s *started) request(t *testing.T, line string) string {
	t.Helper()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
	answer, err := s.stdout.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	return answer
}

func TestSignalEndsTheProcessCleanly(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			s := startBinary(t, "--cwd", newRepo(t))
			// A diagnostic first: a signal still ends with status 0.
			if _, err := io.WriteString(s.stdin, "[]\n"); err != nil {
				t.Fatal(err)
			}
			s.request(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
			if err := s.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := s.cmd.Wait()
			if code := s.cmd.ProcessState.ExitCode(); code != 0 {
				t.Errorf("exit %d (%v), stderr %q", code, err, s.stderr.String())
			}
			if strings.Count(s.stderr.String(), "\n") != 1 {
				t.Errorf("stderr = %q, want the one diagnostic", s.stderr.String())
			}
		})
	}
}

func TestClosedStdoutEndsWithStatusOne(t *testing.T) {
	cmd := exec.Command(binary(t), "--cwd", newRepo(t))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = outW
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	// The client goes away: nobody reads stdout any more.
	_ = outW.Close()
	_ = outR.Close()
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit %d, want 1 (stderr %q)", code, stderr.String())
	}
	if got := stderr.String(); !strings.HasPrefix(got, "adrkit-mcp: transport error: ") || strings.Count(got, "\n") != 1 {
		t.Errorf("stderr = %q, want one diagnostic", got)
	}
}

func TestStdoutCarriesOnlyFrames(t *testing.T) {
	s := startBinary(t, "--cwd", newRepo(t))
	input := strings.Join([]string{
		"not json", "", "[]", `{"jsonrpc":"2.0","id":9,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_superseded","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"prompts/list"}`,
	}, "\n") + "\n"
	if _, err := io.WriteString(s.stdin, input); err != nil {
		t.Fatal(err)
	}
	_ = s.stdin.Close()
	out, err := io.ReadAll(s.stdout)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.cmd.Wait()
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d output lines, want 4:\n%s", len(lines), out)
	}
	for _, line := range lines {
		if !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":`) {
			t.Errorf("not a frame: %q", line)
		}
	}
	// "not json", "[]" and the response: one diagnostic each; the blank
	// line is nothing.
	if code := s.cmd.ProcessState.ExitCode(); code != 1 || strings.Count(s.stderr.String(), "\n") != 3 {
		t.Errorf("exit %d, stderr %q (want 1 and three diagnostics)", code, s.stderr.String())
	}
}

//lint:file-ignore SA1019 go-sdk marks roots deprecated from revision 2026-07-28 on; the handshake revision under test has them.

package main

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStartedOutsideTheRepository: the built binary, started in a
// directory outside any repository with no option, serves the repository
// of go-sdk's client's workspace root, or of CLAUDE_PROJECT_DIR for a
// client without roots (ADR 0044).
func TestStartedOutsideTheRepository(t *testing.T) {
	bin := binary(t)
	repo, outside := newRepo(t), t.TempDir()
	for _, tc := range []struct {
		name  string
		roots []string
		env   []string
	}{
		{"roots", []string{"https://example.com/x", (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(repo, "docs"))}).String()}, nil},
		{"CLAUDE_PROJECT_DIR", nil, []string{"CLAUDE_PROJECT_DIR=" + repo}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}} // no roots
			if tc.roots != nil {
				opts = nil // go-sdk's default: roots
			}
			client := mcp.NewClient(&mcp.Implementation{Name: "adrkit-it", Version: "0"}, opts)
			for _, uri := range tc.roots {
				client.AddRoots(&mcp.Root{URI: uri})
			}
			var stderr strings.Builder
			cmd := exec.Command(bin)
			cmd.Dir, cmd.Stderr = outside, &stderr
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "ADRKIT_MCP_") && !strings.HasPrefix(kv, "CLAUDE_PROJECT_DIR=") {
					cmd.Env = append(cmd.Env, kv)
				}
			}
			cmd.Env = append(cmd.Env, tc.env...)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Fatalf("connect: %v (stderr %q)", err, stderr.String())
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_decision", Arguments: map[string]any{"ref": "0001"}})
			if err != nil {
				t.Fatalf("tools/call: %v", err)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; text != `Found decision "0001"; 0 findings on this page.` {
				t.Errorf("get_decision 0001: %q (stderr %q)", text, stderr.String())
			}
			if err := cs.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		})
	}
}

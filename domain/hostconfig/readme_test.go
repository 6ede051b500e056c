package hostconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeSnippet: the README's .mcp.json for Claude Code is, byte for
// byte, the file adrkit init writes, so that a reader who copies it gets
// what init would have given them (it once named adrkit-mcp --cwd .).
func TestReadmeSnippet(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "**Claude Code**, shared with everyone who clones the repository")
	if !ok {
		t.Fatal("the README has no Claude Code section")
	}
	_, block, ok := strings.Cut(after, "```json\n")
	block, _, closed := strings.Cut(block, "```")
	if !ok || !closed {
		t.Fatal("the Claude Code section has no JSON block")
	}
	want := Merge(target(t, ".mcp.json"), Launch{}, nil, false).Content
	if block != string(want) {
		t.Errorf("the README's .mcp.json:\n%s\nadrkit init writes:\n%s", block, want)
	}
}

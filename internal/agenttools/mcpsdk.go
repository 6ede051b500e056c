package agenttools

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// MCPSDKVersion is the release of the MCP TypeScript SDK
// (@modelcontextprotocol/sdk) whose client the tests drive, and .ci/run
// installs.
const MCPSDKVersion = "1.32.2"

// MCPSDK returns node and the node_modules directory that holds the MCP
// TypeScript SDK: $ADRKIT_MCP_SDK is the npm prefix it was installed in.
func MCPSDK(t testing.TB) (node, modules string) {
	t.Helper()
	prefix := os.Getenv("ADRKIT_MCP_SDK")
	node, err := exec.LookPath("node")
	if _, serr := os.Stat(filepath.Join(prefix, "node_modules", "@modelcontextprotocol", "sdk")); prefix != "" && serr == nil && err == nil {
		return node, filepath.Join(prefix, "node_modules")
	}
	if os.Getenv("ADRKIT_AGENT_TOOLS") == "required" {
		t.Fatal("node or the MCP TypeScript SDK is missing (set ADRKIT_MCP_SDK), and ADRKIT_AGENT_TOOLS=required")
	}
	t.Skip("the MCP TypeScript SDK is not installed: npm install --prefix DIR @modelcontextprotocol/sdk@" + MCPSDKVersion +
		" and set ADRKIT_MCP_SDK=DIR, with node on PATH (.ci/run does, with ADRKIT_AGENT_TOOLS=required)")
	return "", ""
}

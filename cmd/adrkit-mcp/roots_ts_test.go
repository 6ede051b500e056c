package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/agenttools"
	"github.com/adrkit/adrkit-go/internal/gittest"
)

// TestTypeScriptClientRoots: the MCP TypeScript SDK's client, which
// answers roots/list, gets the corpus of its workspace root from the
// built binary started outside any repository, and the other one's after
// it says its roots changed (a path with a space: percent-encoded).
func TestTypeScriptClientRoots(t *testing.T) {
	node, modules := agenttools.MCPSDK(t)
	bin := binary(t)
	alpha, beta := filepath.Join(t.TempDir(), "alpha"), filepath.Join(t.TempDir(), "beta store")
	for root, rec := range map[string]string{alpha: "0001-alpha.md", beta: "0002-beta.md"} {
		id := rec[:4]
		gittest.MakeRoot(t, root, map[string]string{"docs/adr/" + rec: "---\nid: \"" + id + "\"\ntitle: Store " + id +
			"\nstatus: accepted\ndate: 2025-01-10\ndeciders: [\"@alice\"]\n---\n\nWe store.\n"})
	}
	script, err := filepath.Abs("testdata/roots-client.cjs")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script, bin, t.TempDir(), alpha, beta)
	// The SDK starts the server with a few variables only (HOME, PATH, ...).
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var answer struct {
			Outcome string
			Items   []struct{ ID string }
		}
		if err := json.Unmarshal([]byte(line), &answer); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		ids := answer.Outcome
		for _, item := range answer.Items {
			ids += " " + item.ID
		}
		got = append(got, ids)
	}
	if strings.Join(got, "; ") != "results 0001; results 0002" {
		t.Errorf("answers %q, want results 0001, then 0002 after roots/list_changed", got)
	}
}

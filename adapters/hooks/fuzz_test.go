package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/agenthost"
)

// FuzzDecode: whatever a host writes, decoding never panics, an error is
// one line, and an answer to what decodes is one JSON line or nothing.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "cmd", "adrkit", "testdata", "hook", "*.json"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b), uint8(0))
		}
	}
	f.Add(`{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":7}}`, uint8(1))
	f.Add(`{"toolName":"edit","toolArgs":"{not json"}`, uint8(3))
	f.Add(`{"hook_event_name":"postToolUse","workspace_roots":[],"tool_name":"Write","tool_input":null}`, uint8(2))
	f.Fuzz(func(t *testing.T, event string, host uint8) {
		h := agenthost.HookHosts[int(host)%len(agenthost.HookHosts)]
		ev, err := Decode(h, strings.NewReader(event))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		if out := Answer(ev, "context"); out != nil && (strings.Count(string(out), "\n") != 1 || out[0] != '{') {
			t.Fatalf("answer %q", out)
		}
	})
}

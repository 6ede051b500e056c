package agenthost

import (
	"strings"
	"testing"
)

// Every host has a contract; the hook's hosts parse; the tools of every
// host are edit tools, whatever host's event carries them.
func TestTable(t *testing.T) {
	for _, h := range Hosts {
		c := h.Contract()
		if c.Name == "" || c.SessionStart == "" || c.Edit == "" || len(c.EditTools) == 0 {
			t.Errorf("%s: %+v", h, c)
		}
		if got, err := ParseHookHost(string(c.HookHost)); err != nil || got != c.HookHost {
			t.Errorf("%s: hook host %q does not parse: %v", h, c.HookHost, err)
		}
		for _, tool := range c.EditTools {
			if !IsEditTool(tool) && tool != ApplyPatch {
				t.Errorf("%s: %s is not an edit tool", h, tool)
			}
		}
	}
	if _, err := ParseHookHost("vscode"); err == nil || !strings.Contains(err.Error(), "claude, codex, cursor, copilot or gemini") {
		t.Errorf("vscode is not a --host of its own: %v", err)
	}
	if IsEditTool("Bash") || IsEditTool(ApplyPatch) {
		t.Error("Bash or apply_patch taken for a tool whose input names its file")
	}
	for _, h := range Hosts {
		if c := h.Contract(); c.Timeout != 0 && (c.TimeoutUnit <= 0 || c.Timeout%c.TimeoutUnit != 0) {
			t.Errorf("%s: a timeout of %s is not a whole number of %s", h, c.Timeout, c.TimeoutUnit)
		}
	}
	if !IsEditTool("write_file") || !IsToolEvent("AfterTool") || IsToolEvent(Gemini.Contract().Prompt) {
		t.Error("Gemini CLI's tool names and events")
	}
	if m := VSCode.Contract().EditMatcher(); m != "Write|Edit|MultiEdit|NotebookEdit|editFiles" || m != Claude.Contract().EditMatcher() {
		t.Errorf("the shared settings file's matcher: %s", m)
	}
}

// An event keeps MaxEventFiles paths and counts the rest.
func TestAddPath(t *testing.T) {
	var ev Event
	for range MaxEventFiles + 7 {
		ev.AddPath("a")
	}
	if len(ev.Paths) != MaxEventFiles || ev.Omitted != 7 {
		t.Fatalf("%d paths, %d omitted", len(ev.Paths), ev.Omitted)
	}
}

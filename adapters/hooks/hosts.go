package hooks

import (
	"encoding/json"
	"fmt"

	"github.com/adrkit/adrkit-go/domain/agenthost"
)

// cursor decodes Cursor's shape (docs/agents.md): camelCase
// event names, the conversation for the session and the workspace roots
// for the directory. Cursor's preToolUse answers with a permission
// decision only (adrkit decides no permission), so the files a tool
// writes are answered at postToolUse, whose answer adds context.
func (w wire) cursor() (agenthost.Event, error) {
	ev := agenthost.Event{Host: agenthost.Cursor, Name: w.HookEventName, SessionID: w.ConversationID, Tool: w.ToolName, Source: w.Source}
	if ev.SessionID == "" {
		ev.SessionID = w.SessionID
	}
	if len(w.WorkspaceRoots) > 0 {
		ev.Cwd = w.WorkspaceRoots[0]
	}
	if w.Cwd != "" {
		ev.Cwd = w.Cwd
	}
	return w.classify(ev)
}

// copilot decodes GitHub Copilot CLI's camelCase shape
// (docs/agents.md): the tool's arguments as a JSON string
// or a value, and no event name, which the hook's configuration implies:
// an event with a tool is preToolUse, one without is sessionStart. (Its
// VS Code compatible shape is Claude Code's.)
func (w wire) copilot() (agenthost.Event, error) {
	c := agenthost.Copilot.Contract()
	ev := agenthost.Event{Host: agenthost.Copilot, SessionID: w.SessionIDCam, Cwd: w.Cwd, Tool: w.ToolNameCamel, Source: w.Source}
	if ev.Tool == "" {
		ev.Kind, ev.Name = agenthost.SessionStart, c.SessionStart
		return ev, nil
	}
	ev.Name = c.Edit
	args := w.ToolArgs
	if len(args) > 0 && args[0] == '"' {
		var s string
		if err := json.Unmarshal(args, &s); err != nil {
			return agenthost.Event{}, fmt.Errorf("toolArgs is not a JSON string: %w", err)
		}
		args = json.RawMessage(s)
	}
	if err := toolPaths(&ev, args); err != nil {
		return agenthost.Event{}, err
	}
	return ev, nil
}

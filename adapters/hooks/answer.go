package hooks

import (
	"encoding/json"

	"github.com/adrkit/adrkit-go/domain/agenthost"
)

// Answer is the JSON a host reads on the hook's stdout to add text to the
// model's context for ev, or nil when the host's contract has no place
// for it (then the hook writes nothing). text must not be empty.
func Answer(ev agenthost.Event, text string) []byte {
	var v any
	switch ev.Host {
	case agenthost.Cursor:
		// Cursor: additional_context, at sessionStart and postToolUse.
		if ev.Kind == agenthost.Other {
			return nil
		}
		v = struct {
			AdditionalContext string `json:"additional_context"`
		}{text}
	case agenthost.Copilot:
		// Copilot's hooks have no place for context: its sessionStart
		// output is not read and its preToolUse output is a permission
		// decision only (docs/agents.md).
		return nil
	default:
		// Claude Code and Codex: hookEventName is required whenever
		// additionalContext is sent (recent clients drop it otherwise);
		// Gemini CLI reads additionalContext alone.
		v = claudeAnswer{HookSpecificOutput: claudeSpecific{HookEventName: ev.Name, AdditionalContext: text}}
	}
	out, err := json.Marshal(v)
	if err != nil {
		// Only strings and structs: Marshal cannot fail.
		panic(err)
	}
	return append(out, '\n')
}

type claudeAnswer struct {
	HookSpecificOutput claudeSpecific `json:"hookSpecificOutput"`
}

type claudeSpecific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

package hooks

// cursorAnswer is Cursor's answer (docs/agents.md):
// additional_context, at sessionStart and postToolUse.
func cursorAnswer(ev Event, text string) any {
	switch ev.Kind {
	case SessionStart, Edit:
		return struct {
			AdditionalContext string `json:"additional_context"`
		}{text}
	}
	return nil
}

package hooks

// cursorAnswer is Cursor's answer (docs/agents-hooks-sources.md).
func cursorAnswer(ev Event, text string) any {
	switch ev.Kind {
	case SessionStart:
		return struct {
			AdditionalContext string `json:"additional_context"`
		}{text}
	case BeforeEdit:
		return struct {
			Permission   string `json:"permission"`
			AgentMessage string `json:"agent_message"`
		}{"allow", text}
	}
	return nil
}

// copilotAnswer is GitHub Copilot's answer (docs/agents-hooks-sources.md).
func copilotAnswer(ev Event, text string) any {
	return nil
}

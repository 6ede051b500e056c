package hooks

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/adrkit/adrkit-go/domain/agenthost"
)

func TestAnswerShapes(t *testing.T) {
	cases := []struct {
		ev   agenthost.Event
		want string
	}{
		{agenthost.Event{Host: agenthost.Claude, Kind: agenthost.Edit, Name: "PreToolUse"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ctx \"q\" <b>"}}`},
		{agenthost.Event{Host: agenthost.Claude, Kind: agenthost.SessionStart, Name: "SessionStart"}, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx \"q\" <b>"}}`},
		{agenthost.Event{Host: agenthost.Codex, Kind: agenthost.Edit, Name: "PreToolUse"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ctx \"q\" <b>"}}`},
		{agenthost.Event{Host: agenthost.Cursor, Kind: agenthost.Edit, Name: "postToolUse"}, `{"additional_context":"ctx \"q\" <b>"}`},
		{agenthost.Event{Host: agenthost.Cursor, Kind: agenthost.SessionStart, Name: "sessionStart"}, `{"additional_context":"ctx \"q\" <b>"}`},
		{agenthost.Event{Host: agenthost.Copilot, Kind: agenthost.Edit, Name: "preToolUse"}, ``},
		{agenthost.Event{Host: agenthost.Gemini, Kind: agenthost.Edit, Name: "AfterTool"}, `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"ctx \"q\" <b>"}}`},
		{agenthost.Event{Host: agenthost.Gemini, Kind: agenthost.SessionStart, Name: "SessionStart"}, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx \"q\" <b>"}}`},
	}
	for _, tc := range cases {
		got := Answer(tc.ev, `ctx "q" <b>`)
		if tc.want == "" {
			if got != nil {
				t.Errorf("%s %s: answer %s, want none", tc.ev.Host, tc.ev.Name, got)
			}
			continue
		}
		// encoding/json escapes <, > and & in strings; compare values.
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%s: %v", got, err)
		}
		_ = json.Unmarshal([]byte(tc.want), &w)
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		if !bytes.Equal(gj, wj) || !bytes.HasSuffix(got, []byte("}\n")) || bytes.Count(got, []byte("\n")) != 1 {
			t.Errorf("%s %s: answer %s, want %s", tc.ev.Host, tc.ev.Name, got, tc.want)
		}
	}
}

// Every answer adrkit gives Codex validates against the output schemas
// Codex publishes (testdata/codex/README.md).
func TestCodexAnswersValidate(t *testing.T) {
	schemas := map[agenthost.Kind]*jsonschema.Schema{
		agenthost.Edit:         compileSchema(t, "pre-tool-use.command.output.schema.json"),
		agenthost.SessionStart: compileSchema(t, "session-start.command.output.schema.json"),
	}
	names := map[agenthost.Kind]string{agenthost.Edit: "PreToolUse", agenthost.SessionStart: "SessionStart"}
	for kind, schema := range schemas {
		for _, text := range []string{"x", strings.Repeat("decision \"q\"\n", 150), "ünïcødé ✓"} {
			out := Answer(agenthost.Event{Host: agenthost.Codex, Kind: kind, Name: names[kind]}, text)
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Errorf("%s answer does not validate: %v\n%s", names[kind], err, out)
			}
		}
	}
	// The schema is strict: a field Codex does not know is refused, so
	// the test would catch one.
	doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"hookSpecificOutput":{"hookEventName":"SessionStart","additional_context":"x"}}`))
	if schemas[agenthost.SessionStart].Validate(doc) == nil {
		t.Fatal("the session-start schema accepts an unknown field")
	}
}

func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	s, err := c.Compile(filepath.ToSlash(filepath.Join("testdata", "codex", name)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

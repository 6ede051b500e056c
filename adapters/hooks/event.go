// Package hooks speaks the hook contracts of coding-agent hosts: it
// decodes one hook event a host writes on a hook command's stdin (Claude
// Code's shape, which Codex CLI, Gemini CLI and VS Code's agent mode
// share, Cursor's and GitHub Copilot's) into the host-neutral agenthost.Event, encodes
// the host's answer, and keeps on disk what the hook keeps between its
// runs (Store, the ports.HookStore of the working tree's hook).
//
// It decides nothing about decisions: app.Hook answers. The names of the
// events and tools are domain/agenthost's. A hook runs on every edit an
// agent makes, so everything here is bounded: the event read, the paths
// taken from it, the state kept.
package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/adrkit/adrkit-go/domain/agenthost"
)

// MaxEventBytes bounds the event read from stdin. A Write's tool_input
// carries the whole new file, so an event can be large; past this the
// event is refused unread rather than held in memory.
const MaxEventBytes = 16 << 20

// ErrTooLarge is Decode's error for an event past MaxEventBytes.
var ErrTooLarge = fmt.Errorf("the event is larger than %d MiB; not read", MaxEventBytes>>20)

// Decode reads one event of host from r, at most MaxEventBytes. An event
// that is not a JSON object, or whose fields have the wrong types, is an
// error; an event adrkit has nothing to add to is Kind Other, not an
// error.
func Decode(host agenthost.Host, r io.Reader) (agenthost.Event, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxEventBytes+1))
	if err != nil {
		return agenthost.Event{}, fmt.Errorf("reading the event: %w", err)
	}
	if len(data) > MaxEventBytes {
		return agenthost.Event{}, ErrTooLarge
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return agenthost.Event{}, errors.New("no event on stdin (expected one JSON object)")
	}
	var w wire
	if err := json.Unmarshal(data, &w); err != nil {
		return agenthost.Event{}, fmt.Errorf("the event is not the JSON object a hook receives: %w", jsonError(err))
	}
	switch host {
	case agenthost.Cursor:
		return w.cursor()
	case agenthost.Copilot:
		return w.copilot()
	}
	return w.claude(host)
}

// jsonError words a decoding error without the Go type names that
// encoding/json puts in it.
func jsonError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return fmt.Errorf("field %s has the wrong type (%s)", te.Field, te.Value)
		}
		return fmt.Errorf("expected an object, got %s", te.Value)
	}
	return err
}

// wire is every field of every host's event that adrkit reads. Unknown
// fields are ignored: hosts add fields in new versions.
type wire struct {
	// Claude Code, Codex, VS Code; Cursor's common fields.
	HookEventName string          `json:"hook_event_name"`
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	Source        string          `json:"source"`
	// Prompt is the user's prompt (Gemini CLI's BeforeAgent).
	Prompt string `json:"prompt"`
	// Cursor.
	ConversationID string   `json:"conversation_id"`
	WorkspaceRoots []string `json:"workspace_roots"`
	FilePath       string   `json:"file_path"`
	// GitHub Copilot (camelCase, tool arguments as a JSON string).
	ToolNameCamel string          `json:"toolName"`
	ToolArgs      json.RawMessage `json:"toolArgs"`
	SessionIDCam  string          `json:"sessionId"`
}

// toolInput is every field of an editing tool's input that names the
// file it writes.
type toolInput struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	// Path and TargetFile are other hosts' names for it (Copilot's
	// create and edit, Cursor's tools).
	Path       string `json:"path"`
	TargetFile string `json:"target_file"`
	// Files is VS Code's editFiles.
	Files []string `json:"files"`
	// Command (Codex: the patch of apply_patch), Input and Patch (other
	// spellings of the patch text).
	Command json.RawMessage `json:"command"`
	Input   string          `json:"input"`
	Patch   string          `json:"patch"`
}

// claude decodes Claude Code's shape (and Codex's, which is the same
// with apply_patch, and Gemini CLI's, with its own event and tool
// names).
func (w wire) claude(host agenthost.Host) (agenthost.Event, error) {
	ev := agenthost.Event{Host: host, Name: w.HookEventName, SessionID: w.SessionID, Cwd: w.Cwd, Tool: w.ToolName, Source: w.Source}
	return w.classify(ev)
}

// classify sets ev's kind from the event's name, by the contract of
// ev.Host: its session-start event, or its edit event, whose tool input
// names the files an edit writes. Other events are left without a kind
// (nothing to say).
func (w wire) classify(ev agenthost.Event) (agenthost.Event, error) {
	c := ev.Host.Contract()
	switch w.HookEventName {
	case "":
		return agenthost.Event{}, errors.New("the event has no hook_event_name")
	case c.SessionStart:
		ev.Kind = agenthost.SessionStart
	case c.Edit:
		if err := toolPaths(&ev, w.ToolInput); err != nil {
			return agenthost.Event{}, err
		}
	case c.Prompt:
		ev.Kind, ev.Prompt = agenthost.Prompt, w.Prompt
	}
	return ev, nil
}

// toolPaths makes ev an Edit of the files its tool writes, read from the
// tool's input, when the tool is one that writes files; past
// agenthost.MaxEventFiles they are only counted.
func toolPaths(ev *agenthost.Event, raw json.RawMessage) error {
	if !agenthost.IsEditTool(ev.Tool) && ev.Tool != agenthost.ApplyPatch {
		return nil
	}
	var in toolInput
	if len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if err := json.Unmarshal(raw, &in); err != nil {
			return fmt.Errorf("the %s tool_input is not an object of the expected fields: %w", ev.Tool, jsonError(err))
		}
	}
	ev.Kind = agenthost.Edit
	if ev.Tool == agenthost.ApplyPatch {
		var cmd string
		if len(in.Command) > 0 && in.Command[0] == '"' {
			_ = json.Unmarshal(in.Command, &cmd)
		}
		for _, text := range []string{cmd, in.Input, in.Patch} {
			patchPaths(ev, text)
		}
		return nil
	}
	for _, p := range []string{in.FilePath, in.NotebookPath, in.Path, in.TargetFile} {
		if p != "" {
			ev.AddPath(p)
			break
		}
	}
	for _, p := range in.Files {
		if p != "" {
			ev.AddPath(p)
		}
	}
	return nil
}

// patchPaths adds the files a Codex patch (the apply_patch format) adds,
// updates, deletes or moves to, in the order the patch names them.
func patchPaths(ev *agenthost.Event, patch string) {
	for line := range strings.Lines(patch) {
		line = strings.TrimRight(line, "\r\n")
		for _, prefix := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(line, prefix); ok {
				if p = strings.TrimSpace(p); p != "" {
					ev.AddPath(p)
				}
				break
			}
		}
	}
}

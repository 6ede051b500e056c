// Package hooks speaks the hook contracts of coding-agent hosts: it
// decodes one hook event a host writes on a hook command's stdin (Claude
// Code's shape, which Codex CLI and VS Code's agent mode share, Cursor's
// and GitHub Copilot's), composes the context adrkit adds for the model
// (the decisions that govern the files about to be written, or a digest
// of the corpus at the start of a session), encodes the host's answer,
// and remembers per session what was already said.
//
// It decides nothing about decisions: app.Govern and app.Digest answer.
// A hook runs on every edit an agent makes, so everything here is
// bounded: the event read, the context written, the state kept.
package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Host is an agent host whose hook contract adrkit speaks.
type Host string

// The hosts. Claude is the default: Claude Code's contract, which VS
// Code's agent mode also runs; Codex shares its shape and adds
// apply_patch.
const (
	Claude  Host = "claude"
	Codex   Host = "codex"
	Cursor  Host = "cursor"
	Copilot Host = "copilot"
)

// Hosts lists every host, in the order help names them.
var Hosts = []Host{Claude, Codex, Cursor, Copilot}

// ParseHost reads a --host value.
func ParseHost(s string) (Host, error) {
	for _, h := range Hosts {
		if string(h) == s {
			return h, nil
		}
	}
	return "", fmt.Errorf("--host must be claude, codex, cursor or copilot, got %q", s)
}

// Kind is what an event asks of adrkit.
type Kind int

// The kinds of event.
const (
	// Other is an event adrkit has nothing to add to.
	Other Kind = iota
	// Edit: a tool writes the event's Paths: it is about to (Claude
	// Code, Codex), or just did (Cursor, whose hooks can add context only
	// after a tool ran).
	Edit
	// SessionStart: a session begins (or resumes, or was cleared or
	// compacted); the digest of the corpus goes into its context.
	SessionStart
)

// Event is one hook event, host-neutral.
type Event struct {
	Host Host
	Kind Kind
	// Name is the event's name as the host wrote it ("PreToolUse",
	// "preToolUse", "sessionStart"...): the answer names it back.
	Name string
	// SessionID identifies the session (Cursor: the conversation); ""
	// when the host sent none.
	SessionID string
	// Source says why a session started, where the host tells
	// ("startup", "resume", "clear", "compact").
	Source string
	// Cwd is the directory the host runs the agent in (Cursor: the first
	// workspace root); "" when the host sent none.
	Cwd string
	// Tool is the tool about to run (Edit and Other tool events).
	Tool string
	// Paths are the files the tool writes, as the tool names them:
	// absolute, or relative to Cwd. Empty for a tool that writes none.
	Paths []string
}

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
func Decode(host Host, r io.Reader) (Event, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxEventBytes+1))
	if err != nil {
		return Event{}, fmt.Errorf("reading the event: %w", err)
	}
	if len(data) > MaxEventBytes {
		return Event{}, ErrTooLarge
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return Event{}, errors.New("no event on stdin (expected one JSON object)")
	}
	var w wire
	if err := json.Unmarshal(data, &w); err != nil {
		return Event{}, fmt.Errorf("the event is not the JSON object a hook receives: %w", jsonError(err))
	}
	switch host {
	case Cursor:
		return w.cursor()
	case Copilot:
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

// editTools are the tools that write a file named by tool_input, by
// host spelling; applyPatch names a file in its patch text instead.
var editTools = map[string]bool{
	// Claude Code.
	"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true,
	// VS Code's agent mode.
	"editFiles": true,
	// Cursor (Write and Edit as Claude Code's).
	"Delete": true,
	// GitHub Copilot CLI.
	"edit": true, "create": true,
}

const applyPatch = "apply_patch"

// claude decodes Claude Code's shape (and Codex's, which is the same
// with apply_patch).
func (w wire) claude(host Host) (Event, error) {
	ev := Event{Host: host, Name: w.HookEventName, SessionID: w.SessionID, Cwd: w.Cwd, Tool: w.ToolName, Source: w.Source}
	return w.classify(ev, "SessionStart", "PreToolUse")
}

// classify sets ev's kind from the event's name: start is the host's
// session-start event, edit the one whose tool input names the files an
// edit writes. Other events are left without a kind (nothing to say).
func (w wire) classify(ev Event, start, edit string) (Event, error) {
	switch w.HookEventName {
	case start:
		ev.Kind = SessionStart
	case edit:
		paths, edits, err := toolPaths(w.ToolName, w.ToolInput)
		if err != nil {
			return Event{}, err
		}
		if edits {
			ev.Kind, ev.Paths = Edit, paths
		}
	case "":
		return Event{}, errors.New("the event has no hook_event_name")
	}
	return ev, nil
}

// toolPaths reads the files a tool writes from its input; edits says the
// tool is one that writes files at all.
func toolPaths(tool string, raw json.RawMessage) (paths []string, edits bool, err error) {
	if !editTools[tool] && tool != applyPatch {
		return nil, false, nil
	}
	var in toolInput
	if len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, true, fmt.Errorf("the %s tool_input is not an object of the expected fields: %w", tool, jsonError(err))
		}
	}
	if tool == applyPatch {
		var cmd string
		if len(in.Command) > 0 && in.Command[0] == '"' {
			_ = json.Unmarshal(in.Command, &cmd)
		}
		for _, text := range []string{cmd, in.Input, in.Patch} {
			paths = append(paths, PatchPaths(text)...)
		}
		return paths, true, nil
	}
	for _, p := range []string{in.FilePath, in.NotebookPath, in.Path, in.TargetFile} {
		if p != "" {
			paths = append(paths, p)
			break
		}
	}
	for _, p := range in.Files {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, true, nil
}

// PatchPaths lists the files a Codex patch (the apply_patch format)
// adds, updates, deletes or moves to, in the order the patch names them.
func PatchPaths(patch string) []string {
	var out []string
	for line := range strings.Lines(patch) {
		line = strings.TrimRight(line, "\r\n")
		for _, prefix := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(line, prefix); ok {
				if p = strings.TrimSpace(p); p != "" {
					out = append(out, p)
				}
				break
			}
		}
	}
	return out
}

// Package agenthost is the one table of the coding-agent hosts adrkit
// works with: their names, the hook events each runs a command for and
// what those events are called, the tools whose files the hook looks up,
// and one hook event in a host-neutral form. "adrkit init" writes the
// entries from it (domain/hostconfig), "adrkit hook" decodes the events
// by it (adapters/hooks) and answers them (app), so that no name is
// spelled twice. Where each name comes from: docs/agents.md.
package agenthost

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Host is a coding-agent host.
type Host string

// The hosts, as "adrkit init --agents" names them.
const (
	Claude  Host = "claude"
	Codex   Host = "codex"
	Cursor  Host = "cursor"
	VSCode  Host = "vscode"
	Copilot Host = "copilot"
	Gemini  Host = "gemini"
)

// Hosts lists every host in the order init handles them.
var Hosts = []Host{Claude, Codex, Cursor, VSCode, Copilot, Gemini}

// Contract is a host's hook contract, as far as adrkit uses it.
type Contract struct {
	// Name is the host's name for people.
	Name string
	// HookHost is the hook contract the host's events and answers follow,
	// the value of "adrkit hook --host": VS Code's agent runs Claude
	// Code's; every other host its own.
	HookHost Host
	// SessionStart is the event at the start of a session; Edit the one
	// whose answer adds context about the files a tool writes: before
	// the tool where the host's answer has a place for context, after it
	// for Cursor (whose pre-tool answer is a permission decision only)
	// and Gemini CLI (whose pre-tool context never reaches the model).
	SessionStart, Edit string
	// After says Edit comes after the tool wrote its files, so that the
	// context says so.
	After bool
	// Prompt is the event between a user's prompt and the model's turn
	// that init wires, where the host's answer to it reaches the model
	// ("" for none).
	Prompt string
	// StartSources is the session-start matcher init writes ("" for
	// every source).
	StartSources string
	// EditTools are the tools whose files the hook looks up, in the
	// order init writes them into the edit event's matcher.
	EditTools []string
	// Timeout is the hook timeout init writes into the host's entries
	// (0: none written, the host's own default applies), as a whole
	// number of TimeoutUnit, the unit the host reads it in.
	Timeout, TimeoutUnit time.Duration
	// Context says the host's hooks can add context for the model at
	// all (GitHub Copilot's cannot).
	Context bool
}

// ApplyPatch is Codex's tool that writes the files its patch names.
const ApplyPatch = "apply_patch"

// claudeTools are Claude Code's file-writing tools and VS Code's
// editFiles: the two hosts share .claude/settings.json.
var claudeTools = []string{"Write", "Edit", "MultiEdit", "NotebookEdit", "editFiles"}

// contracts is the table (docs/agents.md, "What each host's hook
// contract allows", names the sources).
var contracts = map[Host]Contract{
	Claude: {Name: "Claude Code", HookHost: Claude, SessionStart: "SessionStart", Edit: "PreToolUse", EditTools: claudeTools, Context: true},
	VSCode: {Name: "VS Code", HookHost: Claude, SessionStart: "SessionStart", Edit: "PreToolUse", EditTools: claudeTools, Context: true},
	// Codex's matcher names apply_patch and the aliases Codex gives it.
	Codex: {Name: "Codex CLI", HookHost: Codex, SessionStart: "SessionStart", Edit: "PreToolUse", StartSources: "startup|resume",
		EditTools: []string{ApplyPatch, "Edit", "Write"}, Timeout: 10 * time.Second, TimeoutUnit: time.Second, Context: true},
	Cursor: {Name: "Cursor", HookHost: Cursor, SessionStart: "sessionStart", Edit: "postToolUse", After: true,
		EditTools: []string{"Write", "Edit", "Delete"}, Context: true},
	Copilot: {Name: "GitHub Copilot", HookHost: Copilot, SessionStart: "sessionStart", Edit: "preToolUse", EditTools: []string{"edit", "create"}},
	Gemini: {Name: "Gemini CLI", HookHost: Gemini, SessionStart: "SessionStart", Edit: "AfterTool", After: true, Prompt: "BeforeAgent",
		EditTools: []string{"write_file", "replace"}, Timeout: 10 * time.Second, TimeoutUnit: time.Millisecond, Context: true},
}

// Contract is h's hook contract; the zero Contract for an unknown host.
func (h Host) Contract() Contract { return contracts[h] }

// EditMatcher is the matcher of the edit event init writes for h.
func (c Contract) EditMatcher() string { return strings.Join(c.EditTools, "|") }

// HookHosts are the values "adrkit hook --host" takes, in the order
// its help names them.
var HookHosts = []Host{Claude, Codex, Cursor, Copilot, Gemini}

// ParseHookHost reads a --host value of "adrkit hook".
func ParseHookHost(s string) (Host, error) {
	if h := Host(s); slices.Contains(HookHosts, h) {
		return h, nil
	}
	return "", fmt.Errorf("--host must be claude, codex, cursor, copilot or gemini, got %q", s)
}

// IsToolEvent reports whether an event, in any host's spelling, is about
// a tool (adrkit answers it only for the tools that write files).
func IsToolEvent(name string) bool {
	switch name {
	case "PreToolUse", "PostToolUse", "preToolUse", "postToolUse", "BeforeTool", "AfterTool":
		return true
	}
	return false
}

// IsEditTool reports whether a tool writes the file its input names, in
// any host's spelling (apply_patch names its files in its patch
// instead). An event in one host's shape may carry another's tool names:
// Cursor runs Claude Code's hooks, VS Code speaks Claude Code's contract.
func IsEditTool(name string) bool {
	if name == ApplyPatch {
		return false
	}
	for _, c := range contracts {
		if slices.Contains(c.EditTools, name) {
			return true
		}
	}
	return false
}

// MaxEventFiles bounds the files one event may name: a patch can name
// thousands, and each costs a walk of the corpus. Past it the hook
// answers for the first MaxEventFiles and says how many it left out.
const MaxEventFiles = 100

// Kind is what an event asks of adrkit.
type Kind int

// The kinds of event.
const (
	// Other is an event adrkit has nothing to add to.
	Other Kind = iota
	// Edit: a tool writes the event's Paths: it is about to, or (Cursor,
	// Gemini CLI) just did.
	Edit
	// SessionStart: a session begins (or resumes, or was cleared or
	// compacted); the digest of the corpus goes into its context.
	SessionStart
	// Prompt: the user sent the event's Prompt, and the model has not
	// yet begun its turn.
	Prompt
)

// Event is one hook event, host-neutral.
type Event struct {
	// Host is the contract the event came in (a HookHosts value).
	Host Host
	Kind Kind
	// Name is the event's name as the host wrote it ("PreToolUse",
	// "postToolUse"...): the answer names it back.
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
	// Tool is the tool the event is about, if any.
	Tool string
	// Prompt is the user's prompt of a Prompt event.
	Prompt string
	// Paths are the files the tool writes, as the tool names them
	// (absolute, or relative to Cwd), at most MaxEventFiles; Omitted
	// counts those the event named past them.
	Paths   []string
	Omitted int
}

// AddPath adds a path the event names, or counts it past MaxEventFiles.
func (ev *Event) AddPath(p string) {
	if len(ev.Paths) < MaxEventFiles {
		ev.Paths = append(ev.Paths, p)
		return
	}
	ev.Omitted++
}

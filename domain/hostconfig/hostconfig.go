// Package hostconfig holds what "adrkit init" writes into a repository for
// each coding-agent host (the MCP server entry and the hooks), how it is
// merged into a file the repository already has, and how "adrkit doctor"
// reads those entries back. It is pure: the caller reads the files and
// writes the results.
//
// A merge never drops or rewrites what the user wrote: members keep their
// order and raw text, an entry named adrkit that exists already is kept
// as it is, and a file that cannot be read back without loss (comments,
// trailing commas, a repeated key, a value of an unexpected type) is left
// alone with the snippet to add by hand.
package hostconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/domain/agenthost"
)

// ParseHosts reads a comma-separated --agents value: known names, each
// once, in Hosts order.
func ParseHosts(s string) ([]agenthost.Host, error) {
	var out []agenthost.Host
	for _, part := range strings.Split(s, ",") {
		h := agenthost.Host(strings.TrimSpace(strings.ToLower(part)))
		if h == "" {
			continue
		}
		if !slices.Contains(agenthost.Hosts, h) {
			return nil, fmt.Errorf("unknown agent %q; the agents are claude, codex, cursor, vscode, copilot and gemini", strings.TrimSpace(part))
		}
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("name at least one agent: claude, codex, cursor, vscode, copilot or gemini")
	}
	slices.SortFunc(out, func(a, b agenthost.Host) int {
		return slices.Index(agenthost.Hosts, a) - slices.Index(agenthost.Hosts, b)
	})
	return out, nil
}

// ServerName is the name of the MCP server entry in every host's file.
const ServerName = "adrkit"

// DefaultDir is the ADR directory adrkit mcp reads without --dir.
const DefaultDir = "docs/adr"

// Launch is how the entries start adrkit.
type Launch struct {
	// Command is the adrkit executable: "adrkit" (found on PATH) unless
	// the user names another.
	Command string
	// Dir is the ADR directory relative to the root; anything but
	// DefaultDir is passed to the server as --dir.
	Dir string
}

// shellCommand is Command as a shell reads it (hooks are shell lines).
func (l Launch) shellCommand() string { return shellQuote(l.command()) }

func (l Launch) command() string {
	if l.Command == "" {
		return "adrkit"
	}
	return l.Command
}

// HookCommand is the hook line for host: "adrkit hook", with --host for
// the hosts whose events have a shape of their own, and --dir when the
// ADR directory is not one the hook finds by itself.
func (l Launch) HookCommand(h agenthost.Host) string {
	line := l.shellCommand() + " hook"
	if hh := h.Contract().HookHost; hh != agenthost.Claude {
		line += " --host " + string(hh)
	}
	if l.Dir != "" && l.Dir != DefaultDir {
		line += " --dir " + shellQuote(l.Dir)
	}
	return line
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(w string) string {
	if w != "" && !strings.ContainsAny(w, " \t'\"$`\\*?[]#~=%&;|<>(){}") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// ServerArgs are the arguments of the MCP server entry for host.
func (l Launch) ServerArgs(h agenthost.Host) []string {
	args := []string{"mcp"}
	switch h {
	case agenthost.VSCode:
		// VS Code starts servers in no particular directory and gives
		// the model only a tool answer's content.
		args = append(args, "--cwd", "${workspaceFolder}", "--content", "full")
	case agenthost.Cursor:
		args = append(args, "--cwd", "${workspaceFolder}")
	}
	if l.Dir != "" && l.Dir != DefaultDir {
		args = append(args, "--dir", l.Dir)
	}
	return args
}

// Kind is what a file carries for its host.
type Kind string

// The kinds of file.
const (
	KindServer Kind = "mcp server"
	KindHooks  Kind = "hooks"
	// KindSettings is a file that carries both (Gemini CLI's settings).
	KindSettings Kind = "mcp server and hooks"
)

// HasServer reports whether a file of kind k carries the MCP server entry.
func (k Kind) HasServer() bool { return k == KindServer || k == KindSettings }

// HasHooks reports whether a file of kind k carries the hooks.
func (k Kind) HasHooks() bool { return k == KindHooks || k == KindSettings }

// Target is one file init writes for one host.
type Target struct {
	Host agenthost.Host
	Kind Kind
	// Path is relative to the repository root, "/"-separated.
	Path string
}

// Targets lists the files init handles for hosts, in order, each once:
// GitHub Copilot (its CLI and VS Code's Copilot harness) reads the
// portable .mcp.json at the root, the file Claude Code reads, and its
// hooks have no place for context (docs/agents.md), so it gets only that
// server entry. Cursor hands context to the model after a tool ran
// (postToolUse) and at session start, not before the tool. Gemini CLI
// reads both the server and the hooks from its settings file.
func Targets(hosts []agenthost.Host) []Target {
	var out []Target
	add := func(ts ...Target) {
		for _, t := range ts {
			if !slices.ContainsFunc(out, func(o Target) bool { return o.Path == t.Path }) {
				out = append(out, t)
			}
		}
	}
	for _, h := range hosts {
		switch h {
		case agenthost.Claude:
			add(Target{h, KindServer, ".mcp.json"}, Target{h, KindHooks, ".claude/settings.json"})
		case agenthost.Codex:
			add(Target{h, KindServer, ".codex/config.toml"}, Target{h, KindHooks, ".codex/hooks.json"})
		case agenthost.Cursor:
			add(Target{h, KindServer, ".cursor/mcp.json"}, Target{h, KindHooks, ".cursor/hooks.json"})
		case agenthost.VSCode:
			// VS Code's agent hooks take Claude Code's shape and read
			// Claude Code's settings files (docs/agents.md).
			add(Target{h, KindServer, ".vscode/mcp.json"}, Target{h, KindHooks, ".claude/settings.json"})
		case agenthost.Copilot:
			add(Target{h, KindServer, ".mcp.json"})
		case agenthost.Gemini:
			add(Target{h, KindSettings, ".gemini/settings.json"})
		}
	}
	return out
}

// Outcome is what a merge decided for one file.
type Outcome string

// The outcomes.
const (
	// Create: the file does not exist; Content is the new file.
	Create Outcome = "create"
	// Update: the file exists and Content is it with our entries added.
	Update Outcome = "update"
	// Unchanged: our entries are there already.
	Unchanged Outcome = "unchanged"
	// Manual: the file cannot be merged without loss; Snippet is what to
	// add by hand, Reason says why.
	Manual Outcome = "manual"
)

// Result is the decision for one target.
type Result struct {
	Target
	Outcome Outcome
	Content []byte
	Snippet string
	Reason  string
	// Added names what was (or would be) added: "mcpServers.adrkit",
	// "hooks.PreToolUse", ...
	Added []string
}

// Merge decides what to do with one target given the file's current
// bytes (exists false: no file).
func Merge(t Target, l Launch, current []byte, exists bool) Result {
	if t.Path == ".codex/config.toml" {
		return mergeCodexTOML(t, l, current, exists)
	}
	want := wanted(t, l)
	if !exists {
		o, added, _ := want(nil)
		return Result{Target: t, Outcome: Create, Content: format(o.marshal(), "  "), Added: added}
	}
	manual := func(reason string) Result {
		o, _, _ := want(nil)
		return Result{Target: t, Outcome: Manual, Reason: reason, Snippet: string(format(o.marshal(), "  "))}
	}
	if strings.TrimSpace(string(current)) == "" {
		o, added, _ := want(nil)
		return Result{Target: t, Outcome: Update, Content: format(o.marshal(), "  "), Added: added}
	}
	o, err := parseObject(current)
	if err != nil {
		return manual(describeParse(err))
	}
	merged, added, err := want(o)
	if err != nil {
		return manual(err.Error())
	}
	if len(added) == 0 {
		return Result{Target: t, Outcome: Unchanged}
	}
	content := format(merged.marshal(), indentOf(current))
	if bytes.Contains(current, []byte("\r\n")) {
		// Keep the file's line ends.
		content = bytes.ReplaceAll(content, []byte("\n"), []byte("\r\n"))
	}
	return Result{Target: t, Outcome: Update, Content: content, Added: added}
}

// describeParse words why a file is not plain JSON init can rewrite.
func describeParse(err error) string {
	msg := err.Error()
	if strings.Contains(msg, "invalid character '/'") {
		return "it has comments (JSONC), which writing it back would drop"
	}
	if strings.Contains(msg, "invalid character '}'") || strings.Contains(msg, "invalid character ']'") {
		return "it is not plain JSON (a trailing comma?), and writing it back would change it"
	}
	return "it is not a JSON object init can read back without loss: " + msg
}

// merger adds our entries to o (nil: an empty file) and names them.
type merger func(o object) (object, []string, error)

func wanted(t Target, l Launch) merger {
	switch {
	case t.Kind == KindServer && t.Host == agenthost.VSCode:
		return serverMerger("servers", serverEntry{Type: "stdio", Command: l.command(), Args: l.ServerArgs(t.Host)})
	case t.Kind == KindServer:
		return serverMerger("mcpServers", serverEntry{Command: l.command(), Args: l.ServerArgs(t.Host)})
	}
	c := t.Host.Contract()
	if c.HookHost == agenthost.Cursor {
		return flatHooksMerger(l, t.Host, []string{c.SessionStart, c.Edit}, func(cmd string) any {
			return cursorHook{Command: cmd}
		})
	}
	// Claude Code's shape, which VS Code, Codex and Gemini CLI share.
	events := []groupEvent{{c.SessionStart, c.StartSources}, {c.Edit, c.EditMatcher()}}
	if c.Prompt != "" {
		events = append(events, groupEvent{event: c.Prompt})
	}
	hooks := groupHooksMerger(l, events, t.Host, c)
	if t.Kind != KindSettings {
		return hooks
	}
	server := serverMerger("mcpServers", serverEntry{Command: l.command(), Args: l.ServerArgs(t.Host)})
	return func(o object) (object, []string, error) {
		o, added, err := server(o)
		if err != nil {
			return nil, nil, err
		}
		o, more, err := hooks(o)
		return o, append(added, more...), err
	}
}

// serverEntry is an MCP server entry; field order is the order written.
type serverEntry struct {
	Type    string   `json:"type,omitempty"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// serverMerger adds the adrkit server under key, unless an entry of that
// name exists: the user's entry (another route, another flag) wins.
func serverMerger(key string, e serverEntry) merger {
	return func(o object) (object, []string, error) {
		servers, err := o.child(key)
		if err != nil {
			return nil, nil, err
		}
		if _, ok := servers.get(ServerName); ok {
			return o, nil, nil
		}
		servers = servers.set(ServerName, raw(e))
		return o.set(key, servers.marshal()), []string{key + "." + ServerName}, nil
	}
}

type groupEvent struct{ event, matcher string }

// commandHook is a hook handler in Claude Code's (and Codex's, and
// Gemini CLI's) shape.
type commandHook struct {
	// Name is how Gemini CLI lists the hook (/hooks disable adrkit).
	Name    string `json:"name,omitempty"`
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int64  `json:"timeout,omitempty"`
}

type hookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []commandHook `json:"hooks"`
}

// groupHooksMerger adds, for each event, a matcher group running our hook
// unless some group of that event runs it already.
func groupHooksMerger(l Launch, events []groupEvent, h agenthost.Host, c agenthost.Contract) merger {
	hook := commandHook{Type: "command", Command: l.HookCommand(h)}
	if c.Timeout > 0 {
		hook.Timeout = int64(c.Timeout / c.TimeoutUnit)
	}
	if h == agenthost.Gemini {
		hook.Name = ServerName
	}
	return func(o object) (object, []string, error) {
		hooks, err := o.child("hooks")
		if err != nil {
			return nil, nil, err
		}
		var added []string
		for _, ev := range events {
			list, err := hooks.array(ev.event)
			if err != nil {
				return nil, nil, fmt.Errorf("hooks.%w", err)
			}
			if slices.ContainsFunc(list, runsHook) {
				continue
			}
			list = append(list, raw(hookGroup{Matcher: ev.matcher, Hooks: []commandHook{hook}}))
			hooks = hooks.set(ev.event, marshalArray(list))
			added = append(added, "hooks."+ev.event)
		}
		if len(added) == 0 {
			return o, nil, nil
		}
		return o.set("hooks", hooks.marshal()), added, nil
	}
}

type cursorHook struct {
	Command string `json:"command"`
}

// flatHooksMerger is for hosts whose file is {"version": 1, "hooks":
// {event: [handler, ...]}}.
func flatHooksMerger(l Launch, h agenthost.Host, events []string, entry func(cmd string) any) merger {
	return func(o object) (object, []string, error) {
		hooks, err := o.child("hooks")
		if err != nil {
			return nil, nil, err
		}
		var added []string
		if _, ok := o.get("version"); !ok {
			o = o.set("version", json.RawMessage("1"))
		}
		for _, ev := range events {
			list, err := hooks.array(ev)
			if err != nil {
				return nil, nil, fmt.Errorf("hooks.%w", err)
			}
			if slices.ContainsFunc(list, runsHook) {
				continue
			}
			list = append(list, raw(entry(l.HookCommand(h))))
			hooks = hooks.set(ev, marshalArray(list))
			added = append(added, "hooks."+ev)
		}
		if len(added) == 0 {
			return o, nil, nil
		}
		return o.set("hooks", hooks.marshal()), added, nil
	}
}

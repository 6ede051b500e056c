package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/domain/hostconfig"
	"github.com/adrkit/adrkit-go/ports"
)

// CheckStatus is a check's verdict.
type CheckStatus string

// The verdicts.
const (
	CheckOK      CheckStatus = "ok"
	CheckProblem CheckStatus = "problem"
	// CheckNote is something doctor could not check, or that is worth
	// knowing; it is not a problem.
	CheckNote CheckStatus = "note"
)

// Check is one line of the doctor's report.
type Check struct {
	Status  CheckStatus `json:"status"`
	Subject string      `json:"subject"`
	Detail  string      `json:"detail"`
	// Fix says what to do about a problem.
	Fix string `json:"fix,omitempty"`
}

// DoctorReport is every check, in the order made.
type DoctorReport struct {
	Checks []Check `json:"checks"`
}

// Problems counts the checks that found a problem.
func (r *DoctorReport) Problems() int {
	n := 0
	for _, c := range r.Checks {
		if c.Status == CheckProblem {
			n++
		}
	}
	return n
}

func (r *DoctorReport) add(status CheckStatus, subject, detail, fix string) {
	r.Checks = append(r.Checks, Check{Status: status, Subject: subject, Detail: detail, Fix: fix})
}

// DoctorInput is what the command line found before the checks.
type DoctorInput struct {
	// Root is the repository root's absolute path (hook events carry it).
	Root string
	// Dir is the ADR directory relative to the root, and DirFrom where
	// it came from (".adr-dir", "default", "option", or "" when none
	// exists).
	Dir, DirFrom string
	// Lint is the corpus's lint report; nil when the directory could not
	// be read, with LintErr saying why.
	Lint    *LintReport
	LintErr string
	// Hosts are the hosts to check; nil: every host with a file.
	Hosts []agenthost.Host
}

// Doctor checks a repository and the agent configuration init writes:
// the ADR directory and its lint summary, each host's files, that the
// commands they name are on PATH and start, and that the hooks answer a
// synthetic event. Every problem comes with what to do.
func Doctor(ctx context.Context, files ports.RepoFiles, probe ports.Processes, in DoctorInput) *DoctorReport {
	rep := &DoctorReport{}
	rep.add(CheckOK, "repository", "root found (a .git entry)", "")
	switch {
	case in.DirFrom == "":
		rep.add(CheckProblem, "ADR directory", "there is no "+in.Dir,
			"run 'adrkit init' (it creates "+in.Dir+" and a first record), or 'adrkit new \"Title\"'")
	case in.Lint == nil:
		rep.add(CheckProblem, "ADR directory", in.Dir+" cannot be read: "+in.LintErr, "see 'adrkit lint'")
	default:
		rep.add(CheckOK, "ADR directory", in.Dir+" ("+describeDirFrom(in.DirFrom)+")", "")
		errs, warns := in.Lint.Count(adr.SeverityError), in.Lint.Count(adr.SeverityWarn)
		detail := fmt.Sprintf("%s, %s, %s", count(in.Lint.RecordCount, "valid record"), count(errs, "error"), count(warns, "warning"))
		switch {
		case errs > 0:
			rep.add(CheckProblem, "lint", detail, "run 'adrkit lint' and fix the errors: records with errors are left out of every answer")
		case in.Lint.RecordCount == 0:
			rep.add(CheckProblem, "lint", detail, "no decision is on record yet: 'adrkit new \"Title\"'")
		default:
			rep.add(CheckOK, "lint", detail, "")
		}
	}

	hosts := in.Hosts
	contents := map[string][]byte{}
	for _, t := range hostconfig.Targets(agenthost.Hosts) {
		b, ok, err := readRepoFile(files, t.Path)
		if err != nil {
			rep.add(CheckProblem, t.Path, err.Error(), "")
			continue
		}
		if ok {
			contents[t.Path] = b
			if in.Hosts == nil && !slices.Contains(hosts, t.Host) {
				hosts = append(hosts, t.Host)
			}
		}
	}
	if len(hosts) == 0 {
		rep.add(CheckProblem, "agents", "no agent is wired: none of the files 'adrkit init' writes is here",
			"run 'adrkit init' (Claude Code), or 'adrkit init --agents claude,codex,cursor,vscode,copilot,gemini'")
		return rep
	}
	slices.SortFunc(hosts, func(a, b agenthost.Host) int {
		return slices.Index(agenthost.Hosts, a) - slices.Index(agenthost.Hosts, b)
	})
	type hookRun struct {
		host agenthost.Host
		line string
		file string
	}
	var servers [][]string
	var serverFiles []string
	var hooks []hookRun
	for _, t := range hostconfig.Targets(hosts) {
		subject := t.Path + " (" + string(t.Host) + ")"
		fix := "run 'adrkit init --agents " + string(t.Host) + "'"
		b, ok := contents[t.Path]
		if !ok {
			rep.add(CheckProblem, subject, "missing: no "+string(t.Kind), fix)
			continue
		}
		f := hostconfig.ReadBack(t, b)
		if f.Unreadable != "" {
			rep.add(CheckNote, subject, "read as text only: "+f.Unreadable, "")
		}
		switch {
		case !t.Kind.HasServer():
		case f.Server == nil && f.Unreadable != "" && bytes.Contains(b, []byte(`"`+hostconfig.ServerName+`"`)):
			rep.add(CheckNote, subject, "names an adrkit server, which doctor cannot read back", "")
		case f.Server == nil:
			rep.add(CheckProblem, subject, "no "+hostconfig.ServerName+" MCP server entry", fix+", or add the snippet 'adrkit init --dry-run' prints")
		default:
			rep.add(CheckOK, subject, "MCP server: "+strings.Join(f.Server, " "), "")
			servers, serverFiles = append(servers, f.Server), append(serverFiles, t.Path)
		}
		switch {
		case !t.Kind.HasHooks():
		case len(f.Hooks) == 0:
			rep.add(CheckProblem, subject, "no 'adrkit hook' command", fix+", or add the snippet 'adrkit init --dry-run' prints")
		default:
			rep.add(CheckOK, subject, "hooks: "+strings.Join(f.Hooks, "; "), "")
			for _, line := range f.Hooks {
				hooks = append(hooks, hookRun{host: t.Host, line: line, file: t.Path})
			}
		}
	}

	// The executables, each once: on PATH, and answering --version.
	var exes []string
	for _, s := range servers {
		if !slices.Contains(exes, s[0]) {
			exes = append(exes, s[0])
		}
	}
	for _, h := range hooks {
		if w := hostconfig.SplitCommand(h.line); len(w) > 0 && !slices.Contains(exes, w[0]) {
			exes = append(exes, w[0])
		}
	}
	broken := map[string]bool{}
	for _, exe := range exes {
		subject := "command " + exe
		if _, err := probe.LookPath(exe); err != nil {
			broken[exe] = true
			rep.add(CheckProblem, subject, "not found on PATH", installFix(exe))
			continue
		}
		if !startable(exe) {
			rep.add(CheckNote, subject, "found; it starts adrkit through another program, which doctor does not start", "")
			continue
		}
		res, err := probe.Run(ctx, []string{exe, "--version"}, in.Root, nil)
		if err != nil || res.Code != 0 || !bytes.HasPrefix(res.Stdout, []byte("adrkit")) {
			broken[exe] = true
			rep.add(CheckProblem, subject, "found, but '"+exe+" --version' did not answer as adrkit: "+describeRun(res, err), installFix(exe))
			continue
		}
		rep.add(CheckOK, subject, "found, and starts: "+strings.TrimSpace(firstLine(res.Stdout)), "")
	}

	// The servers answer initialize.
	for i, s := range servers {
		if !startable(s[0]) || broken[s[0]] {
			continue
		}
		argv := make([]string, len(s))
		for j, a := range s {
			argv[j] = strings.ReplaceAll(a, "${workspaceFolder}", in.Root)
		}
		subject := "MCP server of " + serverFiles[i]
		res, err := probe.Run(ctx, argv, in.Root, []byte(initializeRequest+"\n"))
		if err != nil || res.Code != 0 || !bytes.Contains(res.Stdout, []byte(`"result"`)) {
			rep.add(CheckProblem, subject, "did not answer initialize: "+describeRun(res, err),
				"run '"+strings.Join(s, " ")+"' in the repository root and read its error")
			continue
		}
		rep.add(CheckOK, subject, "answers initialize", "")
	}

	// The hooks answer a synthetic session start.
	for _, h := range hooks {
		w := hostconfig.SplitCommand(h.line)
		if broken[w[0]] {
			continue
		}
		subject := "hook of " + h.file
		res, err := probe.Run(ctx, w, in.Root, sessionStartEvent(h.host, in.Root))
		switch {
		case err != nil || res.Code != 0:
			rep.add(CheckProblem, subject, "'"+h.line+"' failed on a session-start event: "+describeRun(res, err),
				"run it by hand with an event on stdin (docs/agents.md shows one) and read its error")
		case len(bytes.TrimSpace(res.Stdout)) == 0:
			rep.add(CheckNote, subject, "answered a session-start event with nothing to add", "")
		case !json.Valid(res.Stdout):
			rep.add(CheckProblem, subject, "answered with output that is not JSON: "+firstLine(res.Stdout), "")
		default:
			rep.add(CheckOK, subject, fmt.Sprintf("answers: a session-start event got %s of context", count(contextLength(res.Stdout), "character")), "")
		}
	}
	return rep
}

// initializeRequest is an MCP initialize request of the 2025 era.
const initializeRequest = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"adrkit-doctor","version":"1"}}}`

// sessionStartEvent is a session-start event in host's shape.
func sessionStartEvent(h agenthost.Host, root string) []byte {
	c := h.Contract()
	v := map[string]any{"hook_event_name": c.SessionStart, "session_id": "adrkit-doctor", "cwd": root, "source": "startup"}
	if c.HookHost == agenthost.Cursor {
		v = map[string]any{"hook_event_name": c.SessionStart, "conversation_id": "adrkit-doctor", "workspace_roots": []string{root}}
	}
	b, _ := json.Marshal(v)
	return b
}

// contextLength is the length of the context a hook answer carries,
// whichever field its host reads it from.
func contextLength(out []byte) int {
	var v any
	if json.Unmarshal(out, &v) != nil {
		return 0
	}
	n := 0
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && strings.Contains(strings.ToLower(k), "context") {
					n += len([]rune(s))
				} else {
					walk(e)
				}
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return n
}

func isAdrkit(exe string) bool { return hostconfig.IsAdrkitExecutable(exe) }

// startable reports whether doctor starts exe itself: the adrkit command
// line, or the adrkit-mcp server the README's binary route names.
func startable(exe string) bool {
	base := strings.TrimSuffix(path.Base(strings.ReplaceAll(exe, `\`, "/")), ".exe")
	return isAdrkit(exe) || base == "adrkit-mcp"
}

func installFix(exe string) string {
	if isAdrkit(exe) {
		return "install adrkit where the agent finds it ('go install ./cmd/adrkit' from a clone puts it in $(go env GOPATH)/bin), " +
			"or name it with 'adrkit init --command /absolute/path/to/adrkit'"
	}
	return "install " + exe + ", or run 'adrkit init' to use the adrkit binary instead"
}

func describeRun(res ports.ProcessResult, err error) string {
	if err != nil {
		return err.Error()
	}
	msg := fmt.Sprintf("exit %d", res.Code)
	if line := firstLine(res.Stderr); line != "" {
		msg += ", " + line
	}
	return msg
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func describeDirFrom(from string) string {
	switch from {
	case "default":
		return "found by default"
	case "option":
		return "named by --dir or ADRKIT_DIR"
	}
	return "named by " + from
}

// count is "1 error", "2 errors".
func count(n int, word string) string {
	return fmt.Sprintf("%d %s", n, plural(n, word, word+"s"))
}

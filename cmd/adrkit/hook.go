package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/hooks"
	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/app"
)

// hookCommand answers one hook event of a coding-agent host. It never
// blocks the tool the event is about: whatever goes wrong, the status is
// 0 or 1 (never 2, which Claude Code and Codex read as "block"), with one
// line on stderr and nothing on stdout but the host's JSON.
func hookCommand(stdout io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "answer a coding agent's hook: the decisions governing the files it is about to write",
		UsageText: "adrkit hook [--host claude|codex|cursor|copilot] [--state-dir DIR] < event.json",
		Description: "Reads one hook event as JSON on stdin and writes the host's answer on stdout. Before a tool\n" +
			"writes files (Claude Code: Write, Edit, MultiEdit, NotebookEdit; Codex: apply_patch), it names\n" +
			"the decisions that cover them by affects patterns and @adr markers, as explain does: the\n" +
			"accepted ones with the sentence that states each, the rejected and superseded ones not to\n" +
			"propose again, active proposals and holds. A file nothing covers gets no output. At the start\n" +
			"of a session it gives a short digest of the corpus. The same context is given once per file and\n" +
			"session (remembered under --state-dir, never inside the repository, where what it works out\n" +
			"from an unchanged corpus is kept for the next edit too).\n" +
			"It never blocks the tool: on any problem the status is 1 (0 for an event it has nothing to\n" +
			"add to), with one line on stderr. See docs/cli.md and docs/agents.md.\n\n" +
			"Examples:\n" +
			"  adrkit hook                  # in .claude/settings.json, PreToolUse and SessionStart\n" +
			"  adrkit hook --host codex     # in .codex/hooks.json\n" +
			"  echo '{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"src/db.go\"}}' | adrkit hook",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "host", Value: string(hooks.Claude), Usage: "the host's contract: claude (also VS Code), codex, cursor or copilot"},
			&cli.StringFlag{
				Name:      "state-dir",
				Usage:     "where the sessions' memory, the kept indexes and answers live, never inside the repository (default: adrkit/hooks in the user cache directory)",
				Sources:   fromEnv(env, "ADRKIT_HOOK_STATE_DIR"),
				TakesFile: true,
			},
		},
		// A hook must not exit 2: a command-line mistake is status 1.
		OnUsageError: func(_ context.Context, _ *cli.Command, err error, _ bool) error {
			return exitError{Code: exitFailure, Msg: "hook: " + describeParseError(err)}
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Present() {
				return hookFailure(fmt.Errorf("unexpected argument %q: the event is read from stdin", cmd.Args().First()))
			}
			host, err := hooks.ParseHost(cmd.String("host"))
			if err != nil {
				return hookFailure(err)
			}
			ev, err := hooks.Decode(host, env.Stdin)
			if err != nil {
				return hookFailure(err)
			}
			if host == hooks.Copilot {
				return exitError{Code: exitOK, Msg: "hook: GitHub Copilot's hooks cannot add context for the model " +
					"(docs/agents.md); nothing to write"}
			}
			switch {
			case ev.Kind == hooks.Other && !toolEvent(ev.Name):
				return exitError{Code: exitOK, Msg: fmt.Sprintf("hook: nothing to add to a %s event", ev.Name)}
			case ev.Kind == hooks.Other, ev.Kind == hooks.Edit && len(ev.Paths) == 0:
				return nil
			}
			// One short process per edit: collecting less often is
			// cheaper than collecting as a server does, and the limit
			// keeps a very large corpus from growing the heap unchecked.
			defer debug.SetGCPercent(debug.SetGCPercent(hookGCPercent))
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(hookMemoryLimit))
			h := &hookRun{cmd: cmd, env: env, ev: ev, stdout: stdout}
			return h.answer(ctx)
		},
	}
}

// The hook's collector settings (see the Action).
const (
	hookGCPercent   = 400
	hookMemoryLimit = 256 << 20
)

// toolEvent reports whether an event is about a tool (which adrkit
// answers only for the tools that write files).
func toolEvent(name string) bool {
	switch name {
	case "PreToolUse", "preToolUse", "postToolUse", "PostToolUse":
		return true
	}
	return false
}

// hookFailure is the exit for a problem: status 1, one line.
func hookFailure(err error) error {
	return exitError{Code: exitFailure, Msg: "hook: " + err.Error()}
}

// hookRun is one event being answered.
type hookRun struct {
	cmd    *cli.Command
	env    environment
	ev     hooks.Event
	stdout io.Writer
	s      *settings
	root   string
}

// answer settles the corpus where the host runs the agent and answers.
func (h *hookRun) answer(ctx context.Context) error {
	env := h.env
	base, err := env.Getwd()
	if filepath.IsAbs(h.ev.Cwd) {
		base, err = h.ev.Cwd, nil
		env.Getwd = func() (string, error) { return h.ev.Cwd, nil }
	}
	if err != nil {
		return hookFailure(fmt.Errorf("no working directory: %w", err))
	}
	s, err := settle(ctx, h.cmd, env)
	if err != nil {
		var usage usageError
		if errors.As(err, &usage) {
			return hookFailure(usage)
		}
		return err // already worded, status 1
	}
	h.s = s
	if h.root, err = filepath.Abs(s.cwd); err != nil {
		return hookFailure(err)
	}
	if h.ev.Kind == hooks.SessionStart {
		return h.sessionStart(ctx)
	}
	return h.beforeEdit(ctx, base)
}

// beforeEdit answers for the files a tool is about to write.
func (h *hookRun) beforeEdit(ctx context.Context, base string) error {
	var files, outside []string
	for _, p := range h.ev.Paths {
		// A tool's path is absolute (Claude Code) or relative to the
		// session's directory (Codex's patches), as a shell's would be.
		rel, err := workspace.RepoPath(h.root, base, p)
		if err != nil || rel == "." {
			outside = append(outside, filepath.Base(p))
			continue
		}
		files = append(files, rel)
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(base, p)
		}
		if target, ok := hooks.LinkTarget(h.root, abs); ok && target != rel {
			files = append(files, target)
		}
	}
	if len(files) == 0 {
		return exitError{Code: exitOK, Msg: fmt.Sprintf("hook: %s is not inside the repository; nothing to add", strings.Join(outside, ", "))}
	}
	rep, err := app.ReadMarkers(ctx, sourceReader(h.s), files)
	if err != nil {
		return hookFailure(err)
	}
	blocks, errs, err := h.govern(ctx, files, rep)
	if err != nil {
		return err
	}
	mem := h.memory()
	if mem != nil {
		kept := blocks[:0]
		for _, b := range blocks {
			if !mem.Has(b.Key()) {
				kept = append(kept, b)
			}
		}
		blocks = kept
	}
	text := hooks.ContextText(h.s.source.Dir, blocks, errs)
	if err := h.write(text); err != nil {
		return err
	}
	if mem != nil && text != "" {
		for _, b := range blocks {
			mem.Add(b.Key())
		}
		_ = mem.Save() // a hook that cannot remember only repeats itself
	}
	return nil
}

// govern works out what covers files. The record files are read and
// hashed once (corpusState: the read floor); then, with the first found of
// these, the answer kept for the same files of the same corpus, the
// corpus's governance index kept under its key (a first edit of a file),
// or a read of the whole corpus, whose index and answer are kept when it
// read the very bytes hashed. So nothing kept is ever stale: any change
// to the directory is a new key. A corpus read from a revision is always
// worked out.
func (h *hookRun) govern(ctx context.Context, files []string, rep app.MarkerReport) ([]hooks.Block, int, error) {
	in := app.GovernInput{Files: files, Markers: rep}
	c, dir := h.corpusState(ctx)
	key := ""
	if c != nil {
		key = c.AnswerKey(files, rep.Files)
		if blocks, errs, ok := hooks.LoadAnswer(dir, key); ok {
			return blocks, errs, nil
		}
		if ix, ok := hooks.LoadIndex(dir, c.Key); ok {
			g := h.s.service.GovernFrom(ix, in)
			blocks := hooks.Blocks(g)
			_ = hooks.StoreAnswer(dir, key, blocks, g.Errors)
			return blocks, g.Errors, nil
		}
	}
	ix, read, err := h.s.service.IndexCorpus(ctx)
	if err != nil {
		return nil, 0, h.s.failure(err)
	}
	g := h.s.service.GovernFrom(ix, in)
	blocks := hooks.Blocks(g)
	// Kept only if the read read what the key hashed: a file that
	// changed in between would file them under bytes they were not read
	// from. Failing to keep them costs the next run only.
	if c != nil && c.Same(read) {
		_ = hooks.StoreIndex(dir, c.Key, ix)
		_ = hooks.StoreAnswer(dir, key, blocks, g.Errors)
	}
	return blocks, g.Errors, nil
}

// corpusState reads the corpus's record files for the state kept between
// runs (app.Service.Snapshot: the read floor) and says where that state
// is; nil when nothing can be kept (no state directory, a revision, a
// corpus that cannot be read: the full read then says why).
func (h *hookRun) corpusState(ctx context.Context) (*hooks.Corpus, string) {
	dir := h.stateDir()
	if dir == "" || h.s.rev != "" {
		return nil, ""
	}
	snap, err := h.s.service.Snapshot(ctx)
	if err != nil {
		return nil, ""
	}
	adrDir := h.s.dir
	if !filepath.IsAbs(adrDir) {
		adrDir = filepath.Join(h.root, adrDir)
	}
	return hooks.CorpusKey(hooks.BuildID(version()), h.root, adrDir, snap), dir
}

// sessionStart answers with the digest of the corpus, from its kept
// index when there is one (as govern reads it). After a clear or a
// compaction the model no longer holds what it was told: the session's
// memory is forgotten.
func (h *hookRun) sessionStart(ctx context.Context) error {
	if h.ev.Source == "clear" || h.ev.Source == "compact" {
		if dir := h.stateDir(); dir != "" && h.ev.SessionID != "" {
			_ = hooks.Forget(dir, h.ev.SessionID)
		}
	}
	c, dir := h.corpusState(ctx)
	if c != nil {
		if ix, ok := hooks.LoadIndex(dir, c.Key); ok {
			return h.write(hooks.DigestText(h.s.source.Dir, app.DigestFrom(ix)))
		}
	}
	ix, read, err := h.s.service.IndexCorpus(ctx)
	if err != nil {
		return h.s.failure(err)
	}
	if c != nil && c.Same(read) {
		_ = hooks.StoreIndex(dir, c.Key, ix)
	}
	return h.write(hooks.DigestText(h.s.source.Dir, app.DigestFrom(ix)))
}

// write prints the host's answer for text; nothing for "".
func (h *hookRun) write(text string) error {
	if text == "" {
		return nil
	}
	out := hooks.Answer(h.ev, text)
	if out == nil {
		return nil
	}
	_, err := h.stdout.Write(out)
	return err
}

// stateDir is where the sessions' memory is kept, or "" when it cannot
// be kept: no cache directory, or one inside the repository (the hook
// never writes there).
func (h *hookRun) stateDir() string {
	dir := h.cmd.String("state-dir")
	if dir == "" {
		d, err := hooks.DefaultStateDir()
		if err != nil {
			return ""
		}
		dir = d
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if rel, err := filepath.Rel(h.root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return abs
}

// memory is the session's memory, or nil when there is no session or
// nowhere to keep it.
func (h *hookRun) memory() *hooks.Memory {
	if h.ev.SessionID == "" {
		return nil
	}
	dir := h.stateDir()
	if dir == "" {
		return nil
	}
	m, _ := hooks.OpenMemory(dir, h.ev.SessionID)
	return m
}

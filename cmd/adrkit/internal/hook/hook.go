// Package hook is adrkit hook: one hook event of a coding-agent host
// answered (app.Hook, ADR 0040). It never blocks the tool the event is
// about: whatever goes wrong, the status is 0 or 1 (never 2, which Claude
// Code and Codex read as "block"), with one line on stderr and nothing on
// stdout but the host's JSON. It builds nothing of the factory's but the
// streams: no style, no terminal width, no clock.
package hook

import (
	"cmp"
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
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/ports"
)

// Options is one run of adrkit hook.
type Options struct {
	In  io.Reader
	Out io.Writer
	// Host is the host whose contract the event and answer follow.
	Host agenthost.Host
	// StateDir is --state-dir ("": the user cache directory's).
	StateDir string
	// Getwd is the directory adrkit was started in, used when the event
	// names none.
	Getwd func() (string, error)
	// Locate reads the corpus options as the other commands do, from the
	// working directory getwd gives.
	Locate func(getwd func() (string, error)) entry.Location
}

// NewCmdHook is adrkit hook; runF, when set, is called instead of the
// run (tests intercept the options with it).
func NewCmdHook(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "answer a coding agent's hook: the decisions governing the files it is about to write",
		UsageText: "adrkit hook [--host claude|codex|cursor|copilot|gemini] [--state-dir DIR] < event.json",
		Description: "Reads one hook event as JSON on stdin and writes the host's answer on stdout. Before a tool\n" +
			"writes files (Claude Code: Write, Edit, MultiEdit, NotebookEdit; Codex: apply_patch), or after\n" +
			"it did (Cursor; Gemini CLI: write_file, replace), it names the decisions that cover them by\n" +
			"affects patterns and @adr markers, as explain does: the accepted ones with the sentence that\n" +
			"states each, the rejected and superseded ones not to propose again, active proposals and\n" +
			"holds. A file nothing covers gets no output. At the start of a session it gives a short digest\n" +
			"of the corpus. The same context is given once per file and session (remembered under\n" +
			"--state-dir, never inside the repository, where what it works out from an unchanged corpus is\n" +
			"kept for the next edit too).\n" +
			"It never blocks the tool: on any problem the status is 1 (0 for an event it has nothing to\n" +
			"add to), with one line on stderr. See docs/cli.md and docs/agents.md.\n\n" +
			"Examples:\n" +
			"  adrkit hook                  # in .claude/settings.json, PreToolUse and SessionStart\n" +
			"  adrkit hook --host codex     # in .codex/hooks.json\n" +
			"  adrkit hook --host gemini    # in .gemini/settings.json, AfterTool, SessionStart, BeforeAgent\n" +
			"  echo '{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"src/db.go\"}}' | adrkit hook",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "host", Value: string(agenthost.Claude), Usage: "the host's contract: claude (also VS Code), codex, cursor, copilot or gemini"},
			&cli.StringFlag{
				Name:      "state-dir",
				Usage:     "where the sessions' memory, the kept indexes and answers live, never inside the repository (default: adrkit/hooks in the user cache directory)",
				Sources:   entry.FromEnv(f.Getenv, "ADRKIT_HOOK_STATE_DIR"),
				TakesFile: true,
			},
		},
		// A hook must not exit 2: a command-line mistake is status 1.
		OnUsageError: func(_ context.Context, _ *cli.Command, err error, _ bool) error {
			return factory.ExitError{Code: factory.ExitFailure, Msg: "hook: " + entry.DescribeParseError(err)}
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Present() {
				return hookFailure(fmt.Errorf("unexpected argument %q: the event is read from stdin", cmd.Args().First()))
			}
			host, err := agenthost.ParseHookHost(cmd.String("host"))
			if err != nil {
				return hookFailure(err)
			}
			opts := &Options{
				In: f.In, Out: f.Out, Host: host, StateDir: cmd.String("state-dir"), Getwd: f.Getwd,
				Locate: func(getwd func() (string, error)) entry.Location { return entry.Locate(cmd, getwd, entry.CLIEnv) },
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run decodes the event, has app.Hook answer it and writes the host's
// answer.
func run(ctx context.Context, opts *Options) error {
	ev, err := hooks.Decode(opts.Host, opts.In)
	if err != nil {
		return hookFailure(err)
	}
	defer OneShot()()
	site := &hookSite{opts: opts, cwd: ev.Cwd}
	ans, err := app.Hook(ctx, ev, site.open)
	if err != nil {
		return site.failure(err)
	}
	if ans.Context != "" {
		if out := hooks.Answer(ev, ans.Context); out != nil {
			if _, err := opts.Out.Write(out); err != nil {
				return err
			}
		}
	}
	if note := cmp.Or(ans.Note, site.note); note != "" {
		return factory.ExitError{Code: factory.ExitOK, Msg: "hook: " + note}
	}
	return nil
}

// OneShot sets the collector for one short process (a hook event, an
// adrkit ask) and returns what restores it: collecting less often is
// cheaper than collecting as a server does, and the limit keeps a very
// large corpus from growing the heap unchecked.
func OneShot() (restore func()) {
	gc, limit := debug.SetGCPercent(400), debug.SetMemoryLimit(256<<20)
	return func() {
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(limit)
	}
}

// hookFailure is the exit for a problem: status 1, one line.
func hookFailure(err error) error {
	return factory.ExitError{Code: factory.ExitFailure, Msg: "hook: " + err.Error()}
}

// hookSite opens the repository an event is about, with only what the
// hook uses: the corpus, the heads of files, the state directory.
type hookSite struct {
	opts *Options
	// cwd is the directory the host runs the agent in, as the event says.
	cwd   string
	where entry.Location
	// note is the one line said when the state directory is refused.
	note string
}

// open locates and checks the corpus for the directory the host runs the
// agent in (app.Hook's opener).
func (h *hookSite) open(ctx context.Context) (*app.HookSite, error) {
	getwd := h.opts.Getwd
	if filepath.IsAbs(h.cwd) {
		getwd = func() (string, error) { return h.cwd, nil }
	}
	base, err := getwd()
	if err != nil {
		return nil, hookFailure(fmt.Errorf("no working directory: %w", err))
	}
	h.where = h.opts.Locate(getwd)
	reader := h.where.Reader()
	if err := reader.Check(ctx); err != nil {
		if h.where.NamedDirMissing(err) {
			return nil, hookFailure(errors.New(h.where.Describe(err)))
		}
		return nil, err
	}
	site, root, note, err := KeptSite(h.where, reader, h.opts.StateDir)
	if err != nil {
		return nil, hookFailure(err)
	}
	h.note = note
	site.EditPaths = func(paths []string) ([]string, []string) { return workspace.EditPaths(root, base, paths) }
	return site, nil
}

// KeptSite is the app.HookSite of the checked corpus at where, read by
// reader, with what a run keeps for the next (ADR 0040): the store in
// stateDir (or the default in the user cache directory), never inside
// the working tree, and the corpus's place in it (none for a revision).
// note says why nothing is kept, when it is not; root is the repository
// root, absolute. adrkit ask keeps its index there too.
func KeptSite(where entry.Location, reader ports.CorpusReader, stateDir string) (site *app.HookSite, root, note string, err error) {
	if root, err = filepath.Abs(where.Root); err != nil {
		return nil, "", "", err
	}
	dir := where.Dir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	// The context names the ADR directory from the root ("" for one
	// outside it, which only --dir can name).
	display, err := filepath.Rel(root, dir)
	if err != nil || display == ".." || strings.HasPrefix(display, ".."+string(filepath.Separator)) {
		display = ""
	}
	site = &app.HookSite{Reader: reader, Heads: where.Heads(), Dir: filepath.ToSlash(display)}
	if where.Rev == "" {
		site.Place = strings.Join([]string{hooks.BuildID(factory.Version()), root, dir}, "\x00")
	}
	state, note := keptIn(root, stateDir)
	if state != "" {
		site.Store = hooks.NewStore(state)
	}
	return site, root, note, nil
}

// failure is the exit for an error of app.Hook: an unusable corpus is
// status 1 with the worded diagnostic; any other, one line after "hook:".
func (h *hookSite) failure(err error) error {
	var exit factory.ExitError
	switch {
	case errors.As(err, &exit):
		return err
	case h.where.Describe(err) != "":
		return factory.ExitError{Code: factory.ExitFailure, Msg: h.where.Describe(err)}
	}
	return hookFailure(err)
}

// keptIn is the state directory, absolute, of a repository at root:
// stateDir, or the default in the user cache directory; "" when there is
// none or it is inside the working tree, with the note that says so.
func keptIn(root, stateDir string) (dir, note string) {
	dir, named := stateDir, "--state-dir (or ADRKIT_HOOK_STATE_DIR) names a directory"
	if dir == "" {
		d, err := hooks.DefaultStateDir()
		if err != nil {
			return "", ""
		}
		dir, named = d, "the hook's directory in the user cache directory (XDG_CACHE_HOME) is"
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", ""
	}
	if workspace.InTree(root, abs) {
		return "", named + " inside the repository's working tree, where the hook never writes; nothing is kept between runs"
	}
	return abs, ""
}

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/ports"
)

// inProcess is a prober for which "adrkit" is on PATH and is this
// command, run in-process: the versions, servers and hooks doctor starts
// are the real ones, without building a binary.
type inProcess struct {
	t        *testing.T
	stateDir string
}

func (p inProcess) LookPath(name string) (string, error) {
	if name == "adrkit" || name == "adrkit-mcp" || name == "npx" {
		return "/usr/local/bin/" + name, nil
	}
	return "", exec.ErrNotFound
}

func (p inProcess) Run(ctx context.Context, argv []string, dir string, stdin []byte) (ports.ProcessResult, error) {
	if argv[0] == "adrkit-mcp" {
		// The server binary of the README's binary route serves as
		// "adrkit mcp" does (same engine, same options).
		if len(argv) == 2 && argv[1] == "--version" {
			return ports.ProcessResult{Stdout: []byte("adrkit-mcp VERSION\n")}, nil
		}
		argv = append([]string{"adrkit", "mcp"}, argv[1:]...)
	}
	if argv[0] != "adrkit" {
		return ports.ProcessResult{}, errors.New("could not start: not found")
	}
	if len(argv) == 2 && argv[1] == "--version" {
		// The cli package's version flag is one global value, already
		// parsed by the run doctor is part of; a nested run does not see
		// it again. TestHelpEverywhere covers --version itself.
		return ports.ProcessResult{Stdout: []byte("adrkit VERSION\n")}, nil
	}
	if len(argv) > 1 && argv[1] == "mcp" {
		// adrkit mcp serves the process's working directory (or --cwd
		// relative to it), which a real process started in dir has; this
		// one is the test's.
		argv = slices.Clone(argv)
		if i := slices.Index(argv, "--cwd"); i < 0 {
			argv = append(argv, "--cwd", dir)
		} else if i+1 < len(argv) && !filepath.IsAbs(argv[i+1]) {
			argv[i+1] = filepath.Join(dir, argv[i+1])
		}
	}
	var out, errOut bytes.Buffer
	code := run(ctx, argv, &out, &errOut, factory.Env{
		Stdin: bytes.NewReader(stdin),
		Getenv: func(k string) (string, bool) {
			if k == "ADRKIT_HOOK_STATE_DIR" {
				return p.stateDir, true
			}
			return "", false
		},
		Clock: fixedNow,
		Getwd: func() (string, error) { return dir, nil },
	})
	stdout := bytes.ReplaceAll(out.Bytes(), []byte(factory.Version()), []byte("VERSION"))
	return ports.ProcessResult{Stdout: stdout, Stderr: errOut.Bytes(), Code: code}, nil
}

// doctorRunner runs doctor in root with the in-process prober.
func doctorRunner(t *testing.T, root string) *runner {
	r := newRunner(t)
	r.hide = append(r.hide, filepath.Dir(root))
	r.wd = root
	r.probe = inProcess{t: t, stateDir: t.TempDir()}
	return r
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDoctor: a repository init wired passes every check (exit 0); a bare
// one, a broken one and a directory outside any repository each get
// their problems with what to do (exit 1).
func TestDoctor(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))

	t.Run("bare", func(t *testing.T) {
		root := bareRepo(t)
		got := doctorRunner(t, root).run("doctor")
		g.Assert(t, "doctor-bare", []byte(got.String()))
		if got.code != 1 {
			t.Errorf("exit %d", got.code)
		}
	})

	t.Run("wired", func(t *testing.T) {
		root := bareRepo(t)
		r := doctorRunner(t, root)
		if got := r.run("init", "--agents", "claude,codex,cursor,vscode,copilot"); got.code != 0 {
			t.Fatalf("init:\n%s", got)
		}
		got := r.run("doctor")
		g.Assert(t, "doctor-wired", []byte(got.String()))
		if got.code != 0 {
			t.Errorf("exit %d", got.code)
		}
		// What doctor ran left nothing in the repository.
		before := treeFiles(t, root)
		r.run("doctor")
		if after := treeFiles(t, root); !equalMaps(before, after) {
			t.Error("doctor changed the repository")
		}
	})

	t.Run("broken", func(t *testing.T) {
		root := bareRepo(t)
		writeFiles(t, root, map[string]string{
			"docs/adr/0001-broken.md": "---\nid: \"0001\"\ntitle: x\nstatus: maybe\n---\n",
			"docs/adr/0002-fine.md":   "---\nid: \"0002\"\ntitle: Fine one\nstatus: draft\ndate: 2026-01-01\n---\n",
			".mcp.json":               `{"mcpServers": {"adrkit": {"command": "adrkit-go-server", "args": []}}}`,
			".claude/settings.json":   `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "adrkit hook --host nope"}]}]}}`,
			".cursor/mcp.json":        "{\n  // mine\n  \"mcpServers\": {}\n}\n",
		})
		got := doctorRunner(t, root).run("doctor")
		g.Assert(t, "doctor-broken", []byte(got.String()))
		if got.code != 1 {
			t.Errorf("exit %d", got.code)
		}
	})

	// The README's binary route: the server entry names adrkit-mcp, which
	// doctor starts too; an npx entry is found but not started.
	t.Run("routes", func(t *testing.T) {
		root := bareRepo(t)
		r := doctorRunner(t, root)
		if got := r.run("init"); got.code != 0 {
			t.Fatalf("init:\n%s", got)
		}
		writeFiles(t, root, map[string]string{
			".mcp.json":        `{"mcpServers": {"adrkit": {"command": "adrkit-mcp", "args": ["--cwd", "."]}}}`,
			".cursor/mcp.json": `{"mcpServers": {"adrkit": {"command": "npx", "args": ["-y", "adrkit-mcp"]}}}`,
		})
		got := r.run("doctor", "--agents", "claude,cursor")
		g.Assert(t, "doctor-routes", []byte(got.String()))
	})

	t.Run("outside", func(t *testing.T) {
		r := newRunner(t)
		r.probe = inProcess{t: t, stateDir: t.TempDir()}
		got := r.run("doctor")
		if got.code != 1 || !strings.Contains(got.stdout, "no repository root") {
			t.Errorf("outside a repository:\n%s", got)
		}
		if bad := r.run("doctor", "--agents", "emacs"); bad.code != 2 {
			t.Errorf("--agents emacs:\n%s", bad)
		}
	})
}

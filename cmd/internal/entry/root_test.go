package entry

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/adapters/gitrev"
)

// TestLocationReader: the working tree without a revision, the revision's
// tree with one, for the decisions and for the files' heads alike.
func TestLocationReader(t *testing.T) {
	l := Location{Root: "/r", Dir: "docs/adr"}
	if _, ok := l.Reader().(*filesystem.Reader); !ok {
		t.Errorf("working tree: %T", l.Reader())
	}
	if _, ok := l.Heads().(*filesystem.Heads); !ok {
		t.Errorf("working tree heads: %T", l.Heads())
	}
	at := l.At("main")
	if _, ok := at.Reader().(*gitrev.Reader); !ok || l.Rev != "" {
		t.Errorf("revision: %T (and l.Rev %q)", at.Reader(), l.Rev)
	}
	if _, ok := at.Heads().(*gitrev.Heads); !ok {
		t.Errorf("revision heads: %T", at.Heads())
	}
}

// untouchable fails the test when the server reads or writes it.
type untouchable struct{ t *testing.T }

func (u untouchable) Read([]byte) (int, error) {
	u.t.Error("the input was read")
	return 0, io.EOF
}

func (u untouchable) Write(p []byte) (int, error) {
	u.t.Errorf("the output was written: %q", p)
	return len(p), nil
}

// TestServeChecksTheCorpusFirst: an unusable corpus is said once on
// stderr, status 1, before anything is read or written.
func TestServeChecksTheCorpusFirst(t *testing.T) {
	var stderr strings.Builder
	l := Location{Root: t.TempDir(), Dir: "docs/adr", RootNamed: true, Env: ServerEnv}
	code := Serve(context.Background(), l, Surface{}, Stdio{Program: "adrkit-mcp", Command: "adrkit-mcp",
		In: untouchable{t}, Out: untouchable{t}, Err: &stderr})
	want := "adrkit-mcp: Configured repository root is not a Git worktree. It has no .git entry: point --cwd (or ADRKIT_MCP_CWD) at the repository root, the directory that holds .git.\n"
	if code != 1 || stderr.String() != want {
		t.Errorf("status %d, stderr %q; want 1, %q", code, stderr.String(), want)
	}
}

// TestServerVariables: adrkit mcp takes from ADRKIT_MCP_* what neither an
// option nor the command line's own variable gives.
func TestServerVariables(t *testing.T) {
	env := map[string]string{"ADRKIT_CWD": "/cli", "ADRKIT_MCP_CWD": "/server", "ADRKIT_MCP_DIR": "decisions", "ADRKIT_MCP_REV": "v1"}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	var got Location
	cmd := &cli.Command{
		Name:  "adrkit",
		Flags: CorpusFlags(getenv, CLIEnv),
		Commands: []*cli.Command{{
			Name: "mcp",
			Action: func(_ context.Context, cmd *cli.Command) error {
				if err := ServerVariables(cmd, getenv); err != nil {
					return err
				}
				got = Locate(cmd, func() (string, error) { return "/wd", nil }, ServerEnv)
				return nil
			},
		}},
	}
	if err := cmd.Run(context.Background(), []string{"adrkit", "--rev", "main", "mcp"}); err != nil {
		t.Fatal(err)
	}
	if got.Root != "/cli" || got.Dir != "decisions" || got.Rev != "main" || got.DirFrom != DirFromOption {
		t.Errorf("got %+v: want the root of ADRKIT_CWD, the directory of ADRKIT_MCP_DIR, the revision of --rev", got)
	}
}

// TestAdaptersComposeNothing holds the composition in the root (ADR
// 0039): no package under adapters/ depends on the wall clock's adapter,
// and the driving adapters, the MCP engine and the HTTP front, depend on
// no other adapter at all: the service they serve is handed to them.
func TestAdaptersComposeNothing(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	const module = "github.com/adrkit/adrkit-go/"
	cmd := exec.Command(goTool, "list", "-deps", "-f", `{{if not .Standard}}{{.ImportPath}}:{{join .Deps " "}}{{end}}`, "./adapters/...")
	cmd.Dir = filepath.Join("..", "..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, ":")
		if !strings.HasPrefix(pkg, module+"adapters/") {
			continue
		}
		seen++
		driving := pkg == module+"adapters/mcp" || pkg == module+"adapters/mcphttp"
		for _, dep := range strings.Fields(deps) {
			switch {
			case dep == module+"adapters/clock" || dep == module+"adapters/source":
				t.Errorf("%s depends on %s: the composition root builds it", pkg, dep)
			case driving && strings.HasPrefix(dep, module+"adapters/"):
				t.Errorf("%s depends on %s: a driving adapter is handed what it serves", pkg, dep)
			}
		}
	}
	if seen < 10 {
		t.Fatalf("go list named %d adapters:\n%s", seen, out)
	}
}

package entry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// tree makes files (path → content; a path ending in "/" is a directory)
// under a fresh directory and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// locate runs Locate on a command line of the corpus options read from
// the variables of vars, in wd, with getenv as the environment.
func locate(t *testing.T, wd string, getenv func(string) (string, bool), vars Env, args ...string) Location {
	t.Helper()
	var got Location
	cmd := &cli.Command{
		Name:  "test",
		Flags: CorpusFlags(getenv, vars),
		Action: func(_ context.Context, cmd *cli.Command) error {
			got = Locate(cmd, func() (string, error) { return wd, nil }, vars)
			return nil
		},
	}
	if err := cmd.Run(context.Background(), append([]string{"test"}, args...)); err != nil {
		t.Fatal(err)
	}
	return got
}

func noEnv(string) (string, bool) { return "", false }

// TestLocate: what no option names is found as every command finds it;
// what an option names is taken as given, "" for --dir meaning the root.
func TestLocate(t *testing.T) {
	repo := tree(t, map[string]string{".git/": "", "doc/adr/": "", "src/deep/": "", "tools/.adr-dir": "../arch\n", "arch/": ""})
	other := tree(t, map[string]string{"plain/": ""})
	tests := []struct {
		name string
		wd   string
		env  map[string]string
		args []string
		want Location
	}{
		{"root found upward, first default that exists", filepath.Join(repo, "src", "deep"), nil, nil,
			Location{Root: repo, Dir: "doc/adr", DirFrom: DirFromDefault, WD: filepath.Join(repo, "src", "deep"), Env: ServerEnv}},
		{".adr-dir between the working directory and the root", filepath.Join(repo, "tools"), nil, nil,
			Location{Root: repo, Dir: "arch", DirFrom: "tools/.adr-dir", WD: filepath.Join(repo, "tools"), Env: ServerEnv}},
		{"no repository above: the working directory", filepath.Join(other, "plain"), nil, nil,
			Location{Root: ".", Dir: "docs/adr", DirFrom: DirFromNothing, WD: filepath.Join(other, "plain"), noRoot: true, Env: ServerEnv}},
		{"--cwd is not searched upward", filepath.Join(repo, "src"), nil, []string{"--cwd", filepath.Join(repo, "src")},
			Location{Root: filepath.Join(repo, "src"), Dir: "docs/adr", RootNamed: true, WD: filepath.Join(repo, "src"), Env: ServerEnv}},
		{"--dir as given", repo, nil, []string{"--dir", "nope"},
			Location{Root: repo, Dir: "nope", DirFrom: DirFromOption, WD: repo, Env: ServerEnv}},
		{`--dir "" is the root`, repo, nil, []string{"--dir", ""},
			Location{Root: repo, Dir: ".", DirFrom: DirFromOption, WD: repo, Env: ServerEnv}},
		{`--cwd "" names nothing`, repo, nil, []string{"--cwd", ""},
			Location{Root: "", Dir: "docs/adr", RootNamed: true, Env: ServerEnv}},
		{"variables count as options", filepath.Join(other, "plain"), map[string]string{"ADRKIT_MCP_CWD": repo, "ADRKIT_MCP_DIR": "", "ADRKIT_MCP_REV": "HEAD"}, nil,
			Location{Root: repo, Dir: ".", Rev: "HEAD", RootNamed: true, DirFrom: DirFromOption, WD: repo, Env: ServerEnv}},
		{"the command line's variables", filepath.Join(other, "plain"), map[string]string{"ADRKIT_CWD": repo, "ADRKIT_DIR": "arch", "ADRKIT_MCP_REV": "HEAD"}, nil,
			Location{Root: repo, Dir: "arch", RootNamed: true, DirFrom: DirFromOption, WD: repo, Env: CLIEnv}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			got := locate(t, tc.wd, getenv, tc.want.Env, tc.args...)
			if got != tc.want {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestDescribe pins the one wording of every start-up failure, for both
// binaries and every command: "Configured" only for what an option or
// an .adr-dir file configured, where the search looked otherwise, and the
// next step for a repository without decisions.
func TestDescribe(t *testing.T) {
	repo := tree(t, map[string]string{".git/": "", "docs/adr/README.md": "x", "src/": ""})
	bare := tree(t, map[string]string{".git/": "", "src/": ""})
	adrDir := tree(t, map[string]string{".git/": "", ".adr-dir": "architecture/decisions\n"})
	adrDirFile := tree(t, map[string]string{".git/": "", ".adr-dir": "NOTES.md\n", "NOTES.md": "x"})
	adrDirOut := tree(t, map[string]string{"repo/.git/": "", "repo/.adr-dir": "../elsewhere\n", "elsewhere/": ""})
	noRepo := tree(t, map[string]string{"work/": ""})
	tests := []struct {
		name string
		wd   string
		args []string
	}{
		{"no repository anywhere above", filepath.Join(noRepo, "work"), nil},
		{"repository without an ADR directory", filepath.Join(bare, "src"), nil},
		{".adr-dir names a missing directory", adrDir, nil},
		{".adr-dir names a file", adrDirFile, nil},
		{".adr-dir names a directory outside", filepath.Join(adrDirOut, "repo"), nil},
		{"--dir names a missing directory", repo, []string{"--dir", "decisions"}},
		{"--dir names a file", repo, []string{"--dir", "docs/adr/README.md"}},
		{"--dir climbs out", repo, []string{"--dir", ".."}},
		{"--cwd names nothing", repo, []string{"--cwd", ""}},
		{"--cwd is missing", repo, []string{"--cwd", filepath.Join(noRepo, "missing")}},
		{"--cwd is a file", repo, []string{"--cwd", filepath.Join(repo, "docs", "adr", "README.md")}},
		{"--cwd is not a repository", repo, []string{"--cwd", filepath.Join(noRepo, "work")}},
	}
	var b strings.Builder
	for _, tc := range tests {
		c := locate(t, tc.wd, noEnv, ServerEnv, tc.args...)
		_, err := c.Open(context.Background(), Surface{})
		msg := c.Describe(err)
		if err == nil || msg == "" || strings.Contains(msg, "\n") || strings.Contains(msg, noRepo) ||
			strings.Contains(msg, repo) || strings.Contains(msg, bare) {
			t.Errorf("%s: err %v, message %q: want one line without an absolute path", tc.name, err, msg)
		}
		fmt.Fprintf(&b, "%s\n  %s\n", tc.name, msg)
	}
	goldie.New(t).Assert(t, "describe", []byte(b.String()))
}

// TestDescribeRevisionCause: a revision that does not resolve is
// explained by its own cause, never by a path, and never as a repository
// root that was not found.
func TestDescribeRevisionCause(t *testing.T) {
	c := Location{Root: "/r", Dir: "docs/adr", Rev: "v9", RootNamed: true, Env: ServerEnv}
	cause := fmt.Errorf("revision %q: %w", "v9", fmt.Errorf("revision %q not found", "v9"))
	got := c.Describe(&ports.UnavailableError{Reason: corpus.RootNotFound, Err: cause})
	if got != `The revision "v9" does not resolve to a commit of the repository: revision "v9" not found. `+
		`Correct --rev (or ADRKIT_MCP_REV): git branch -a and git tag list the names there are.` {
		t.Errorf("revision cause: %q", got)
	}
	got = c.Describe(&ports.UnavailableError{Reason: corpus.RootNotFound, Err: errors.New(`resolving repository path "/x": no`)})
	if strings.Contains(got, "/x") {
		t.Errorf("a path leaked: %q", got)
	}
	if c.Describe(errors.New("other")) != "" {
		t.Error("a plain error is not an unusable corpus")
	}
}

func TestDescribeParseError(t *testing.T) {
	for in, want := range map[string]string{
		"flag provided but not defined: -nope":                      "unknown option --nope",
		"flag needs an argument: --cwd":                             "option --cwd needs a value",
		"flag needs an argument: -cwd":                              "option --cwd needs a value",
		`invalid value "x" for flag -limit: strconv.ParseInt: oops`: `option --limit needs a whole number, got "x"`,
		"something else":                                            "something else",
	} {
		if got := DescribeParseError(errors.New(in)); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

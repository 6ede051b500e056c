// Package action_test runs the GitHub Action's script (check.sh, which
// action.yml calls) without GitHub: each case builds a repository, sets
// the GITHUB_* variables a runner would (an event payload, the summary
// and output files, the workspace), runs the script and checks what
// GitHub would show: the annotations, the job summary, the outputs and
// the exit status.
package action_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

// skipOnWindows skips a test of the script on Windows: the action is
// for Linux and macOS runners (docs/github-action.md), and on Windows
// "bash" may be Git Bash or WSL's launcher, whose path translation these
// tests do not model.
func skipOnWindows(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the action runs on Linux and macOS runners; its bash script is not run on Windows")
	}
}

// run is one run of the script.
type run struct {
	code                    int
	stdout, summary, output string
}

// runScript runs check.sh in a runner-like environment.
func runScript(t *testing.T, env map[string]string) run {
	t.Helper()
	return runAction(t, "check.sh", env)
}

// runAction runs one of the Actions' scripts in a runner-like
// environment: the process's own, less anything a real runner set, plus
// a step summary and output file of its own, a RUNNER_TEMP, and env.
func runAction(t *testing.T, script string, env map[string]string) run {
	t.Helper()
	dir := t.TempDir()
	summary, output := filepath.Join(dir, "summary.md"), filepath.Join(dir, "output")
	cmd := exec.Command("bash", script)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GITHUB_") || strings.HasPrefix(name, "INPUT_") ||
			strings.HasPrefix(name, "RUNNER_") || strings.HasPrefix(name, "ADRKIT_") {
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_OUTPUT="+output, "RUNNER_TEMP="+t.TempDir())
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := run{stdout: stdout.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("running %s: %v\n%s", script, err, stderr.String())
	}
	r.summary, r.output = readOptional(t, summary), readOptional(t, output)
	if t.Failed() || testing.Verbose() {
		t.Logf("stderr:\n%s", stderr.String())
	}
	return r
}

// readOptional is the content of p, "" when there is no such file.
func readOptional(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// newRepo commits testdata/repo on main and checks out a branch feature,
// changed by change; it returns the working tree and main's commit.
func newRepo(t *testing.T, change func(w *gittest.Worktree)) (*gittest.Worktree, string) {
	t.Helper()
	w := gittest.NewWorktree(t, filepath.Join(t.TempDir(), "repo"))
	w.CopyDir(filepath.Join("testdata", "repo"))
	main := w.Commit("main")
	w.Checkout("feature", true)
	change(w)
	return w, main.String()
}

// pullRequest writes a pull_request event payload whose base is sha.
func pullRequest(t *testing.T, sha string) string {
	t.Helper()
	return event(t, map[string]any{"action": "synchronize", "pull_request": map[string]any{"number": 7, "base": map[string]any{"ref": "main", "sha": sha}}})
}

func event(t *testing.T, payload map[string]any) string {
	t.Helper()
	b, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func contains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s has no %q:\n%s", what, w, text)
		}
	}
}

func TestActionScript(t *testing.T) {
	skipOnWindows(t)
	// The first run builds adrkit from the action's own source, as the
	// action does on a runner; the others reuse that binary.
	temp := t.TempDir()
	breaks, base := newRepo(t, func(w *gittest.Worktree) {
		w.Remove("docs/adr/0003-metrics.md")
		w.Write("src/app.go", "// @adr 0003\npackage app\n\nfunc Run() {}\n")
		w.Commit("drop metrics")
	})
	r := runScript(t, map[string]string{
		"GITHUB_WORKSPACE":   breaks.Root(),
		"GITHUB_EVENT_PATH":  pullRequest(t, base),
		"GITHUB_ACTION_PATH": filepath.Join("..", ".."),
		"RUNNER_TEMP":        temp,
		"INPUT_SARIF":        "true",
	})
	if r.code != 1 {
		t.Fatalf("a change that breaks a relation: exit %d\n%s", r.code, r.stdout)
	}
	contains(t, "the annotations", r.stdout,
		"::error file=docs/adr/0002-tracing.md,line=7,title=adrkit dangling-relatesTo::this change broke it: ",
		"::warning file=src/app.go,line=1,title=adrkit dangling-marker::",
		"adrkit check: 2 changed files, 1 governed by an accepted decision; 1 error, 1 warning. The change fails (--fail-on error).")
	contains(t, "the job summary", r.summary,
		"### adrkit check: the change fails",
		"| Changed file | Governing decisions | Active proposals |",
		"| docs/adr/0003-metrics.md | — | — |",
		"| src/app.go | 0001 Keep the application in src | — |")
	sarif := filepath.Join(temp, "adrkit.sarif")
	contains(t, "the outputs", r.output, "base="+base+"\n", "sarif-file="+sarif+"\n")
	var log struct{ Version string }
	if b, err := os.ReadFile(sarif); err != nil || json.Unmarshal(b, &log) != nil || log.Version != "2.1.0" {
		t.Errorf("no SARIF log at %s: %v", sarif, err)
	}
	bin := filepath.Join(temp, "adrkit")

	clean, cleanBase := newRepo(t, func(w *gittest.Worktree) {
		w.Write("src/app.go", "// @adr 0003\npackage app\n\nfunc Run() {}\n")
		w.Commit("run")
	})
	warns, warnsBase := newRepo(t, func(w *gittest.Worktree) {
		w.Write("src/app.go", "// @adr 0099\npackage app\n")
		w.Commit("a marker naming nothing")
	})
	// The pull request's base branch as a remote-tracking branch, as
	// actions/checkout leaves it.
	remote, _ := newRepo(t, func(w *gittest.Worktree) {
		w.Write("src/app.go", "package app\n")
		w.Commit("no marker")
	})
	repo, err := git.PlainOpen(remote.Root())
	if err != nil {
		t.Fatal(err)
	}
	mainRef, err := repo.Reference(plumbing.NewBranchReferenceName("main"), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.Storer.SetReference(plumbing.NewHashReference(plumbing.NewRemoteReferenceName("origin", "main"), mainRef.Hash())); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name  string
		env   map[string]string
		code  int
		wants []string // in stdout
		sum   []string // in the summary
	}{
		{"a clean pull request", map[string]string{"GITHUB_WORKSPACE": clean.Root(), "GITHUB_EVENT_PATH": pullRequest(t, cleanBase)}, 0,
			[]string{"adrkit check: 1 changed file, 1 governed by an accepted decision; no findings. The change passes (--fail-on error)."},
			[]string{"### adrkit check: the change passes", "| src/app.go | 0001 Keep the application in src<br>0003 Export metrics in OpenMetrics | — |"}},
		{"a push", map[string]string{"GITHUB_WORKSPACE": clean.Root(), "GITHUB_EVENT_PATH": event(t, map[string]any{"before": cleanBase, "after": "x"})}, 0,
			[]string{"The change passes"}, []string{"| src/app.go |"}},
		{"a merge group", map[string]string{"GITHUB_WORKSPACE": breaks.Root(), "GITHUB_EVENT_PATH": event(t, map[string]any{"merge_group": map[string]any{"base_sha": base}})}, 1,
			[]string{"::error file=docs/adr/0002-tracing.md"}, nil},
		{"warnings pass by default", map[string]string{"GITHUB_WORKSPACE": warns.Root(), "GITHUB_EVENT_PATH": pullRequest(t, warnsBase)}, 0,
			[]string{"::warning file=src/app.go,line=1,title=adrkit dangling-marker::"}, nil},
		{"fail-on warning", map[string]string{"GITHUB_WORKSPACE": warns.Root(), "GITHUB_EVENT_PATH": pullRequest(t, warnsBase), "INPUT_FAIL_ON": "warning"}, 1,
			[]string{"The change fails (--fail-on warning)."}, []string{"### adrkit check: the change fails"}},
		{"fail-on never", map[string]string{"GITHUB_WORKSPACE": breaks.Root(), "GITHUB_EVENT_PATH": pullRequest(t, base), "INPUT_FAIL_ON": "never"}, 0,
			[]string{"::error file=docs/adr/0002-tracing.md", "The change passes (--fail-on never)."}, nil},
		{"the base input wins", map[string]string{"GITHUB_WORKSPACE": clean.Root(), "GITHUB_EVENT_PATH": pullRequest(t, "0000000000000000000000000000000000000001"), "INPUT_BASE": "main"}, 0,
			[]string{"The change passes"}, nil},
		{"the ADR directory named", map[string]string{"GITHUB_WORKSPACE": clean.Root(), "GITHUB_EVENT_PATH": pullRequest(t, cleanBase), "INPUT_DIR": "docs/adr"}, 0,
			[]string{"The change passes"}, nil},
		{"the base branch without a payload", map[string]string{"GITHUB_WORKSPACE": remote.Root(), "GITHUB_BASE_REF": "main"}, 0,
			[]string{"adrkit check: 1 changed file, 1 governed by an accepted decision; no findings."}, nil},
		// adrkit's usage error is annotated, so that the pull request shows it.
		{"an ADR directory that is not there", map[string]string{"GITHUB_WORKSPACE": clean.Root(), "GITHUB_EVENT_PATH": pullRequest(t, cleanBase), "INPUT_DIR": "decisions"}, 2,
			[]string{"::error title=adrkit check::Configured ADR directory was not found. There is no directory \"decisions\""}, nil},
		{"a base that does not resolve", map[string]string{"GITHUB_WORKSPACE": clean.Root(), "INPUT_BASE": "no-such-branch"}, 2,
			[]string{"::error title=adrkit check::--changed-since: "}, nil},
		// A push that creates a branch has no before: the default branch is the base.
		{"a push that creates a branch", map[string]string{"GITHUB_WORKSPACE": remote.Root(), "GITHUB_EVENT_PATH": event(t, map[string]any{
			"before": "0000000000000000000000000000000000000000", "repository": map[string]any{"default_branch": "main"}})}, 0,
			[]string{"adrkit check: 1 changed file, 1 governed by an accepted decision; no findings."}, nil},
		{"no base at all", map[string]string{"GITHUB_WORKSPACE": clean.Root()}, 2,
			[]string{"::error title=adrkit check::no revision to compare with"}, nil},
		{"a bad sarif input", map[string]string{"GITHUB_WORKSPACE": clean.Root(), "GITHUB_EVENT_PATH": pullRequest(t, cleanBase), "INPUT_SARIF": "yes"}, 2,
			[]string{"::error title=adrkit check::the sarif input must be"}, nil},
		{"a bad fail-on input", map[string]string{"GITHUB_WORKSPACE": clean.Root(), "GITHUB_EVENT_PATH": pullRequest(t, cleanBase), "INPUT_FAIL_ON": "sometimes"}, 2,
			[]string{"::error title=adrkit check::the fail-on input must be \"error\", \"warning\" or \"never\", got \"sometimes\""}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.env["ADRKIT_BIN"] = bin
			tc.env["RUNNER_TEMP"] = t.TempDir()
			r := runScript(t, tc.env)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d\n%s", r.code, tc.code, r.stdout)
			}
			contains(t, "the annotations", r.stdout, tc.wants...)
			contains(t, "the job summary", r.summary, tc.sum...)
			if tc.code != 2 && !strings.Contains(r.output, "base=") {
				t.Errorf("no base output: %q", r.output)
			}
			if strings.Contains(r.output, "sarif-file=") {
				t.Errorf("a SARIF log nobody asked for: %q", r.output)
			}
		})
	}
}

// TestActionFetches: on a runner the checkout may lack what the
// comparison needs, and the script fetches it with git: the history of a
// shallow clone (actions/checkout's depth of 1), and a base branch that
// has no remote-tracking branch yet.
func TestActionFetches(t *testing.T) {
	skipOnWindows(t)
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("the script fetches with git, which is not installed: %v", err)
	}
	upstream, base := newRepo(t, func(w *gittest.Worktree) {
		w.Write("src/app.go", "// @adr 0003\npackage app\n\nfunc Run() {}\n")
		w.Commit("run")
	})
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command(gitBin, args...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	temp := t.TempDir()
	bin := filepath.Join(temp, "adrkit")
	build := exec.Command("go", "build", "-o", bin, "./cmd/adrkit")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building adrkit: %v\n%s", err, out)
	}

	shallow := filepath.Join(t.TempDir(), "shallow")
	gitRun("clone", "--quiet", "--depth", "1", "--branch", "feature", "file://"+upstream.Root(), shallow)
	r := runScript(t, map[string]string{"GITHUB_WORKSPACE": shallow, "GITHUB_EVENT_PATH": pullRequest(t, base), "ADRKIT_BIN": bin, "RUNNER_TEMP": t.TempDir()})
	if r.code != 0 {
		t.Errorf("a shallow clone: exit %d\n%s", r.code, r.stdout)
	}
	contains(t, "a shallow clone", r.stdout, "the checkout is shallow", "adrkit check: 1 changed file, 1 governed by an accepted decision; no findings.")

	bare := filepath.Join(t.TempDir(), "clone")
	gitRun("clone", "--quiet", "--branch", "feature", upstream.Root(), bare)
	gitRun("-C", bare, "update-ref", "-d", "refs/remotes/origin/main")
	r = runScript(t, map[string]string{"GITHUB_WORKSPACE": bare, "GITHUB_BASE_REF": "main", "ADRKIT_BIN": bin, "RUNNER_TEMP": t.TempDir()})
	if r.code != 0 {
		t.Errorf("no remote-tracking base branch: exit %d\n%s", r.code, r.stdout)
	}
	contains(t, "no remote-tracking base branch", r.stdout, "adrkit: fetching origin/main", "adrkit check: 1 changed file, 1 governed by an accepted decision; no findings.")
}

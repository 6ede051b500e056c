package action_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/ghstub"
	"github.com/adrkit/adrkit-go/internal/gittest"
)

// buildTools builds adrkit and ghsync once, as the actions do on a runner.
func buildTools(t *testing.T) (adrkit, ghsync string) {
	t.Helper()
	dir := t.TempDir()
	adrkit, ghsync = filepath.Join(dir, "adrkit"), filepath.Join(dir, "ghsync")
	for pkg, out := range map[string]string{"./cmd/adrkit": adrkit, "./scripts/action/ghsync": ghsync} {
		build := exec.Command("go", "build", "-o", out, pkg)
		build.Dir = filepath.Join("..", "..")
		if b, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", pkg, err, b)
		}
	}
	return adrkit, ghsync
}

// apiEnv is the environment that points the scripts at the stand-in.
func apiEnv(url, adrkit, ghsync string, extra map[string]string) map[string]string {
	env := map[string]string{"GITHUB_API_URL": url, "GITHUB_REPOSITORY": ghstub.Repo, "GITHUB_TOKEN": ghstub.Token,
		"ADRKIT_BIN": adrkit, "ADRKIT_GHSYNC_BIN": ghsync}
	for k, v := range extra {
		env[k] = v
	}
	return env
}

// TestActionComment runs check.sh with comment: "true" against a stand-in
// for the GitHub API on loopback and checks what it was asked: a comment
// created, then updated in place; a notice and no failure with a
// read-only token; a truncated changed-file list refused before anything
// is posted; no comment when the input is off.
func TestActionComment(t *testing.T) {
	skipOnWindows(t)
	adrkit, ghsync := buildTools(t)
	breaks, base := newRepo(t, func(w *gittest.Worktree) {
		w.Remove("docs/adr/0003-metrics.md")
		w.Write("src/app.go", "// @adr 0003\npackage app\n\nfunc Run() {}\n")
		w.Commit("drop metrics")
	})
	pr := func(changed int) string {
		return event(t, map[string]any{"pull_request": map[string]any{"number": 7, "changed_files": changed, "base": map[string]any{"sha": base}}})
	}
	stub, srv := ghstub.New(t)
	comments := func() []ghstub.Comment { cs, _ := stub.Snapshot(); return cs }
	script := func(extra map[string]string) run {
		env := apiEnv(srv.URL, adrkit, ghsync, extra)
		env["GITHUB_WORKSPACE"] = breaks.Root()
		env["RUNNER_TEMP"] = t.TempDir()
		if _, ok := env["GITHUB_EVENT_PATH"]; !ok {
			env["GITHUB_EVENT_PATH"] = pr(2)
		}
		return runScript(t, env)
	}

	r := script(map[string]string{"INPUT_COMMENT": "true"})
	if r.code != 1 || !slices.Equal(stub.Writes(), []string{"POST /repos/o/r/issues/7/comments"}) {
		t.Fatalf("create: exit %d\n%s", r.code, r.stdout)
	}
	body := comments()[0].Body
	contains(t, "the comment", body, "<!-- adrkit:check -->\n### adrkit check: the change fails", "#### Records this change broke",
		"| 0002 (docs/adr/0002-tracing.md) | error (fails) | dangling-relatesTo |", "#### Decisions covering the changed files")
	contains(t, "the outputs", r.output, "comment-url=https://gh/c/")

	// The same pull request again, after a fix: the comment is updated.
	breaks.Write("docs/adr/0002-tracing.md", strings.Replace(readFile(t, filepath.Join(breaks.Root(), "docs/adr/0002-tracing.md")), `"0003"`, `"0001"`, 1))
	breaks.Commit("fix the relation")
	r = script(map[string]string{"INPUT_COMMENT": "true"})
	if !slices.Equal(stub.Writes(), []string{"PATCH /repos/o/r/issues/comments/101"}) || len(comments()) != 1 ||
		!strings.Contains(comments()[0].Body, "the change passes") {
		t.Fatalf("update: exit %d\n%s\n%s", r.code, r.stdout, comments()[0].Body)
	}
	if r.code != 0 {
		t.Errorf("update: exit %d\n%s", r.code, r.stdout)
	}

	// A pull request from a fork: the token is read-only.
	stub.Edit(func() {
		stub.ReadOnly = true
		stub.Comments[0].Body = "<!-- adrkit:check -->\nstale"
	})
	r = script(map[string]string{"INPUT_COMMENT": "true"})
	if r.code != 0 || !strings.Contains(r.stdout, "::notice title=adrkit::the workflow token may not comment on pull request #7") {
		t.Errorf("read-only: exit %d\n%s", r.code, r.stdout)
	}
	stub.Edit(func() { stub.ReadOnly = false })
	stub.Writes()

	// GitHub says the pull request changes more files than adrkit saw.
	r = script(map[string]string{"INPUT_COMMENT": "true", "GITHUB_EVENT_PATH": pr(40)})
	if r.code != 1 || len(stub.Writes()) != 0 || !strings.Contains(r.stdout, "::error title=adrkit::adrkit check saw 3 changed files, but pull request #7 changes 40") {
		t.Errorf("truncated: exit %d\n%s", r.code, r.stdout)
	}

	// Off by default; a bad value is a mistake.
	r = script(nil)
	if r.code != 0 || len(stub.Writes()) != 0 || strings.Contains(r.stdout, "comment") {
		t.Errorf("comment off: exit %d\n%s", r.code, r.stdout)
	}
	r = script(map[string]string{"INPUT_COMMENT": "yes"})
	if r.code != 2 || !strings.Contains(r.stdout, `the comment input must be "true" or "false"`) {
		t.Errorf("bad comment input: exit %d\n%s", r.code, r.stdout)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

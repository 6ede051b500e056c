package action_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/ghstub"
	"github.com/adrkit/adrkit-go/internal/gittest"
)

// runQueue runs queue.sh as runScript runs check.sh.
func runQueue(t *testing.T, env map[string]string) run {
	t.Helper()
	return runAction(t, "queue.sh", env)
}

// TestQueueAction runs the review-queue Action's script against the
// stand-in: the issue is opened, updated, left alone when current,
// reopened when closed, never confused with an issue someone else
// wrote; a corpus with a broken record still updates the issue and
// fails the step; a bad date is a mistake before anything is written.
func TestQueueAction(t *testing.T) {
	skipOnWindows(t)
	adrkit, ghsync := buildTools(t)
	w := gittest.NewWorktree(t, filepath.Join(t.TempDir(), "repo"))
	w.CopyDir(filepath.Join("testdata", "repo"))
	w.Write("docs/adr/0004-queue-me.md", "---\nid: \"0004\"\ntitle: Queue me\nstatus: proposed\ndate: 2026-01-02\n"+
		"deciders: [\"@dana\"]\nreview:\n  tier: arb\n  queuedAt: 2026-01-02T09:00:00Z\n  slaDays: 5\n---\n")
	w.Commit("main")
	stub, srv := ghstub.New(t)
	stub.Edit(func() {
		stub.Issues = []ghstub.Issue{{Number: 1, Title: "ADR review queue", Body: "kept by hand", State: "open", User: ghstub.User{Login: "alice"}}}
	})
	issues := func() []ghstub.Issue { _, is := stub.Snapshot(); return is }
	queue := func(extra map[string]string) run {
		env := apiEnv(srv.URL, adrkit, ghsync, extra)
		env["GITHUB_WORKSPACE"] = w.Root()
		return runQueue(t, env)
	}

	r := queue(map[string]string{"INPUT_AS_OF": "2026-01-05"})
	if r.code != 0 || !slices.Equal(stub.Writes(), []string{"POST /repos/o/r/issues"}) || len(issues()) != 2 {
		t.Fatalf("open: exit %d\n%s", r.code, r.stdout)
	}
	is := issues()[1]
	contains(t, "the issue", is.Title+"\n"+is.Body, "ADR review queue\n<!-- adrkit:queue -->\n## ADR review queue, 2026-01-05",
		"| 1 | within-sla | 2026-01-07 | 0004 | Queue me | arb |")
	contains(t, "the job summary", r.summary, "## ADR review queue, 2026-01-05")
	contains(t, "the outputs", r.output, "issue-url=https://gh/i/", "issue-number=")

	r = queue(map[string]string{"INPUT_AS_OF": "2026-01-08"})
	if r.code != 0 || !slices.Equal(stub.Writes(), []string{"PATCH /repos/o/r/issues/101"}) || !strings.Contains(issues()[1].Body, "| 1 | overdue |") {
		t.Fatalf("update: exit %d\n%s", r.code, r.stdout)
	}
	r = queue(map[string]string{"INPUT_AS_OF": "2026-01-08"})
	if r.code != 0 || len(stub.Writes()) != 0 || !strings.Contains(r.stdout, "already current") {
		t.Errorf("unchanged: exit %d\n%s", r.code, r.stdout)
	}
	stub.Edit(func() { stub.Issues[1].State = "closed" })
	r = queue(map[string]string{"INPUT_AS_OF": "2026-01-08"})
	if r.code != 0 || !slices.Equal(stub.Writes(), []string{"PATCH /repos/o/r/issues/101"}) || issues()[1].State != "open" {
		t.Errorf("reopen: exit %d\n%s", r.code, r.stdout)
	}
	if issues()[0].Body != "kept by hand" {
		t.Errorf("edited an issue someone else wrote: %+v", issues()[0])
	}

	// A broken record: the queue is still written, and the step fails.
	w.Write("docs/adr/0005-broken.md", "---\nid: \"0005\"\ntitle: x\nstatus: proposed\ndate: 2026-01-02\n---\n")
	r = queue(map[string]string{"INPUT_AS_OF": "2026-01-08"})
	if r.code != 1 || !slices.Equal(stub.Writes(), []string{"PATCH /repos/o/r/issues/101"}) || !strings.Contains(issues()[1].Body, "docs/adr/0005-broken.md") {
		t.Errorf("broken record: exit %d\n%s", r.code, r.stdout)
	}

	r = queue(map[string]string{"INPUT_AS_OF": "2026-01-08T10:00:00"})
	if r.code != 2 || len(stub.Writes()) != 0 || !strings.Contains(r.stdout, "::error title=adrkit queue::--as-of: ") {
		t.Errorf("zoneless as-of: exit %d\n%s", r.code, r.stdout)
	}
	stub.Edit(func() { stub.ReadOnly = true })
	r = queue(map[string]string{"INPUT_AS_OF": "2026-01-09"})
	if r.code != 1 || !strings.Contains(r.stdout, "issues: write") {
		t.Errorf("no permission: exit %d\n%s", r.code, r.stdout)
	}
}

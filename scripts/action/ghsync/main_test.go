package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/ghstub"
)

// ghsync runs the command against srv with a pull_request event for
// pull request 7 that changes changed files (-1: the payload says not).
func ghsync(t *testing.T, srv *httptest.Server, event string, args ...string) (int, string) {
	t.Helper()
	dir := t.TempDir()
	ev := filepath.Join(dir, "event.json")
	if err := os.WriteFile(ev, []byte(event), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"GITHUB_TOKEN": "tok", "GITHUB_API_URL": srv.URL, "GITHUB_REPOSITORY": "o/r",
		"GITHUB_EVENT_PATH": ev, "GITHUB_OUTPUT": filepath.Join(dir, "output")}
	var out bytes.Buffer
	code := run(context.Background(), args, func(k string) string { return vars[k] }, &out, srv.Client())
	return code, out.String()
}

func bodyFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "body.md")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const prEvent = `{"pull_request":{"number":7,"changed_files":3}}`

func TestComment(t *testing.T) {
	s, srv := ghstub.New(t)
	first := bodyFile(t, commentMarker+"\n### adrkit check: the change passes\n")
	second := bodyFile(t, commentMarker+"\n### adrkit check: the change fails\n")
	// Someone else's comment with the marker, and ours without it, are
	// never edited.
	s.Comments = []ghstub.Comment{
		{ID: 1, Body: commentMarker + "\nquoted by a person", User: ghstub.User{Login: "alice"}},
		{ID: 2, Body: "a note from the bot", User: ghstub.User{Login: ghstub.Bot}},
	}

	code, out := ghsync(t, srv, prEvent, "comment", "--body", first, "--files", "3")
	if code != 0 || !slices.Equal(s.Writes(), []string{"POST /repos/o/r/issues/7/comments"}) || !strings.Contains(out, "posted") {
		t.Fatalf("create: %d %q", code, out)
	}
	code, out = ghsync(t, srv, prEvent, "comment", "--body", second, "--files", "4")
	if code != 0 || !slices.Equal(s.Writes(), []string{"PATCH /repos/o/r/issues/comments/101"}) || !strings.Contains(out, "updated") {
		t.Fatalf("update: %d %q", code, out)
	}
	code, out = ghsync(t, srv, prEvent, "comment", "--body", second, "--files", "3")
	if code != 0 || len(s.Writes()) != 0 || !strings.Contains(out, "already current") {
		t.Fatalf("unchanged: %d %q", code, out)
	}
	if len(s.Comments) != 3 || s.Comments[0].Body != commentMarker+"\nquoted by a person" || s.Comments[1].Body != "a note from the bot" ||
		!strings.HasSuffix(s.Comments[2].Body, "fails\n") {
		t.Errorf("comments %+v", s.Comments)
	}
}

func TestCommentRefusals(t *testing.T) {
	body := commentMarker + "\n### adrkit check\n"
	for _, tc := range []struct {
		name, event string
		files       string
		readOnly    bool
		wantCode    int
		wantOut     string
		wantWrites  []string
	}{
		{"fork: a read-only token is a notice", prEvent, "3", true, 0, "::notice title=adrkit::the workflow token may not comment on pull request #7",
			[]string{"POST /repos/o/r/issues/7/comments"}},
		{"a truncated changed-file list is refused", prEvent, "2", false, 1, "::error title=adrkit::adrkit check saw 2 changed files, but pull request #7 changes 3", nil},
		{"not a pull request", `{"ref":"refs/heads/main"}`, "3", false, 0, "::notice title=adrkit::this run is not for a pull request", nil},
		{"no count in the payload: posted", `{"pull_request":{"number":7}}`, "0", false, 0, "posted", []string{"POST /repos/o/r/issues/7/comments"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := ghstub.New(t)
			s.ReadOnly = tc.readOnly
			code, out := ghsync(t, srv, tc.event, "comment", "--body", bodyFile(t, body), "--files", tc.files)
			if code != tc.wantCode || !strings.Contains(out, tc.wantOut) || !slices.Equal(s.Writes(), tc.wantWrites) {
				t.Errorf("status %d, output %q", code, out)
			}
		})
	}

	_, srv := ghstub.New(t)
	if code, out := ghsync(t, srv, prEvent, "comment", "--body", bodyFile(t, "no marker\n"), "--files", "3"); code != 1 || !strings.Contains(out, "marker") {
		t.Errorf("no marker: %d %q", code, out)
	}
	if code, _ := ghsync(t, srv, prEvent, "comment", "--files", "3"); code != 2 {
		t.Errorf("no body: %d", code)
	}
	report := bodyFile(t, `{"schemaVersion":1,"summary":{"files":2}}`)
	if code, out := ghsync(t, srv, prEvent, "comment", "--body", bodyFile(t, body), "--check-json", report); code != 1 || !strings.Contains(out, "saw 2 changed files") {
		t.Errorf("count from the report: %d %q", code, out)
	}
	if code, out := ghsync(t, srv, prEvent, "comment", "--body", bodyFile(t, body), "--check-json", bodyFile(t, "{}")); code != 1 || !strings.Contains(out, "summary.files") {
		t.Errorf("not a report: %d %q", code, out)
	}
	if code, _ := ghsync(t, srv, prEvent, "bogus"); code != 2 {
		t.Errorf("unknown command: %d", code)
	}
}

// Many comments: the marker comment is found past the first page.
func TestCommentPaging(t *testing.T) {
	s, srv := ghstub.New(t)
	for i := range 250 {
		s.Comments = append(s.Comments, ghstub.Comment{ID: int64(i + 1), Body: "chatter", User: ghstub.User{Login: "bob"}})
	}
	s.Comments[230] = ghstub.Comment{ID: 231, Body: commentMarker + "\nold", User: ghstub.User{Login: ghstub.Bot}}
	code, out := ghsync(t, srv, prEvent, "comment", "--body", bodyFile(t, commentMarker+"\nnew"), "--files", "3")
	if code != 0 || !slices.Equal(s.Writes(), []string{"PATCH /repos/o/r/issues/comments/231"}) {
		t.Errorf("%d %q", code, out)
	}
}

func TestQueueIssue(t *testing.T) {
	s, srv := ghstub.New(t)
	// An issue with the title that adrkit did not write, and a pull request.
	s.Issues = []ghstub.Issue{
		{Number: 1, Title: queueTitle, Body: "our own list", State: "open", User: ghstub.User{Login: "alice"}},
		{Number: 2, Title: queueTitle, Body: queueMarker + "\nforged", State: "open", User: ghstub.User{Login: "mallory"}},
	}
	q1, q2 := bodyFile(t, "## ADR review queue, 2026-01-08\n"), bodyFile(t, "## ADR review queue, 2026-01-09\n")

	code, out := ghsync(t, srv, "{}", "queue-issue", "--body", q1)
	if code != 0 || !slices.Equal(s.Writes(), []string{"POST /repos/o/r/issues"}) || !strings.Contains(out, "opened") {
		t.Fatalf("create: %d %q", code, out)
	}
	created := s.Issues[2]
	if created.Title != queueTitle || created.Body != queueMarker+"\n## ADR review queue, 2026-01-08\n" {
		t.Errorf("created %+v", created)
	}
	code, out = ghsync(t, srv, "{}", "queue-issue", "--body", q2)
	if code != 0 || !slices.Equal(s.Writes(), []string{fmt.Sprintf("PATCH /repos/o/r/issues/%d", created.Number)}) || !strings.Contains(out, "updated") {
		t.Fatalf("update: %d %q", code, out)
	}
	code, out = ghsync(t, srv, "{}", "queue-issue", "--body", q2)
	if code != 0 || len(s.Writes()) != 0 || !strings.Contains(out, "already current") {
		t.Fatalf("unchanged: %d %q", code, out)
	}
	s.Issues[2].State = "closed"
	code, out = ghsync(t, srv, "{}", "queue-issue", "--body", q2)
	if code != 0 || !slices.Equal(s.Writes(), []string{fmt.Sprintf("PATCH /repos/o/r/issues/%d", created.Number)}) ||
		!strings.Contains(out, "reopened") || s.Issues[2].State != "open" {
		t.Fatalf("reopen: %d %q %+v", code, out, s.Issues[2])
	}
	if s.Issues[0].Body != "our own list" || s.Issues[1].Body != queueMarker+"\nforged" || len(s.Issues) != 3 {
		t.Errorf("touched an issue it did not write: %+v", s.Issues[:2])
	}

	s.ReadOnly = true
	s.Issues[2].Body = "stale"
	code, out = ghsync(t, srv, "{}", "queue-issue", "--body", q1)
	if code != 1 || !strings.Contains(out, "issues: write") {
		t.Errorf("read-only: %d %q", code, out)
	}
}

func TestFitBody(t *testing.T) {
	var b strings.Builder
	b.WriteString(queueMarker + "\n## Queue\n\n| a | b |\n|---|---|\n")
	for i := range 400 {
		fmt.Fprintf(&b, "\n#### %04d item\n\n| Field | Value |\n|---|---|\n| x | %s |\n", i, strings.Repeat("y", 200))
	}
	got := fitBody(b.String(), maxBody)
	if len(got) > maxBody || !strings.HasSuffix(got, shortenedNote) || !strings.HasPrefix(got, queueMarker+"\n") {
		t.Fatalf("%d bytes, suffix %q", len(got), got[len(got)-80:])
	}
	// The cut is at a section: what precedes the note ends a whole item.
	rest := strings.TrimSuffix(got, shortenedNote)
	if !strings.HasSuffix(rest, " |\n\n") {
		t.Errorf("cut inside a section: %q", rest[len(rest)-60:])
	}
	if short := "small"; fitBody(short, maxBody) != short {
		t.Error("a body that fits was changed")
	}
}

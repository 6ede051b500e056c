package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// standIn is a stand-in for the GitHub REST API on loopback: it keeps
// comments and issues in memory, answers the endpoints ghsync calls, and
// records every request ("METHOD path") so a test can say what was asked.
type standIn struct {
	t        *testing.T
	mu       sync.Mutex
	comments []comment
	issues   []issue
	requests []string
	// readOnly refuses every write with 403, as GitHub refuses a fork's
	// pull request token.
	readOnly bool
	nextID   int64
}

func newStandIn(t *testing.T) (*standIn, *httptest.Server) {
	s := &standIn{t: t, nextID: 100}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

func (s *standIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.Method+" "+r.URL.Path)
	if r.Header.Get("Authorization") != "Bearer tok" {
		http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
		return
	}
	var in map[string]string
	if r.Body != nil {
		data, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(data, &in)
	}
	if r.Method != http.MethodGet && s.readOnly {
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, `{"message":"Resource not accessible by integration"}`)
		return
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	paged := func(n int) (int, int) {
		lo := min((page-1)*per, n)
		return lo, min(lo+per, n)
	}
	reply := func(v any) { _ = json.NewEncoder(w).Encode(v) }
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/repos/o/r/"), "/")
	switch {
	case r.Method == http.MethodGet && len(parts) == 3 && parts[0] == "issues" && parts[2] == "comments":
		lo, hi := paged(len(s.comments))
		reply(s.comments[lo:hi])
	case r.Method == http.MethodPost && len(parts) == 3 && parts[2] == "comments":
		s.nextID++
		c := comment{ID: s.nextID, Body: in["body"], User: user{Login: defaultAuthor}, HTMLURL: fmt.Sprintf("https://gh/c/%d", s.nextID)}
		s.comments = append(s.comments, c)
		w.WriteHeader(http.StatusCreated)
		reply(c)
	case r.Method == http.MethodPatch && len(parts) == 3 && parts[1] == "comments":
		id, _ := strconv.ParseInt(parts[2], 10, 64)
		for i := range s.comments {
			if s.comments[i].ID == id {
				s.comments[i].Body = in["body"]
				reply(s.comments[i])
				return
			}
		}
		http.NotFound(w, r)
	case r.Method == http.MethodGet && len(parts) == 1 && parts[0] == "issues":
		var out []issue
		for i := len(s.issues) - 1; i >= 0; i-- { // newest first
			if c := r.URL.Query().Get("creator"); c == "" || s.issues[i].User.Login == c {
				out = append(out, s.issues[i])
			}
		}
		lo, hi := paged(len(out))
		reply(out[lo:hi])
	case r.Method == http.MethodPost && len(parts) == 1 && parts[0] == "issues":
		s.nextID++
		is := issue{Number: s.nextID, Title: in["title"], Body: in["body"], State: "open", User: user{Login: defaultAuthor},
			HTMLURL: fmt.Sprintf("https://gh/i/%d", s.nextID)}
		s.issues = append(s.issues, is)
		w.WriteHeader(http.StatusCreated)
		reply(is)
	case r.Method == http.MethodPatch && len(parts) == 2 && parts[0] == "issues":
		n, _ := strconv.ParseInt(parts[1], 10, 64)
		for i := range s.issues {
			if s.issues[i].Number == n {
				if b, ok := in["body"]; ok {
					s.issues[i].Body = b
				}
				if st, ok := in["state"]; ok {
					s.issues[i].State = st
				}
				reply(s.issues[i])
				return
			}
		}
		http.NotFound(w, r)
	default:
		s.t.Errorf("unexpected request %s %s", r.Method, r.URL)
		http.NotFound(w, r)
	}
}

// writes are the recorded requests that change something.
func (s *standIn) writes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range s.requests {
		if !strings.HasPrefix(r, "GET ") {
			out = append(out, r)
		}
	}
	s.requests = nil
	return out
}

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
	s, srv := newStandIn(t)
	first := bodyFile(t, commentMarker+"\n### adrkit check: the change passes\n")
	second := bodyFile(t, commentMarker+"\n### adrkit check: the change fails\n")
	// Someone else's comment with the marker, and ours without it, are
	// never edited.
	s.comments = []comment{
		{ID: 1, Body: commentMarker + "\nquoted by a person", User: user{Login: "alice"}},
		{ID: 2, Body: "a note from the bot", User: user{Login: defaultAuthor}},
	}

	code, out := ghsync(t, srv, prEvent, "comment", "--body", first, "--files", "3")
	if code != 0 || !slices.Equal(s.writes(), []string{"POST /repos/o/r/issues/7/comments"}) || !strings.Contains(out, "posted") {
		t.Fatalf("create: %d %q", code, out)
	}
	code, out = ghsync(t, srv, prEvent, "comment", "--body", second, "--files", "4")
	if code != 0 || !slices.Equal(s.writes(), []string{"PATCH /repos/o/r/issues/comments/101"}) || !strings.Contains(out, "updated") {
		t.Fatalf("update: %d %q", code, out)
	}
	code, out = ghsync(t, srv, prEvent, "comment", "--body", second, "--files", "3")
	if code != 0 || len(s.writes()) != 0 || !strings.Contains(out, "already current") {
		t.Fatalf("unchanged: %d %q", code, out)
	}
	if len(s.comments) != 3 || s.comments[0].Body != commentMarker+"\nquoted by a person" || s.comments[1].Body != "a note from the bot" ||
		!strings.HasSuffix(s.comments[2].Body, "fails\n") {
		t.Errorf("comments %+v", s.comments)
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
			s, srv := newStandIn(t)
			s.readOnly = tc.readOnly
			code, out := ghsync(t, srv, tc.event, "comment", "--body", bodyFile(t, body), "--files", tc.files)
			if code != tc.wantCode || !strings.Contains(out, tc.wantOut) || !slices.Equal(s.writes(), tc.wantWrites) {
				t.Errorf("status %d, output %q", code, out)
			}
		})
	}

	_, srv := newStandIn(t)
	if code, out := ghsync(t, srv, prEvent, "comment", "--body", bodyFile(t, "no marker\n"), "--files", "3"); code != 1 || !strings.Contains(out, "marker") {
		t.Errorf("no marker: %d %q", code, out)
	}
	if code, _ := ghsync(t, srv, prEvent, "comment", "--files", "3"); code != 2 {
		t.Errorf("no body: %d", code)
	}
	if code, _ := ghsync(t, srv, prEvent, "bogus"); code != 2 {
		t.Errorf("unknown command: %d", code)
	}
}

// Many comments: the marker comment is found past the first page.
func TestCommentPaging(t *testing.T) {
	s, srv := newStandIn(t)
	for i := range 250 {
		s.comments = append(s.comments, comment{ID: int64(i + 1), Body: "chatter", User: user{Login: "bob"}})
	}
	s.comments[230] = comment{ID: 231, Body: commentMarker + "\nold", User: user{Login: defaultAuthor}}
	code, out := ghsync(t, srv, prEvent, "comment", "--body", bodyFile(t, commentMarker+"\nnew"), "--files", "3")
	if code != 0 || !slices.Equal(s.writes(), []string{"PATCH /repos/o/r/issues/comments/231"}) {
		t.Errorf("%d %q", code, out)
	}
}

func TestQueueIssue(t *testing.T) {
	s, srv := newStandIn(t)
	// An issue with the title that adrkit did not write, and a pull request.
	s.issues = []issue{
		{Number: 1, Title: queueTitle, Body: "our own list", State: "open", User: user{Login: "alice"}},
		{Number: 2, Title: queueTitle, Body: queueMarker + "\nforged", State: "open", User: user{Login: "mallory"}},
	}
	q1, q2 := bodyFile(t, "## ADR review queue, 2026-01-08\n"), bodyFile(t, "## ADR review queue, 2026-01-09\n")

	code, out := ghsync(t, srv, "{}", "queue-issue", "--body", q1)
	if code != 0 || !slices.Equal(s.writes(), []string{"POST /repos/o/r/issues"}) || !strings.Contains(out, "opened") {
		t.Fatalf("create: %d %q", code, out)
	}
	created := s.issues[2]
	if created.Title != queueTitle || created.Body != queueMarker+"\n## ADR review queue, 2026-01-08\n" {
		t.Errorf("created %+v", created)
	}
	code, out = ghsync(t, srv, "{}", "queue-issue", "--body", q2)
	if code != 0 || !slices.Equal(s.writes(), []string{fmt.Sprintf("PATCH /repos/o/r/issues/%d", created.Number)}) || !strings.Contains(out, "updated") {
		t.Fatalf("update: %d %q", code, out)
	}
	code, out = ghsync(t, srv, "{}", "queue-issue", "--body", q2)
	if code != 0 || len(s.writes()) != 0 || !strings.Contains(out, "already current") {
		t.Fatalf("unchanged: %d %q", code, out)
	}
	s.issues[2].State = "closed"
	code, out = ghsync(t, srv, "{}", "queue-issue", "--body", q2)
	if code != 0 || !slices.Equal(s.writes(), []string{fmt.Sprintf("PATCH /repos/o/r/issues/%d", created.Number)}) ||
		!strings.Contains(out, "reopened") || s.issues[2].State != "open" {
		t.Fatalf("reopen: %d %q %+v", code, out, s.issues[2])
	}
	if s.issues[0].Body != "our own list" || s.issues[1].Body != queueMarker+"\nforged" || len(s.issues) != 3 {
		t.Errorf("touched an issue it did not write: %+v", s.issues[:2])
	}

	s.readOnly = true
	s.issues[2].Body = "stale"
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

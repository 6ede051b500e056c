// Package ghstub is a stand-in for the part of the GitHub REST API the
// adrkit Actions call (issue and pull-request comments, issues), served on
// loopback for tests. It keeps what it is sent in memory and records
// every request, so a test can say what the Action asked for.
package ghstub

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Repo is the repository the stand-in serves; Token the only token it
// accepts; Bot the login everything it creates is written by.
const (
	Repo  = "o/r"
	Token = "tok"
	Bot   = "github-actions[bot]"
)

// User is the author of a comment or an issue.
type User struct {
	Login string `json:"login"`
}

// Comment is an issue or pull-request comment.
type Comment struct {
	ID      int64  `json:"id"`
	Body    string `json:"body"`
	User    User   `json:"user"`
	HTMLURL string `json:"html_url"`
}

// Issue is an issue.
type Issue struct {
	Number  int64  `json:"number"`
	Title   string `json:"title"`
	Body    string `json:"body"`
	State   string `json:"state"`
	User    User   `json:"user"`
	HTMLURL string `json:"html_url"`
}

// Stub is the stand-in. Its exported fields are what it serves; the
// handler reads and writes them under a lock, so a test changes them only
// inside Edit and reads them through Snapshot. The recorded requests are
// "METHOD path".
type Stub struct {
	t        *testing.T
	mu       sync.Mutex
	Comments []Comment
	Issues   []Issue
	requests []string
	// readOnly refuses every write with 403, as GitHub refuses a fork's
	// pull request token.
	ReadOnly bool
	nextID   int64
}

// New starts a stand-in, closed when the test ends.
func New(t *testing.T) (*Stub, *httptest.Server) {
	s := &Stub{t: t, nextID: 100}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

// Edit runs f with the stand-in locked, for a test that changes what it
// serves between two runs of an Action: the race detector sees the
// handler's later reads ordered after f's writes.
func (s *Stub) Edit(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

// Snapshot returns copies of the comments and issues the stand-in holds.
func (s *Stub) Snapshot() ([]Comment, []Issue) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.Comments), slices.Clone(s.Issues)
}

// ServeHTTP answers one API request.
func (s *Stub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.Method+" "+r.URL.Path)
	if r.Header.Get("Authorization") != "Bearer "+Token {
		http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
		return
	}
	var in map[string]string
	if r.Body != nil {
		data, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(data, &in)
	}
	if r.Method != http.MethodGet && s.ReadOnly {
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
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/repos/"+Repo+"/"), "/")
	switch {
	case r.Method == http.MethodGet && len(parts) == 3 && parts[0] == "issues" && parts[2] == "comments":
		lo, hi := paged(len(s.Comments))
		reply(s.Comments[lo:hi])
	case r.Method == http.MethodPost && len(parts) == 3 && parts[2] == "comments":
		s.nextID++
		c := Comment{ID: s.nextID, Body: in["body"], User: User{Login: Bot}, HTMLURL: fmt.Sprintf("https://gh/c/%d", s.nextID)}
		s.Comments = append(s.Comments, c)
		w.WriteHeader(http.StatusCreated)
		reply(c)
	case r.Method == http.MethodPatch && len(parts) == 3 && parts[1] == "comments":
		id, _ := strconv.ParseInt(parts[2], 10, 64)
		for i := range s.Comments {
			if s.Comments[i].ID == id {
				s.Comments[i].Body = in["body"]
				reply(s.Comments[i])
				return
			}
		}
		http.NotFound(w, r)
	case r.Method == http.MethodGet && len(parts) == 1 && parts[0] == "issues":
		var out []Issue
		for i := len(s.Issues) - 1; i >= 0; i-- { // newest first
			if c := r.URL.Query().Get("creator"); c == "" || s.Issues[i].User.Login == c {
				out = append(out, s.Issues[i])
			}
		}
		lo, hi := paged(len(out))
		reply(out[lo:hi])
	case r.Method == http.MethodPost && len(parts) == 1 && parts[0] == "issues":
		s.nextID++
		is := Issue{Number: s.nextID, Title: in["title"], Body: in["body"], State: "open", User: User{Login: Bot},
			HTMLURL: fmt.Sprintf("https://gh/i/%d", s.nextID)}
		s.Issues = append(s.Issues, is)
		w.WriteHeader(http.StatusCreated)
		reply(is)
	case r.Method == http.MethodPatch && len(parts) == 2 && parts[0] == "issues":
		n, _ := strconv.ParseInt(parts[1], 10, 64)
		for i := range s.Issues {
			if s.Issues[i].Number == n {
				if b, ok := in["body"]; ok {
					s.Issues[i].Body = b
				}
				if st, ok := in["state"]; ok {
					s.Issues[i].State = st
				}
				reply(s.Issues[i])
				return
			}
		}
		http.NotFound(w, r)
	default:
		s.t.Errorf("unexpected request %s %s", r.Method, r.URL)
		http.NotFound(w, r)
	}
}

// Writes are the recorded requests that change something.
func (s *Stub) Writes() []string {
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

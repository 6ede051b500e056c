package mcp

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

// gitRepo is a gittest.Repo in a fresh directory whose commits are a
// minute apart, and whose working tree can be set apart from them.
type gitRepo struct {
	*gittest.Repo
	t     *testing.T
	root  string
	ticks int
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &gitRepo{Repo: gittest.Init(t, root), t: t, root: root}
}

// commit commits files as the whole tree on main, on top of parent (zero
// for a root commit), and moves main there.
func (r *gitRepo) commit(parent plumbing.Hash, msg string, files map[string]string) plumbing.Hash {
	r.t.Helper()
	r.ticks++
	return r.Commit(parent, msg, time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC).Add(time.Duration(r.ticks)*time.Minute), files)
}

// checkout writes files into the working tree (the ADR directory is
// replaced as a whole).
func (r *gitRepo) checkout(files map[string]string) {
	r.t.Helper()
	if err := os.RemoveAll(filepath.Join(r.root, "docs")); err != nil {
		r.t.Fatal(err)
	}
	for p, content := range files {
		full := filepath.Join(r.root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// adr is the text of a record: status, then optional "by=REF" and
// "sup=REF,REF".
func adr(id, title, status string, rel ...string) string {
	var b strings.Builder
	n, _ := strconv.Atoi(id)
	fmt.Fprintf(&b, "---\nid: \"%s\"\ntitle: %s\nstatus: %s\ndate: 2026-01-%02d\n", id, title, status, n%28+1)
	if status != "draft" && status != "proposed" && status != "rejected" {
		b.WriteString("deciders: [\"@team\"]\n")
	}
	for _, r := range rel {
		k, v, _ := strings.Cut(r, "=")
		switch k {
		case "by":
			fmt.Fprintf(&b, "supersededBy: \"%s\"\n", v)
		case "sup":
			fmt.Fprintf(&b, "supersedes: [\"%s\"]\n", strings.Join(strings.Split(v, ","), "\", \""))
		}
	}
	fmt.Fprintf(&b, "---\n\n# %s\n", title)
	return b.String()
}

// rawSession is one connection to a Server with the extended tools, read
// as raw lines: goldens pin the bytes on the wire.
type rawSession struct {
	t      *testing.T
	in     *io.PipeWriter
	out    *bufio.Reader
	served chan error
}

func startExtended(t *testing.T, root string) *rawSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := New(serviceOver(root, true), Options{In: inR, Out: outW,
		OnError: func(err error) { t.Errorf("diagnostic: %v", err) }})
	s := &rawSession{t: t, in: inW, out: bufio.NewReaderSize(outR, 1<<20), served: make(chan error, 1)}
	go func() {
		err := srv.Serve(t.Context())
		_ = outW.Close()
		s.served <- err
	}()
	t.Cleanup(func() { _ = inW.Close() })
	return s
}

// exchange sends one request line and returns the answer line.
func (s *rawSession) exchange(req string) string {
	s.t.Helper()
	if _, err := io.WriteString(s.in, req+"\n"); err != nil {
		s.t.Fatal(err)
	}
	line, err := s.out.ReadString('\n')
	if err != nil {
		s.t.Fatalf("reading the answer to %s: %v", req, err)
	}
	return strings.TrimSuffix(line, "\n")
}

func (s *rawSession) close() {
	s.t.Helper()
	_ = s.in.Close()
	if err := <-s.served; err != nil {
		s.t.Fatalf("Serve: %v", err)
	}
}

package mcp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// gitRepo is a repository on disk whose commits are built object by
// object with go-git (never through the index), with fixed signatures so
// that every id, and every golden that shows one, is the same on every
// run.
type gitRepo struct {
	t     *testing.T
	root  string
	repo  *git.Repository
	ticks int
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo, err := git.PlainInitWithOptions(root, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &gitRepo{t: t, root: root, repo: repo}
}

func (r *gitRepo) store(obj plumbing.EncodedObject) plumbing.Hash {
	r.t.Helper()
	h, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		r.t.Fatal(err)
	}
	return h
}

// tree stores files (path → content) as nested trees.
func (r *gitRepo) tree(files map[string]string) plumbing.Hash {
	r.t.Helper()
	var entries []object.TreeEntry
	sub := map[string]map[string]string{}
	for p, content := range files {
		if first, rest, nested := strings.Cut(p, "/"); nested {
			if sub[first] == nil {
				sub[first] = map[string]string{}
			}
			sub[first][rest] = content
			continue
		}
		obj := r.repo.Storer.NewEncodedObject()
		obj.SetType(plumbing.BlobObject)
		w, _ := obj.Writer()
		_, _ = w.Write([]byte(content))
		_ = w.Close()
		entries = append(entries, object.TreeEntry{Name: p, Mode: filemode.Regular, Hash: r.store(obj)})
	}
	for name, fs := range sub {
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: r.tree(fs)})
	}
	sort.Sort(object.TreeEntrySorter(entries))
	obj := r.repo.Storer.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		r.t.Fatal(err)
	}
	return r.store(obj)
}

// commit commits files as the whole tree on main, on top of parent (zero
// for a root commit), and moves main there.
func (r *gitRepo) commit(parent plumbing.Hash, msg string, files map[string]string) plumbing.Hash {
	r.t.Helper()
	r.ticks++
	sig := object.Signature{Name: "ADR Kit", Email: "adrkit@example.invalid",
		When: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC).Add(time.Duration(r.ticks) * time.Minute)}
	c := &object.Commit{TreeHash: r.tree(files), Message: msg + "\n", Author: sig, Committer: sig}
	if !parent.IsZero() {
		c.ParentHashes = []plumbing.Hash{parent}
	}
	obj := r.repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		r.t.Fatal(err)
	}
	h := r.store(obj)
	if err := r.repo.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName("main"), h)); err != nil {
		r.t.Fatal(err)
	}
	return h
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
	srv := New(Options{Cwd: root, In: inR, Out: outW, ExtendedTools: true,
		OnError: func(err error) { t.Errorf("diagnostic: %v", err) }})
	s := &rawSession{t: t, in: inW, out: bufio.NewReaderSize(outR, 1<<20), served: make(chan error, 1)}
	go func() {
		err := srv.Serve(context.Background())
		_ = outW.Close()
		s.served <- err
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		_ = srv.Close()
	})
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

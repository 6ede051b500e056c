package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/ports"
)

// This file holds the helpers of the hostile-corpus tests
// (hostile_*_test.go): real repositories on disk, read through
// adapters/filesystem and app exactly as the server reads them.

// hostileRepo is a throw-away repository root: an empty .git directory
// (all the working-tree reader checks for) and the ADR directory.
type hostileRepo struct {
	root, adr string
}

// newHostileRepo makes a repository under a fresh temporary directory.
func newHostileRepo(t *testing.T) hostileRepo {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return makeHostileRepo(t, base)
}

// makeHostileRepo makes a repository in base/repo.
func makeHostileRepo(t *testing.T, base string) hostileRepo {
	t.Helper()
	r := hostileRepo{root: filepath.Join(base, "repo")}
	r.adr = filepath.Join(r.root, "docs", "adr")
	gittest.MakeRoot(t, r.root, nil)
	if err := os.MkdirAll(r.adr, 0o755); err != nil {
		t.Fatal(err)
	}
	return r
}

// write puts content at name inside the ADR directory.
func (r hostileRepo) write(t *testing.T, name string, content []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.adr, name), content, 0o644); err != nil {
		t.Fatal(err)
	}
}

// path is the absolute path of name inside the ADR directory.
func (r hostileRepo) path(name string) string { return filepath.Join(r.adr, name) }

// service is a Service over the repository, as the server builds it.
func (r hostileRepo) service() *app.Service {
	return app.New(filesystem.New(r.root, "docs/adr"), app.Options{})
}

// hostileRecord is a minimal schema-valid record; extra is appended to
// its frontmatter verbatim.
func hostileRecord(id, title, extra string) []byte {
	return []byte("---\nid: \"" + id + "\"\ntitle: " + title + "\nstatus: proposed\ndate: 2026-01-01\n" +
		extra + "---\n\n# " + title + "\n\nBody of " + id + ".\n")
}

// display is the display path of an ADR file name.
func adrPath(name string) string { return "docs/adr/" + name }

// hostileProject projects through s and fails the test on any error.
func hostileProject(t *testing.T, s *app.Service) *corpus.Projection {
	t.Helper()
	var p *corpus.Projection
	var err error
	notHung(t, "Project", func() { p, err = s.Project(context.Background()) })
	if err != nil {
		t.Fatalf("Project: %v", err)
	}
	checkHostileProjection(t, p)
	return p
}

// hostileUnavailable projects through s and returns the corpus-unavailable
// reason, failing the test when the projection succeeds or fails in
// another way.
func hostileUnavailable(t *testing.T, s *app.Service) corpus.UnavailableReason {
	t.Helper()
	var err error
	notHung(t, "Project", func() { _, err = s.Project(context.Background()) })
	var u *ports.UnavailableError
	if !errors.As(err, &u) {
		t.Fatalf("Project: %v, want a corpus-unavailable error", err)
	}
	return u.Reason
}

// checkHostileProjection asserts what holds for every projection: counts agree
// with the records, findings are in canonical order and never name an
// absolute path.
func checkHostileProjection(t *testing.T, p *corpus.Projection) {
	t.Helper()
	if p.RecordCount != len(p.Records) {
		t.Errorf("recordCount %d, but %d records", p.RecordCount, len(p.Records))
	}
	if !slices.IsSortedFunc(p.Findings, adr.CompareFindings) {
		t.Error("findings are not in canonical order")
	}
	for _, f := range p.Findings {
		if strings.Contains(f.Message, os.TempDir()) || strings.HasPrefix(f.Path, "/") {
			t.Errorf("finding names an absolute path: %+v", f)
		}
	}
}

// candOutcome is what became of one candidate: a record, or the rules of
// the findings that name its path (sorted, deduplicated).
type candOutcome struct {
	record bool
	rules  []string
}

// outcomes maps each display path of p to its candOutcome.
func candOutcomes(p *corpus.Projection) map[string]candOutcome {
	out := map[string]candOutcome{}
	for _, r := range p.Records {
		o := out[r.SourcePath]
		o.record = true
		out[r.SourcePath] = o
	}
	for _, f := range p.Findings {
		o := out[f.Path]
		if !slices.Contains(o.rules, f.Rule) {
			o.rules = append(o.rules, f.Rule)
			slices.Sort(o.rules)
		}
		out[f.Path] = o
	}
	return out
}

// hostileFinding returns the one finding of rule for path.
func hostileFinding(t *testing.T, p *corpus.Projection, rule, path string) adr.Finding {
	t.Helper()
	var found []adr.Finding
	for _, f := range p.Findings {
		if f.Rule == rule && f.Path == path {
			found = append(found, f)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %s findings for %s, want 1 (all findings: %+v)", len(found), rule, path, p.Findings)
	}
	return found[0]
}

// hostileCall calls tool and returns the structured answer as generic
// JSON, failing the test on an error or a refusal.
func hostileCall(t *testing.T, s *app.Service, tool, args string) map[string]any {
	t.Helper()
	var res app.Result
	var err error
	notHung(t, tool, func() { res, err = s.Call(context.Background(), tool, json.RawMessage(args)) })
	if err != nil || res.IsError {
		t.Fatalf("%s %s: err %v, refused %v: %s", tool, args, err, res.IsError, res.Text)
	}
	raw, err := json.Marshal(res.Structured)
	if err != nil {
		t.Fatalf("%s: marshal: %v", tool, err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// answerOutcome is result.candOutcome of a structured answer.
func answerOutcome(answer map[string]any) string {
	r, _ := answer["result"].(map[string]any)
	s, _ := r["outcome"].(string)
	return s
}

// hostileHangGuard bounds how long one hostile operation may take before it
// counts as hung. It is no timing assertion: every operation here
// finishes in well under a second; the guard only turns a hang (a read
// blocking on a FIFO, a loop that never ends) into a failure instead of
// a stuck test binary.
const hostileHangGuard = 2 * time.Minute

// finishes runs f and fails the test if it does not return within the
// hang guard.
func notHung(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	timer := time.NewTimer(hostileHangGuard)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		t.Fatalf("%s did not finish: it hangs", what)
	}
}

// allocated returns how many bytes f allocated on the heap. The hostile
// tests do not run in parallel, so the figure is f's own give or take a
// few kilobytes of runtime noise.
func heapAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// hookedReader wraps a CorpusReader so a test can change the tree at the
// exact point between two steps of a projection: before a candidate is
// read (after the directory was listed) and before the corpus is
// verified (after everything was read). The filesystem adapter's own
// seams are unexported; this reaches the same races from outside.
type hookedReader struct {
	inner ports.CorpusReader

	mu           sync.Mutex
	beforeRead   map[string]func() // by entry name, each run once
	beforeVerify func()            // run once, or every time when everyVerify
	everyVerify  bool
}

func (h *hookedReader) Open(ctx context.Context) (ports.ADRDir, error) {
	c, err := h.inner.Open(ctx)
	if err != nil {
		return nil, err
	}
	return &hookedCorpus{ADRDir: c, h: h}, nil
}

// onRead arranges for f to run just before name is read.
func (h *hookedReader) onRead(name string, f func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.beforeRead == nil {
		h.beforeRead = map[string]func(){}
	}
	h.beforeRead[name] = f
}

// onVerify arranges for f to run just before the corpus is verified:
// once, or before every verification when every is set.
func (h *hookedReader) onVerify(f func(), every bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.beforeVerify, h.everyVerify = f, every
}

type hookedCorpus struct {
	ports.ADRDir
	h *hookedReader
}

func (c *hookedCorpus) Read(ctx context.Context, name string, limit int64, buf []byte) ([]byte, error) {
	c.h.mu.Lock()
	f := c.h.beforeRead[name]
	delete(c.h.beforeRead, name)
	c.h.mu.Unlock()
	if f != nil {
		f()
	}
	return c.ADRDir.Read(ctx, name, limit, buf)
}

func (c *hookedCorpus) Verify(ctx context.Context) error {
	c.h.mu.Lock()
	f := c.h.beforeVerify
	if !c.h.everyVerify {
		c.h.beforeVerify = nil
	}
	c.h.mu.Unlock()
	if f != nil {
		f()
	}
	return c.ADRDir.Verify(ctx)
}

package app

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

// generatedFiles is a generated corpus of n records, large enough to be
// read on every core.
func generatedFiles(n int) []fakeFile {
	c := corpusgen.New(corpusgen.Config{N: n, Seed: 3, Broken: 0.02, Federated: 1})
	var files []fakeFile
	for _, name := range c.Names() {
		files = append(files, regular(name, string(c.Files[name])))
	}
	return files
}

// generatedReader is the corpus of generatedFiles(n).
func generatedReader(n int) *memcorpus.Reader { return corpusOf(generatedFiles(n)...) }

// sequential projects files the plain way: read in order, no cache,
// the size cap applied as every reader applies it.
func sequential(t *testing.T, files []fakeFile) *corpus.Projection {
	t.Helper()
	var cands []corpus.Candidate
	for _, f := range files {
		c := corpus.Candidate{Path: f.entry.Path, Content: f.content}
		readErr := f.readErr
		if readErr == nil && len(f.content) > corpus.MaxRecordBytes {
			readErr = &ports.ReadError{Kind: ports.ReadTooLarge}
		}
		if readErr != nil {
			c.Content = nil
			if err := exclude(&c, readErr); err != nil {
				t.Fatal(err)
			}
		}
		cands = append(cands, c)
	}
	return corpus.Build(cands, nil)
}

func sameProjection(t *testing.T, got, want *corpus.Projection) {
	t.Helper()
	if got.Fingerprint != want.Fingerprint || got.RecordCount != want.RecordCount || got.ExcludedCount != want.ExcludedCount {
		t.Fatalf("projection %s %d/%d, want %s %d/%d", got.Fingerprint, got.RecordCount, got.ExcludedCount,
			want.Fingerprint, want.RecordCount, want.ExcludedCount)
	}
	if !slices.Equal(got.Findings, want.Findings) {
		t.Fatalf("findings differ:\n%+v\n%+v", got.Findings, want.Findings)
	}
}

func TestParallelProjectionMatchesSequential(t *testing.T) {
	files := generatedFiles(400)
	files[7].readErr = &ports.ReadError{Kind: ports.ReadTooLarge}
	files[8].readErr = &ports.ReadError{Kind: ports.ReadStatFailed}
	files[9].readErr = errors.New("odd")
	got, err := New(corpusOf(files...), Options{}).Project(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sameProjection(t, got, sequential(t, files))
}

func TestParallelReadReportsFirstFailure(t *testing.T) {
	for try := range 20 {
		files := generatedFiles(300)
		files[100].readErr = unavailableErr(corpus.DirNotFound)
		files[250].readErr = unavailableErr(corpus.DirNotReadable)
		_, err := New(corpusOf(files...), Options{}).Project(context.Background())
		var u *ports.UnavailableError
		if !errors.As(err, &u) || u.Reason != corpus.DirNotFound || !strings.Contains(err.Error(), files[100].entry.Path) {
			t.Fatalf("try %d: %v, want the failure of %s", try, err, files[100].entry.Path)
		}
	}
}

func TestParallelReadCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(generatedReader(200), Options{}).Project(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Project: %v, want context.Canceled", err)
	}
}

// countingParse is the production parse, counted.
func countingParse(n *atomic.Int64) corpus.ParseFunc {
	return func(path string, content []byte) (*adr.Record, []adr.Finding) {
		n.Add(1)
		return New(nil, Options{}).parseFile(path, content)
	}
}

// TestParsesAndProjectionsAreRemembered: an unchanged corpus is the same
// projection; a changed file is the only one parsed again; a renamed one
// is parsed again under its new path; and every answer is a fresh
// Service's.
func TestParsesAndProjectionsAreRemembered(t *testing.T) {
	files := generatedFiles(120)
	r := corpusOf(files...)
	var parses atomic.Int64
	svc := New(r, Options{Parse: countingParse(&parses)})
	project := func() *corpus.Projection {
		t.Helper()
		p, err := svc.Project(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := New(r, Options{}).Project(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		sameProjection(t, p, fresh)
		return p
	}
	p1 := project()
	if p2 := project(); p2 != p1 || parses.Load() != int64(len(files)) {
		t.Fatalf("unchanged corpus: same projection %v, %d parses of %d files", p2 == p1, parses.Load(), len(files))
	}

	changed := slices.Clone(files[5].content)
	changed[len(changed)-2] ^= 1
	r.WriteFile(files[5].entry.Name, changed)
	if p3 := project(); p3 == p1 || p3.Fingerprint == p1.Fingerprint || parses.Load() != int64(len(files))+1 {
		t.Fatalf("one changed byte: new projection %v, %d parses", p3 != p1, parses.Load())
	}

	r.Remove(files[6].entry.Name)
	r.WriteFile("9999-renamed.md", files[6].content)
	p4 := project()
	if parses.Load() != int64(len(files))+2 {
		t.Fatalf("one renamed file: %d parses", parses.Load())
	}
	for _, rec := range p4.Records {
		if rec.SourcePath == files[6].entry.Path {
			t.Fatalf("renamed record kept its old path")
		}
	}
}

// TestParsesOfOldVersionsGo: parses no load has used since the change
// before the last are dropped, so a session of edits holds about one
// corpus of parses.
func TestParsesOfOldVersionsGo(t *testing.T) {
	files := generatedFiles(40)
	r := corpusOf(files...)
	svc := New(r, Options{})
	first := string(files[0].content)
	edit := func(i int) {
		first = strings.Replace(first, "\n---\n", "\n---\nedit "+string(rune('a'+i))+"\n", 1)
		r.WriteFile(files[0].entry.Name, []byte(first))
	}
	for i := range 5 {
		if _, err := svc.Project(context.Background()); err != nil {
			t.Fatal(err)
		}
		edit(i)
	}
	if _, err := svc.Project(context.Background()); err != nil {
		t.Fatal(err)
	}
	svc.memo.mu.Lock()
	n := len(svc.memo.parses)
	svc.memo.mu.Unlock()
	// The corpus, plus the edited file's previous version, kept for one
	// change.
	if n != len(files)+1 {
		t.Fatalf("%d parses kept for %d files", n, len(files))
	}
}

// flakyReader's views fail Verify with corpus-changed-during-load for
// the first fails projections.
type flakyReader struct {
	*memcorpus.Reader
	fails int
	opens atomic.Int64
}

func (f *flakyReader) Open(ctx context.Context) (ports.ADRDir, error) {
	n := f.opens.Add(1)
	v, err := f.Reader.Open(ctx)
	if err != nil || n > int64(f.fails) {
		return v, err
	}
	return changingView{v}, nil
}

type changingView struct{ ports.ADRDir }

func (changingView) Verify(context.Context) error {
	return unavailableErr(corpus.CorpusChangedDuringLoad)
}

// TestRetryOnChange: a corpus that changed while it was read is read
// again, at most loadAttempts times in all.
func TestRetryOnChange(t *testing.T) {
	for fails := range loadAttempts + 2 {
		r := &flakyReader{Reader: generatedReader(10), fails: fails}
		res, err := New(r, Options{}).Call(context.Background(), ToolListSuperseded, nil)
		if err != nil {
			t.Fatal(err)
		}
		outcome, _ := res.Structured.Result.(CorpusUnavailable)
		if fails < loadAttempts {
			if outcome.Outcome != "" || r.opens.Load() != int64(fails+1) {
				t.Errorf("%d changes: outcome %+v after %d projections", fails, outcome, r.opens.Load())
			}
			continue
		}
		if outcome.Reason != corpus.CorpusChangedDuringLoad || r.opens.Load() != loadAttempts {
			t.Errorf("%d changes: outcome %+v after %d projections, want corpus-changed-during-load after %d",
				fails, outcome, r.opens.Load(), loadAttempts)
		}
	}
}

// gatedReader holds every Open until gate is closed, counting the
// projections between Open and Verify.
type gatedReader struct {
	*memcorpus.Reader
	gate    chan struct{}
	entered chan struct{}
	opens   atomic.Int64
	inside  atomic.Int64
	most    atomic.Int64
}

func (g *gatedReader) Open(ctx context.Context) (ports.ADRDir, error) {
	g.opens.Add(1)
	n := g.inside.Add(1)
	for m := g.most.Load(); n > m && !g.most.CompareAndSwap(m, n); m = g.most.Load() {
	}
	g.entered <- struct{}{}
	<-g.gate
	v, err := g.Reader.Open(ctx)
	if err != nil {
		g.inside.Add(-1)
		return nil, err
	}
	return gatedView{v, g}, nil
}

type gatedView struct {
	ports.ADRDir
	g *gatedReader
}

func (v gatedView) Verify(ctx context.Context) error {
	v.g.inside.Add(-1)
	return v.ADRDir.Verify(ctx)
}

// TestLoadTurns: at most MaxLoads projections are read at once; a call
// waiting its turn can be cancelled without ever touching the corpus,
// and reads, once it has its turn, a corpus no older than its arrival.
func TestLoadTurns(t *testing.T) {
	files := generatedFiles(10)
	r := &gatedReader{Reader: corpusOf(files...), gate: make(chan struct{}), entered: make(chan struct{}, 16)}
	svc := New(r, Options{MaxLoads: 2})
	ctx := context.Background()
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if _, err := svc.Project(ctx); err != nil {
				t.Error(err)
			}
		})
	}
	<-r.entered
	<-r.entered

	// Both turns are taken: a third call waits, and its cancellation
	// ends the wait before it opens anything.
	waiting, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := svc.Project(waiting); !errors.Is(err, context.Canceled) || r.opens.Load() != 2 {
		t.Fatalf("a cancelled waiting call: %v, %d opens (want context.Canceled, 2)", err, r.opens.Load())
	}

	// A call that arrives after an edit, while both turns are taken,
	// sees the edit.
	r.Remove(files[0].entry.Name)
	late := make(chan *corpus.Projection, 1)
	wg.Go(func() {
		p, err := svc.Project(ctx)
		if err != nil {
			t.Error(err)
		}
		late <- p
	})
	close(r.gate)
	wg.Wait()
	if p := <-late; p == nil || p.RecordCount+p.ExcludedCount != len(files)-1 {
		t.Fatalf("the late call did not read the corpus as it was when it arrived: %+v", p)
	}
	if m := r.most.Load(); m != 2 {
		t.Fatalf("%d projections were read at once, want 2", m)
	}
}

// TestPatternMemo: a remembered compile is the compile, and the memo
// stays within its bounds.
func TestPatternMemo(t *testing.T) {
	m := newMemo()
	for i := range maxPatterns + 10 {
		p := "src/" + strings.Repeat("x", i%50) + "/" + string(rune('a'+i%26)) + "/**"
		if got, want := m.compile(adr.MatcherPath, p), affects.Compile(adr.MatcherPath, p); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: remembered %+v, fresh %+v", p, got, want)
		}
	}
	huge := strings.Repeat("h", maxPatternBytes+1)
	m.compile(adr.MatcherPackage, huge)
	if len(m.patterns) > maxPatterns || m.patternBytes > maxPatternBytes {
		t.Fatalf("the memo holds %d patterns of %d bytes", len(m.patterns), m.patternBytes)
	}
}

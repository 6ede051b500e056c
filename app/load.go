package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/internal/parallel"
	"github.com/adrkit/adrkit-go/ports"
)

// The read pipeline. Every projection, for every tool call and for lint,
// runs the same steps (docs/architecture.md has the picture):
//
//	turn → open → list → read → hash → parse (cache) → build (cache) → verify
//
// Only work that is a pure function of the bytes read is remembered
// between calls (ADR 0021, keeping ADR 0010's rule): a file's parse,
// keyed by its display path and the SHA-256 of its bytes, and the
// projection built from a set of files whose paths, hashes and exclusions
// are exactly those of the previous build. Every call still lists the directory and reads and hashes every
// candidate, so an edit between two calls is seen by the second.

// loadAttempts bounds the projections one call makes when the corpus
// keeps changing while it is read: the last failure is the answer
// (corpus-changed-during-load).
const loadAttempts = 3

// minPerWorker is the fewest candidates worth a goroutine of their own:
// small corpora are read in order on the caller's goroutine.
const minPerWorker = 32

// Sum is the SHA-256 digest of a record file's bytes.
type Sum = [sha256.Size]byte

// Project reads the corpus afresh and projects it.
//
// The error is an *ports.UnavailableError when the corpus cannot be used
// at all (root or directory invalid, listing failed, or the corpus kept
// changing while it was read); that replaces any partial result. Any
// other error is an unexpected fault (including a cancelled ctx).
func (s *Service) Project(ctx context.Context) (*corpus.Projection, error) {
	ld, err := s.load(ctx, false)
	if err != nil {
		return nil, err
	}
	return ld.proj, nil
}

// loaded is the corpus as one call read it.
type loaded struct {
	// entries is the listing of the ADR directory: its top level, or for
	// lint everything under it.
	entries []ports.Entry
	// files are the candidates among entries as read and parsed, in
	// listing order.
	files []file
	proj  *corpus.Projection
}

// file is one candidate as the pipeline read it.
type file struct {
	corpus.Candidate // without Content: the bytes are not kept
	sum              Sum
	rec              *adr.Record
	findings         []adr.Finding
	// text is, for lint, the decoded file: lint reads the lines of its
	// findings from its frontmatter.
	text string
}

// load is one call's projection. It waits for a turn (at most
// Options.MaxLoads projections read at once, so that a burst of calls
// cannot hold a corpus each), then projects, again when the corpus
// changed while it was being read, up to loadAttempts times. A call
// waiting for its turn has not read anything yet, so what it reads is
// never older than the call; its ctx ends the wait.
//
// Lint lists recursively, so that its stray-file scan and discovery
// (which only ever takes top-level files) see the same listing, and keeps
// each file's text.
func (s *Service) load(ctx context.Context, lint bool) (*loaded, error) {
	select {
	case s.turns <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting to read the corpus: %w", ctx.Err())
	}
	defer func() { <-s.turns }()
	for attempt := 1; ; attempt++ {
		ld, err := s.loadOnce(ctx, lint)
		var u *ports.UnavailableError
		if err == nil || attempt == loadAttempts || !errors.As(err, &u) || u.Reason != corpus.CorpusChangedDuringLoad {
			return ld, err
		}
	}
}

// loadOnce lists the ADR directory, reads, hashes and parses every
// candidate, projects them and checks that nothing changed meanwhile.
func (s *Service) loadOnce(ctx context.Context, lint bool) (*loaded, error) {
	view, entries, files, err := s.readAll(ctx, lint, func(f *file, data []byte) {
		s.parse(f, data)
		if lint {
			f.text = jsstring.DecodeUTF8(data)
		}
	})
	if err != nil {
		return nil, err
	}
	proj := s.memo.build(files)
	if err := view.Verify(ctx); err != nil {
		return nil, fmt.Errorf("verify corpus: %w", err)
	}
	return &loaded{entries: entries, files: files, proj: proj}, nil
}

// readAll opens the corpus, lists the ADR directory (recursively for
// lint) and reads and hashes every candidate, on every core, handing use
// the bytes of each one read: the view, the listing and the candidates as
// read.
func (s *Service) readAll(ctx context.Context, lint bool, use func(f *file, data []byte)) (ports.ADRDir, []ports.Entry, []file, error) {
	view, err := s.reader.Open(ctx)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("open corpus: %w", err)
	}
	entries, err := view.List(ctx, lint)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("list ADR directory: %w", err)
	}
	var todo []ports.Entry
	for _, e := range entries {
		if isCandidate(e) {
			todo = append(todo, e)
		}
	}
	files := make([]file, len(todo))
	errs := make([]error, len(todo))
	// One read buffer per worker, recycled from file to file: use keeps
	// a copy of what it keeps (a parse only on a cache miss).
	bufs := make([][]byte, runtime.GOMAXPROCS(0))
	parallel.For(len(todo), minPerWorker, func(w, i int) bool {
		if bufs[w] == nil {
			bufs[w] = make([]byte, 0, corpus.MaxRecordBytes+1)
		}
		data, err := s.read(ctx, view, todo[i], &files[i], bufs[w])
		if err == nil && files[i].Exclusion == corpus.NotExcluded {
			use(&files[i], data)
		}
		errs[i] = err
		return err == nil
	})
	// The first failure in listing order, whatever the timing: workers
	// take entries in order, so every entry before it was attempted.
	for _, err := range errs {
		if err != nil {
			return nil, nil, nil, err
		}
	}
	return view, entries, files, nil
}

// isCandidate reports whether a listed entry is a record candidate: a
// regular file at the top level of the ADR directory with a record's
// name. A recursive listing names nested entries with "/".
func isCandidate(e ports.Entry) bool {
	return e.Kind == ports.KindRegular && !strings.Contains(e.Name, "/") && corpus.IsCandidateName(e.Name)
}

// read reads (into buf) and hashes one candidate into f, and returns its
// bytes. A per-file failure is an exclusion, which f records (no bytes);
// only failures that concern the whole projection (an unavailable
// corpus, a cancelled call) are returned.
func (s *Service) read(ctx context.Context, view ports.ADRDir, e ports.Entry, f *file, buf []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", e.Path, err)
	}
	data, err := view.Read(ctx, e.Name, corpus.MaxRecordBytes, buf)
	f.Candidate = corpus.Candidate{Path: e.Path}
	if err != nil {
		return nil, exclude(&f.Candidate, err)
	}
	f.sum = sha256.Sum256(data)
	return data, nil
}

// parse parses the bytes read for f (remembered by path and hash).
func (s *Service) parse(f *file, data []byte) {
	f.rec, f.findings = s.memo.parse(parseKey{path: f.Path, sum: f.sum}, func() (*adr.Record, []adr.Finding) {
		return s.parseFile(f.Path, data)
	})
}

// corpusRead is the corpus as one read saw it, for a caller that may not
// need to parse it (a hook, whose answer may be kept): every candidate
// read and hashed once, its bytes kept in its Content for projectRead.
type corpusRead struct {
	view  ports.ADRDir
	files []file
}

// readKeeping reads and hashes every candidate as load does, keeping the
// bytes instead of parsing them.
func (s *Service) readKeeping(ctx context.Context) (*corpusRead, error) {
	view, _, files, err := s.readAll(ctx, false, func(f *file, data []byte) { f.Content = bytes.Clone(data) })
	if err != nil {
		return nil, err
	}
	return &corpusRead{view: view, files: files}, nil
}

// projectRead parses and projects what readAll read, as load does, and
// checks that nothing changed meanwhile: the projection of the very
// bytes read, which are not read again.
func (s *Service) projectRead(ctx context.Context, c *corpusRead) (*corpus.Projection, error) {
	parallel.For(len(c.files), minPerWorker, func(_, i int) bool {
		if f := &c.files[i]; f.Exclusion == corpus.NotExcluded {
			s.parse(f, f.Content)
		}
		return ctx.Err() == nil
	})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("parsing the corpus: %w", err)
	}
	proj := s.memo.build(c.files)
	if err := c.view.Verify(ctx); err != nil {
		return nil, fmt.Errorf("verify corpus: %w", err)
	}
	return proj, nil
}

// parseFile is the per-file pipeline: the configured parse function, or
// WHATWG decoding (no BOM stripping, no newline normalisation) and the
// frontmatter pipeline.
func (s *Service) parseFile(path string, data []byte) (*adr.Record, []adr.Finding) {
	if s.opts.Parse != nil {
		return s.opts.Parse(path, data)
	}
	return frontmatter.ParseRecord(path, jsstring.DecodeUTF8(data))
}

// exclude records why a candidate could not be read, or returns the
// failure when it concerns the whole projection.
func exclude(c *corpus.Candidate, err error) error {
	var unavailable *ports.UnavailableError
	if errors.As(err, &unavailable) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("read %s: %w", c.Path, err)
	}
	// The cause, in our own words: the source's error may name absolute
	// paths, so it is never quoted.
	c.Exclusion, c.Cause = corpus.ExcludedReadError, "reading the file failed"
	var rerr *ports.ReadError
	if !errors.As(err, &rerr) {
		return nil
	}
	switch rerr.Kind {
	case ports.ReadTooLarge:
		c.Exclusion, c.Cause = corpus.ExcludedTooLarge, ""
	case ports.ReadStatFailed:
		c.Exclusion, c.Cause = corpus.ExcludedStatError, ""
	case ports.ReadDenied:
		c.Cause = "permission to read the file was denied"
	case ports.ReadVanished:
		c.Cause = "the file disappeared before it could be read"
	}
	return nil
}

// memo is what a Service remembers between calls: only pure functions of
// what every call reads afresh (ADR 0021).
type memo struct {
	mu sync.Mutex
	// parses are the per-file pipeline's outcomes. Each remembers the
	// generation that last used it; gen moves on whenever the corpus is
	// seen to have changed, and sweep then drops the parses no load has
	// used since the change before, so that a long session of edits holds
	// about one corpus of parses.
	parses map[parseKey]*cachedParse
	gen    uint64
	// keys and proj are the last projection built and the files it was
	// built from.
	keys []fileKey
	proj *corpus.Projection
	// patterns remembers what an affects matcher's pattern alone decides
	// (affects.Compile); patternBytes is the total length of the patterns
	// it holds.
	patterns     map[adr.Matcher]affects.Compiled
	patternBytes int
	// ask is query_decision's index of the last projection asked.
	ask askCache
}

// The bounds of the pattern memo: past either it starts afresh, which
// only ever costs compiling again. A long pattern compiles to a large
// program, hence the bound on their length.
const (
	maxPatterns     = 4096
	maxPatternBytes = 1 << 20
)

// parseKey identifies a parse: the path is part of the key because
// records and findings carry it, so a renamed file is parsed again
// rather than served with its old path.
type parseKey struct {
	path string
	sum  Sum
}

type cachedParse struct {
	rec      *adr.Record
	findings []adr.Finding
	gen      uint64
}

// fileKey is everything about one candidate a projection depends on.
type fileKey struct {
	parseKey
	exclusion corpus.Exclusion
	cause     string
}

func newMemo() *memo {
	return &memo{parses: map[parseKey]*cachedParse{}, patterns: map[adr.Matcher]affects.Compiled{}}
}

// parse returns the remembered outcome for k, or runs the pipeline
// (outside the lock: files are parsed in parallel) and remembers it. Two
// loads may parse the same file at once; their outcomes are equal, and
// the one stored last stays.
func (m *memo) parse(k parseKey, run func() (*adr.Record, []adr.Finding)) (*adr.Record, []adr.Finding) {
	m.mu.Lock()
	p, ok := m.parses[k]
	if ok {
		p.gen = m.gen
	}
	m.mu.Unlock()
	if ok {
		return p.rec, p.findings
	}
	rec, findings := run()
	m.mu.Lock()
	m.parses[k] = &cachedParse{rec: rec, findings: findings, gen: m.gen}
	m.mu.Unlock()
	return rec, findings
}

// build projects files: the last projection when it was built from the
// same paths, hashes and exclusions, in the same order, otherwise
// corpus.Build over the parses the reads made.
func (m *memo) build(files []file) *corpus.Projection {
	m.mu.Lock()
	if m.proj != nil && sameFiles(m.keys, files) {
		defer m.mu.Unlock()
		return m.proj
	}
	m.mu.Unlock()

	keys := make([]fileKey, len(files))
	for i := range files {
		keys[i] = keyOf(&files[i])
	}
	byPath := make(map[string]*file, len(files))
	cands := make([]corpus.Candidate, len(files))
	for i := range files {
		byPath[files[i].Path] = &files[i]
		cands[i] = files[i].Candidate
	}
	proj := corpus.Build(cands, func(path string, _ []byte) (*adr.Record, []adr.Finding) {
		return byPath[path].rec, byPath[path].findings
	})

	m.mu.Lock()
	defer m.mu.Unlock()
	m.keys, m.proj = keys, proj
	// The corpus changed: parses unused since the change before go.
	for k, p := range m.parses {
		if p.gen+1 < m.gen {
			delete(m.parses, k)
		}
	}
	m.gen++
	return proj
}

// keyOf is what a projection depends on of f.
func keyOf(f *file) fileKey {
	return fileKey{parseKey: parseKey{path: f.Path, sum: f.sum}, exclusion: f.Exclusion, cause: f.Cause}
}

// sameFiles reports whether files have exactly keys, in order.
func sameFiles(keys []fileKey, files []file) bool {
	if len(keys) != len(files) {
		return false
	}
	for i := range files {
		if keyOf(&files[i]) != keys[i] {
			return false
		}
	}
	return true
}

// compile is affects.Compile, remembered.
func (m *memo) compile(typ adr.MatcherType, pattern string) affects.Compiled {
	k := adr.Matcher{Type: typ, Pattern: pattern}
	m.mu.Lock()
	c, ok := m.patterns[k]
	m.mu.Unlock()
	if ok {
		return c
	}
	c = affects.Compile(typ, pattern)
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.patterns) >= maxPatterns || m.patternBytes+len(pattern) > maxPatternBytes {
		clear(m.patterns)
		m.patternBytes = 0
	}
	if len(pattern) <= maxPatternBytes {
		m.patterns[k] = c
		m.patternBytes += len(pattern)
	}
	return c
}

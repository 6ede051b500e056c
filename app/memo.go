package app

import (
	"context"
	"crypto/sha256"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// memo is what a Service remembers between calls to make them cheap
// without making them stale. Every call still lists the directory and
// reads and hashes every candidate; the memo only saves work that is a
// pure function of those bytes: parsing each file (ParseCache) and, when
// every candidate's path, hash and exclusion are exactly those of the
// previous call, building the projection (invariants, sorting, the
// fingerprint), whose result is then the previous one.
type memo struct {
	parses *ParseCache

	mu   sync.Mutex
	key  []candidateKey
	last *corpus.Projection
}

// candidateKey is everything about one candidate a projection depends
// on: its bytes enter only through their hash.
type candidateKey struct {
	path      string
	sum       Sum
	exclusion corpus.Exclusion
	cause     string
}

func newMemo() *memo {
	return &memo{parses: NewParseCache(DefaultParseCacheEntries, DefaultParseCacheBytes)}
}

// lookup returns the previous projection if key is identical to its key.
func (m *memo) lookup(key []candidateKey) *corpus.Projection {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last != nil && slices.Equal(m.key, key) {
		return m.last
	}
	return nil
}

func (m *memo) store(key []candidateKey, p *corpus.Projection) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.key, m.last = key, p
}

// slot is one candidate as a worker read it: the candidate, and when the
// memo is on the hash of its bytes and, once needed, their parse.
type slot struct {
	cand     corpus.Candidate
	sum      Sum
	rec      *adr.Record
	findings []adr.Finding
	parsed   bool // rec and findings are set
	err      error
}

// minPerWorker is the fewest items worth a goroutine of their own:
// below it, starting workers costs more than it saves, so small corpora
// (and the tests' fake readers) are handled in order on the caller's
// goroutine.
const minPerWorker = 32

// forEach runs fn(i) for i in [0, n) on a bounded pool of workers (one
// per usable core), each taking the next index as it finishes one. fn
// returning false stops the pool from starting further indexes; those
// already started finish. Without workers it runs in index order.
func forEach(n int, fn func(i int) bool) {
	workers := min(runtime.GOMAXPROCS(0), n/minPerWorker)
	if workers <= 1 {
		for i := range n {
			if !fn(i) {
				return
			}
		}
		return
	}
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if !fn(i) {
					stop.Store(true)
				}
			}
		})
	}
	wg.Wait()
}

// intoReader is a corpus view that can read into the caller's buffer
// (the working-tree reader can). With the memo on, Project reads through
// it into one recycled buffer per worker and keeps a copy of the bytes only
// when they have to be parsed, so an unchanged corpus costs no garbage
// proportional to its size.
type intoReader interface {
	ReadInto(ctx context.Context, name string, limit int64, buf []byte) ([]byte, error)
}

// scratch recycles the read buffers: each holds the largest record.
var scratch = sync.Pool{New: func() any {
	b := make([]byte, 0, corpus.MaxRecordBytes+1)
	return &b
}}

// readAll reads the candidate entries in parallel (forEach). With the
// memo on, each file is hashed as soon as it is read, and its parse taken
// from the cache when the same bytes were parsed at the same path before;
// only the bytes of files still to parse are kept. Results are in entry
// order whatever the timing, and the error returned is the one of the
// first entry in that order whose failure concerns the whole projection,
// as a sequential loop would report it: workers take entries in order, so
// every entry before a failing one was attempted too.
func (s *Service) readAll(ctx context.Context, view ports.Corpus, entries []ports.Entry) ([]slot, error) {
	slots := make([]slot, len(entries))
	into, canInto := view.(intoReader)
	forEach(len(entries), func(i int) bool {
		sl, e := &slots[i], entries[i]
		if err := ctx.Err(); err != nil {
			sl.err = fmt.Errorf("read %s: %w", e.Path, err)
			return false
		}
		if s.memo == nil || !canInto {
			sl.cand, sl.err = readCandidate(ctx, view, e)
			if sl.err == nil && s.memo != nil && sl.cand.Exclusion == corpus.NotExcluded {
				sl.sum = sha256.Sum256(sl.cand.Content)
				sl.rec, sl.findings, sl.parsed = s.memo.parses.Lookup(sl.cand.Path, sl.sum)
			}
			return sl.err == nil
		}
		buf := scratch.Get().(*[]byte)
		data, err := into.ReadInto(ctx, e.Name, corpus.MaxRecordBytes, *buf)
		sl.cand, sl.err = candidateOf(e, data, err)
		if sl.err == nil && sl.cand.Exclusion == corpus.NotExcluded {
			sl.sum = sha256.Sum256(data)
			sl.rec, sl.findings, sl.parsed = s.memo.parses.Lookup(sl.cand.Path, sl.sum)
			sl.cand.Content = nil
			if !sl.parsed {
				sl.cand.Content = slices.Clone(data)
			}
		}
		if cap(data) <= corpus.MaxRecordBytes+1 {
			*buf = data[:0]
		}
		scratch.Put(buf)
		return sl.err == nil
	})
	for i := range slots {
		if slots[i].err != nil {
			return nil, slots[i].err
		}
	}
	return slots, nil
}

// build projects the slots: the previous projection when nothing it
// depends on changed, else corpus.Build over the cached parses and, in
// parallel, fresh parses of the rest. Without the memo it is corpus.Build
// with the configured parse function.
func (s *Service) build(slots []slot) *corpus.Projection {
	cands := make([]corpus.Candidate, len(slots))
	for i := range slots {
		cands[i] = slots[i].cand
	}
	if s.memo == nil {
		return corpus.Build(cands, s.opts.Parse)
	}
	key := make([]candidateKey, len(slots))
	for i := range slots {
		c := &slots[i].cand
		key[i] = candidateKey{path: c.Path, sum: slots[i].sum, exclusion: c.Exclusion, cause: c.Cause}
	}
	if p := s.memo.lookup(key); p != nil {
		return p
	}
	forEach(len(slots), func(i int) bool {
		if sl := &slots[i]; sl.cand.Exclusion == corpus.NotExcluded && !sl.parsed {
			sl.rec, sl.findings = s.memo.parses.Parse(sl.cand.Path, sl.sum, sl.cand.Content)
		}
		return true
	})
	p := corpus.Build(cands, parsedBy(slots))
	s.memo.store(key, p)
	return p
}

// parsedBy hands corpus.Build the parses the workers already made. Build
// asks in display-path order, which is the listing order in practice, so
// the next slot is tried first and a path index is built only if the
// orders ever differ.
func parsedBy(slots []slot) corpus.ParseFunc {
	next := 0
	var byPath map[string]int
	return func(path string, content []byte) (*adr.Record, []adr.Finding) {
		i := -1
		switch {
		case next < len(slots) && slots[next].cand.Path == path:
			i = next
		default:
			if byPath == nil {
				byPath = make(map[string]int, len(slots))
				for k := range slots {
					byPath[slots[k].cand.Path] = k
				}
			}
			if k, ok := byPath[path]; ok {
				i = k
			}
		}
		if i < 0 {
			// Not a slot of this call: cannot happen, but parse rather
			// than answer wrongly.
			return parseFile(path, content)
		}
		next = i + 1
		for next < len(slots) && slots[next].cand.Exclusion != corpus.NotExcluded {
			next++
		}
		return slots[i].rec, slots[i].findings
	}
}

package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/jsstring"
	"github.com/adrkit/adrkit-go/internal/parallel"
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
	// contents are the previous call's bytes of each candidate, aligned
	// with key, while the corpus is small enough to keep them
	// (keptContentBudget): a file whose bytes are those of the previous
	// call at the same position is known unchanged by comparing them,
	// several times cheaper than hashing them again, and exact. nil when
	// not kept.
	contents [][]byte
	// keepContents says whether this call should copy bytes for the next
	// one: the previous call's corpus fitted contentBudget.
	keepContents  atomic.Bool
	contentBudget int
}

// keptContentBudget bounds the bytes the memo keeps for comparison: a
// corpus of up to a few thousand typical records. A larger one is hashed
// on every call, as before, and costs no extra memory.
const keptContentBudget = 4 << 20

// previousState is what a call compares its candidates with: the keys of
// the previous projection and, when kept, the bytes behind them.
type previousState struct {
	key      []candidateKey
	contents [][]byte
}

// at returns the previous key and bytes at position i, if any.
func (p previousState) at(i int) (*candidateKey, []byte) {
	if i >= len(p.key) {
		return nil, nil
	}
	if i < len(p.contents) {
		return &p.key[i], p.contents[i]
	}
	return &p.key[i], nil
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
	return &memo{parses: NewParseCache(DefaultParseCacheEntries, DefaultParseCacheBytes), contentBudget: keptContentBudget}
}

// lookup returns the previous projection, and its key, if every slot's
// path, hash and exclusion are those of the key, in the same order.
func (m *memo) lookup(slots []slot) (*corpus.Projection, []candidateKey) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last == nil || len(m.key) != len(slots) {
		return nil, nil
	}
	for i := range slots {
		if keyOf(&slots[i]) != m.key[i] {
			return nil, nil
		}
	}
	return m.last, m.key
}

// keyOf is the key of one slot. The path is the record's own copy when
// there is a record, so that a stored key does not keep the listing it
// came from alive.
func keyOf(sl *slot) candidateKey {
	k := candidateKey{path: sl.cand.Path, sum: sl.sum, exclusion: sl.cand.Exclusion, cause: sl.cand.Cause}
	if sl.rec != nil {
		k.path = sl.rec.SourcePath
	}
	return k
}

// previous is the state of the previous call. store and remember replace
// the slices rather than change them, so they may be read without the
// lock.
func (m *memo) previous() previousState {
	m.mu.Lock()
	defer m.mu.Unlock()
	return previousState{key: m.key, contents: m.contents}
}

// keptContents is this call's bytes for the next call to compare with,
// aligned with slots, or nil when the corpus does not fit
// keptContentBudget. It also decides whether the next call copies.
func (m *memo) keptContents(slots []slot) [][]byte {
	total := 0
	for i := range slots {
		total += slots[i].size
	}
	keep := total <= m.contentBudget
	m.keepContents.Store(keep)
	if !keep {
		return nil
	}
	contents := make([][]byte, len(slots))
	for i := range slots {
		contents[i] = slots[i].content
	}
	return contents
}

// remember replaces the kept bytes when key is still the stored key (the
// one lookup matched): bytes and key must come from the same call, or a
// comparison could hand a file the hash of another version of it.
func (m *memo) remember(key []candidateKey, contents [][]byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.key) == len(key) && (len(key) == 0 || &m.key[0] == &key[0]) {
		m.contents = contents
	}
}

func (m *memo) store(key []candidateKey, p *corpus.Projection, contents [][]byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.key, m.last, m.contents = key, p, contents
}

// slot is one candidate as a worker read it: the candidate, the hash of
// its bytes when the memo is on, and its parse once made. cand.Content is
// kept only for a parse still to be made (see take).
type slot struct {
	cand corpus.Candidate
	sum  Sum
	// size is the number of bytes read; content, when the memo keeps
	// bytes, is a private copy of them (or the previous call's identical
	// copy) for the next call to compare with.
	size     int
	content  []byte
	rec      *adr.Record
	findings []adr.Finding
	parsed   bool // rec and findings are set
	// yaml is, for lint, a valid record's frontmatter text: lint reads
	// the lines of its findings from it.
	yaml string
	err  error
}

// minPerWorker is the fewest candidates worth a goroutine of their own:
// small corpora (and the tests' fake readers) are handled in order on the
// caller's goroutine.
const minPerWorker = 32

// intoReader is a corpus view that can read into the caller's buffer
// (the working-tree reader can). Workers read through it into a recycled
// buffer each and parse from there, so reading a corpus costs no garbage
// proportional to its size and its bytes are never all held at once.
type intoReader interface {
	ReadInto(ctx context.Context, name string, limit int64, buf []byte) ([]byte, error)
}

// scratch recycles the read buffers: each holds the largest record.
var scratch = sync.Pool{New: func() any {
	b := make([]byte, 0, corpus.MaxRecordBytes+1)
	return &b
}}

// readAll reads the candidate entries in parallel (parallel.For) and, with the
// memo on or for lint, parses each file on the worker that read it, as
// soon as it is read (see take). Parsing there, rather than in a second
// pass, means a cold projection holds one buffer per worker instead of
// the whole corpus, and the garbage of each parse can be collected
// while the others run.
//
// Results are in entry order whatever the timing, and the error returned
// is the one of the first entry in that order whose failure concerns the
// whole projection, as a sequential loop would report it: workers take
// entries in order, so every entry before a failing one was attempted
// too.
func (s *Service) readAll(ctx context.Context, view ports.Corpus, entries []ports.Entry, lint bool) ([]slot, error) {
	slots := make([]slot, len(entries))
	into, canInto := view.(intoReader)
	// Without the memo, Build parses later with the configured function,
	// so the bytes must outlive the buffer.
	canInto = canInto && (s.memo != nil || lint)
	var prev previousState
	if s.memo != nil {
		prev = s.memo.previous()
	}
	parallel.For(len(entries), minPerWorker, func(i int) bool {
		sl, e := &slots[i], entries[i]
		if err := ctx.Err(); err != nil {
			sl.err = fmt.Errorf("read %s: %w", e.Path, err)
			return false
		}
		if !canInto {
			sl.cand, sl.err = readCandidate(ctx, view, e)
			if sl.err == nil && sl.cand.Exclusion == corpus.NotExcluded {
				s.take(sl, sl.cand.Content, prev, i, lint)
			}
			return sl.err == nil
		}
		buf := scratch.Get().(*[]byte)
		data, err := into.ReadInto(ctx, e.Name, corpus.MaxRecordBytes, *buf)
		sl.cand, sl.err = candidateOf(e, data, err)
		if sl.err == nil && sl.cand.Exclusion == corpus.NotExcluded {
			s.take(sl, data, prev, i, lint)
			if sl.cand.Content != nil {
				// Kept for later: it must not be the recycled buffer.
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

// take deals with the bytes of a readable candidate, data (which may be a
// recycled buffer: nothing kept may refer to it). It parses them at once,
// or leaves them in sl.cand.Content for build to parse:
//
//   - for lint, always parsed (through the cache when the memo is on), and
//     a valid record's YAML text kept;
//   - without the memo, left to corpus.Build and the configured parse
//     function, as before the memo existed;
//   - with the memo, hashed and taken from the cache when the same bytes
//     were parsed at the same path before; else, when the previous
//     projection had these very bytes at this position (was), left for
//     build, which needs no parse at all if nothing else changed either
//     (the cache, being bounded, may have let go of the parse the
//     previous projection holds); else parsed.
func (s *Service) take(sl *slot, data []byte, prev previousState, i int, lint bool) {
	path := sl.cand.Path
	sl.cand.Content = nil
	sl.size = len(data)
	was, wasContent := prev.at(i)
	if s.memo != nil {
		switch {
		case was != nil && wasContent != nil && was.path == path && bytes.Equal(wasContent, data):
			// The very bytes the previous call had here: their hash too.
			sl.sum, sl.content = was.sum, wasContent
		default:
			sl.sum = sha256.Sum256(data)
			if s.memo.keepContents.Load() {
				sl.content = slices.Clone(data)
			}
		}
	}
	switch {
	case lint:
		text := borrowText(data)
		if s.memo != nil {
			sl.rec, sl.findings = s.memo.parses.parseText(path, sl.sum, len(data), text)
		} else {
			sl.rec, sl.findings = frontmatter.ParseRecord(path, text)
		}
		sl.parsed = true
		if sl.rec != nil {
			if parts, err := frontmatter.Split(text); err == nil {
				sl.yaml = strings.Clone(parts.YAML)
			}
		}
	case s.memo == nil:
		sl.cand.Content = data
	default:
		if sl.rec, sl.findings, sl.parsed = s.memo.parses.Lookup(path, sl.sum); sl.parsed {
			return
		}
		if was != nil && was.path == path && was.sum == sl.sum && was.exclusion == corpus.NotExcluded {
			sl.cand.Content = data
			return
		}
		sl.rec, sl.findings = s.memo.parses.parseText(path, sl.sum, len(data), borrowText(data))
		sl.parsed = true
	}
}

// borrowText is the WHATWG decoding of data (jsstring.DecodeUTF8): a
// copy, which the parse may keep parts of.
func borrowText(data []byte) string { return jsstring.DecodeUTF8(data) }

// build projects the slots: the previous projection when nothing it
// depends on changed, else corpus.Build over the parses the workers made
// and, in parallel, those still to make. Without the memo it is
// corpus.Build with the configured parse function (lint's own parses for
// lint).
func (s *Service) build(slots []slot, lint bool) *corpus.Projection {
	if s.memo == nil {
		if lint {
			return corpus.Build(candidates(slots), parsedBy(slots))
		}
		return corpus.Build(candidates(slots), s.opts.Parse)
	}
	if p, key := s.memo.lookup(slots); p != nil {
		s.memo.remember(key, s.memo.keptContents(slots))
		return p
	}
	parallel.For(len(slots), minPerWorker, func(i int) bool {
		if sl := &slots[i]; sl.cand.Exclusion == corpus.NotExcluded && !sl.parsed {
			sl.rec, sl.findings = s.memo.parses.Parse(sl.cand.Path, sl.sum, sl.cand.Content)
			sl.parsed = true
		}
		return true
	})
	p := corpus.Build(candidates(slots), parsedBy(slots))
	key := make([]candidateKey, len(slots))
	for i := range slots {
		key[i] = keyOf(&slots[i])
	}
	s.memo.store(key, p, s.memo.keptContents(slots))
	// The corpus changed: parses of files that are no longer as they were
	// can go (after a grace of one change).
	s.memo.parses.Sweep()
	return p
}

// candidates are the slots' candidates, for corpus.Build.
func candidates(slots []slot) []corpus.Candidate {
	cands := make([]corpus.Candidate, len(slots))
	for i := range slots {
		cands[i] = slots[i].cand
	}
	return cands
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

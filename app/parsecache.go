package app

import (
	"crypto/sha256"
	"sync"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/jsstring"
)

// Default bounds of a Service's parse cache. A corpus larger than either
// still projects correctly, only without the saving for the files that
// do not fit. Source bytes stand in for the memory a parsed record holds
// (about 1.2 times its file's size: the body, the frontmatter as JSON and
// the typed fields). These are ceilings for very large corpora; what the
// cache holds day to day is bounded by the corpus itself (see Sweep).
const (
	DefaultParseCacheEntries = 50000
	DefaultParseCacheBytes   = 256 << 20
)

// Sum is the SHA-256 digest of a record file's bytes.
type Sum = [sha256.Size]byte

// ParseCache memoises the per-file pipeline (decode, split, YAML, schema)
// in memory, keyed by the file's display path and the SHA-256 of its
// bytes, and bounded as a least-recently-used list by entry count and
// total source bytes.
//
// Freshness does not depend on the cache: the caller reads and hashes
// every file on every call, so a changed byte is a different key and is
// parsed afresh, and an unchanged file gives back exactly what parsing
// it would. The path is part of the key because the results carry it
// (sourcePath, finding paths); a renamed file is parsed again rather than
// served with its old path.
//
// Cached records and findings are shared by every projection that uses
// them and must be treated as read-only, as projections already are.
// A ParseCache is safe for concurrent use.
//
// Entries of files that changed or went away are never asked for again
// unless the old bytes come back. Sweep, run whenever the corpus is seen
// to have changed, lets go of them after one more change, so that a long
// session of edits holds about one corpus of parses, not up to the
// bounds.
type ParseCache struct {
	maxEntries int
	maxBytes   int64

	mu    sync.Mutex
	byKey map[parseKey]*parseEntry
	// lru is the sentinel of a circular list of the entries, most
	// recently used first (lru.next). The links live in the entries,
	// so that an entry is one allocation.
	lru   parseEntry
	n     int
	bytes int64
	hits  uint64
	miss  uint64
	// gen counts Sweeps; an entry remembers the gen in which it was last
	// used.
	gen uint64
}

type parseKey struct {
	path string
	sum  Sum
}

type parseEntry struct {
	key        parseKey
	size       int64
	rec        *adr.Record
	findings   []adr.Finding
	prev, next *parseEntry
	gen        uint64
}

// NewParseCache returns a cache holding at most maxEntries results whose
// sources total at most maxBytes; a bound of 0 or less disables caching.
func NewParseCache(maxEntries int, maxBytes int64) *ParseCache {
	c := &ParseCache{maxEntries: maxEntries, maxBytes: maxBytes, byKey: map[parseKey]*parseEntry{}}
	c.lru.prev, c.lru.next = &c.lru, &c.lru
	return c
}

// unlink takes e out of the list.
func (c *ParseCache) unlink(e *parseEntry) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
}

// pushFront puts e first in the list.
func (c *ParseCache) pushFront(e *parseEntry) {
	e.prev, e.next = &c.lru, c.lru.next
	c.lru.next.prev = e
	c.lru.next = e
}

// touch moves e to the front: it was just used.
func (c *ParseCache) touch(e *parseEntry) {
	e.gen = c.gen
	if c.lru.next != e {
		c.unlink(e)
		c.pushFront(e)
	}
}

// Sweep drops the entries last used before the previous Sweep: entries of
// bytes that no call has read since the corpus last changed but one. A
// caller runs it when it has just read every file of a corpus that
// changed, so what it drops are parses of files since edited, renamed or
// removed; one change of grace keeps those of a change undone at once.
func (c *ParseCache) Sweep() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for e := c.lru.prev; e != &c.lru; {
		older := e.prev
		if e.gen+1 < c.gen {
			c.remove(e)
		}
		e = older
	}
	c.gen++
}

// remove drops e from the cache.
func (c *ParseCache) remove(e *parseEntry) {
	c.unlink(e)
	delete(c.byKey, e.key)
	c.n--
	c.bytes -= e.size
}

// Parse returns the pipeline's result for content, whose SHA-256 is sum,
// at path: from the cache when the same bytes were parsed at the same
// path before, else by parsing and remembering.
func (c *ParseCache) Parse(path string, sum Sum, content []byte) (*adr.Record, []adr.Finding) {
	return c.parse(path, sum, len(content), func() (*adr.Record, []adr.Finding) { return parseFile(path, content) })
}

// parseText is Parse for a caller that has decoded the bytes (of length
// size) to text already.
func (c *ParseCache) parseText(path string, sum Sum, size int, text string) (*adr.Record, []adr.Finding) {
	return c.parse(path, sum, size, func() (*adr.Record, []adr.Finding) { return frontmatter.ParseRecord(path, text) })
}

// parse is Parse with the pipeline run by run.
func (c *ParseCache) parse(path string, sum Sum, size int, run func() (*adr.Record, []adr.Finding)) (*adr.Record, []adr.Finding) {
	k := parseKey{path: path, sum: sum}
	if c.maxEntries > 0 && c.maxBytes > 0 {
		c.mu.Lock()
		if e, ok := c.byKey[k]; ok {
			c.touch(e)
			c.hits++
			c.mu.Unlock()
			return e.rec, e.findings
		}
		c.miss++
		c.mu.Unlock()
	}
	// A parse shares no memory with the file's text (ParseRecord), so an
	// entry keeps the record and findings only; and the key takes the
	// record's copy of the path, so that it does not keep the listing's.
	rec, findings := run()
	if rec != nil {
		k.path = rec.SourcePath
	}
	c.add(&parseEntry{key: k, size: int64(size), rec: rec, findings: findings})
	return rec, findings
}

// Lookup returns the remembered parse of the bytes whose SHA-256 is sum
// at path, if any, counting it as a hit. A miss is not counted: the
// caller will Parse.
func (c *ParseCache) Lookup(path string, sum Sum) (*adr.Record, []adr.Finding, bool) {
	if c.maxEntries <= 0 || c.maxBytes <= 0 {
		return nil, nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[parseKey{path: path, sum: sum}]
	if !ok {
		return nil, nil, false
	}
	c.touch(e)
	c.hits++
	return e.rec, e.findings, true
}

// ParseFunc adapts the cache to corpus.ParseFunc for callers that do not
// hash the bytes themselves.
func (c *ParseCache) ParseFunc() corpus.ParseFunc {
	return func(path string, content []byte) (*adr.Record, []adr.Finding) {
		return c.Parse(path, sha256.Sum256(content), content)
	}
}

// Stats returns the number of hits and misses so far and the current
// number of entries.
func (c *ParseCache) Stats() (hits, misses uint64, entries int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.miss, c.n
}

// parseFile is the production pipeline, as corpus.Build runs it when no
// parse function is given: WHATWG decoding (no BOM stripping, no newline
// normalisation), then the frontmatter pipeline.
func parseFile(path string, content []byte) (*adr.Record, []adr.Finding) {
	return frontmatter.ParseRecord(path, jsstring.DecodeUTF8(content))
}

func (c *ParseCache) add(e *parseEntry) {
	if c.maxEntries <= 0 || e.size > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[e.key]; ok {
		// A concurrent call parsed the same file first.
		return
	}
	e.gen = c.gen
	c.byKey[e.key] = e
	c.pushFront(e)
	c.n++
	c.bytes += e.size
	for c.n > c.maxEntries || c.bytes > c.maxBytes {
		c.remove(c.lru.prev)
	}
}

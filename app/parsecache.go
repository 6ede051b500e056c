package app

import (
	clist "container/list"
	"crypto/sha256"
	"strings"
	"sync"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/jsstring"
)

// Default bounds of a Service's parse cache. A corpus larger than either
// still projects correctly, only without the saving for the files that
// do not fit. Source bytes stand in for the memory a parsed record holds
// (its body is a copy of most of them).
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
type ParseCache struct {
	maxEntries int
	maxBytes   int64

	mu    sync.Mutex
	byKey map[parseKey]*clist.Element
	lru   clist.List // of *parseEntry, most recently used first
	bytes int64
	hits  uint64
	miss  uint64
}

type parseKey struct {
	path string
	sum  Sum
}

type parseEntry struct {
	key      parseKey
	size     int64
	rec      *adr.Record
	findings []adr.Finding
}

// NewParseCache returns a cache holding at most maxEntries results whose
// sources total at most maxBytes; a bound of 0 or less disables caching.
func NewParseCache(maxEntries int, maxBytes int64) *ParseCache {
	return &ParseCache{maxEntries: maxEntries, maxBytes: maxBytes, byKey: map[parseKey]*clist.Element{}}
}

// Parse returns the pipeline's result for content, whose SHA-256 is sum,
// at path: from the cache when the same bytes were parsed at the same
// path before, else by parsing and remembering.
func (c *ParseCache) Parse(path string, sum Sum, content []byte) (*adr.Record, []adr.Finding) {
	k := parseKey{path: path, sum: sum}
	if c.maxEntries > 0 && c.maxBytes > 0 {
		c.mu.Lock()
		if el, ok := c.byKey[k]; ok {
			c.lru.MoveToFront(el)
			c.hits++
			e := el.Value.(*parseEntry)
			c.mu.Unlock()
			return e.rec, e.findings
		}
		c.miss++
		c.mu.Unlock()
	}
	rec, findings := parseFile(path, content)
	if rec != nil && c.maxEntries > 0 {
		// The body is a slice of the whole decoded file; a copy lets the
		// cache keep the body without the frontmatter text (which the
		// parsed values hold on their own), about a third less memory.
		rec.Body = strings.Clone(rec.Body)
	}
	c.add(&parseEntry{key: k, size: int64(len(content)), rec: rec, findings: findings})
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
	el, ok := c.byKey[parseKey{path: path, sum: sum}]
	if !ok {
		return nil, nil, false
	}
	c.lru.MoveToFront(el)
	c.hits++
	e := el.Value.(*parseEntry)
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
	return c.hits, c.miss, c.lru.Len()
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
	c.byKey[e.key] = c.lru.PushFront(e)
	c.bytes += e.size
	for c.lru.Len() > c.maxEntries || c.bytes > c.maxBytes {
		old := c.lru.Back()
		oe := old.Value.(*parseEntry)
		c.lru.Remove(old)
		delete(c.byKey, oe.key)
		c.bytes -= oe.size
	}
}

package app

import (
	"crypto/sha256"
	"fmt"
	"testing"
)

func cacheRecord(id string) []byte {
	return []byte("---\nid: \"" + id + "\"\ntitle: A decision\nstatus: proposed\ndate: 2026-01-01\n---\nBody " + id + "\n")
}

func TestParseCacheHitsAndPaths(t *testing.T) {
	c := NewParseCache(10, 1<<20)
	b := cacheRecord("0001")
	sum := sha256.Sum256(b)
	r1, f1 := c.Parse("docs/adr/0001-a.md", sum, b)
	if r1 == nil || len(f1) != 0 {
		t.Fatalf("parse: %v %v", r1, f1)
	}
	r2, _ := c.Parse("docs/adr/0001-a.md", sum, b)
	if r2 != r1 {
		t.Error("the same path and bytes were parsed again")
	}
	// The same bytes under another name are another record: its path is
	// part of what the parse returns.
	r3, _ := c.Parse("docs/adr/0001-renamed.md", sum, b)
	if r3 == r1 || r3.SourcePath != "docs/adr/0001-renamed.md" {
		t.Errorf("renamed file: %+v", r3)
	}
	if hits, misses, n := c.Stats(); hits != 1 || misses != 2 || n != 2 {
		t.Errorf("stats = %d hits, %d misses, %d entries", hits, misses, n)
	}
	// Findings carry the path too.
	bad := []byte("no fence\n")
	_, fa := c.Parse("docs/adr/0002-a.md", sha256.Sum256(bad), bad)
	_, fb := c.Parse("docs/adr/0002-b.md", sha256.Sum256(bad), bad)
	if len(fa) != 1 || len(fb) != 1 || fa[0].Path != "docs/adr/0002-a.md" || fb[0].Path != "docs/adr/0002-b.md" {
		t.Errorf("findings = %+v / %+v", fa, fb)
	}
}

func TestParseCacheBounds(t *testing.T) {
	parse := func(c *ParseCache, i int) {
		b := cacheRecord(fmt.Sprintf("%04d", i))
		c.Parse(fmt.Sprintf("docs/adr/%04d-x.md", i), sha256.Sum256(b), b)
	}
	size := int64(len(cacheRecord("0000")))

	byCount := NewParseCache(3, 1<<20)
	for i := range 5 {
		parse(byCount, i)
	}
	if _, _, n := byCount.Stats(); n != 3 {
		t.Errorf("count bound: %d entries, want 3", n)
	}
	// The least recently used went first: 0 and 1 are gone, 4 is there.
	parse(byCount, 4)
	parse(byCount, 0)
	if hits, misses, _ := byCount.Stats(); hits != 1 || misses != 6 {
		t.Errorf("after LRU eviction: %d hits, %d misses", hits, misses)
	}

	byBytes := NewParseCache(100, 2*size)
	for i := range 5 {
		parse(byBytes, i)
	}
	if _, _, n := byBytes.Stats(); n != 2 {
		t.Errorf("byte bound: %d entries, want 2", n)
	}

	// A file larger than the whole budget is parsed but not kept.
	tiny := NewParseCache(100, size-1)
	parse(tiny, 1)
	if _, _, n := tiny.Stats(); n != 0 {
		t.Errorf("oversized entry kept: %d entries", n)
	}

	off := NewParseCache(0, 0)
	parse(off, 1)
	parse(off, 1)
	if hits, _, n := off.Stats(); hits != 0 || n != 0 {
		t.Errorf("disabled cache: %d hits, %d entries", hits, n)
	}
}

func TestParseFuncMatchesDefault(t *testing.T) {
	parse := NewParseCache(10, 1<<20).ParseFunc()
	b := cacheRecord("0003")
	got, _ := parse("docs/adr/0003-x.md", b)
	want, _ := parseFile("docs/adr/0003-x.md", b)
	if got.Frontmatter.ID != want.Frontmatter.ID || got.Body != want.Body || got.SourcePath != want.SourcePath {
		t.Errorf("ParseFunc = %+v, want %+v", got, want)
	}
}

func TestParseCacheSweep(t *testing.T) {
	c := NewParseCache(100, 1<<20)
	parse := func(id string) {
		b := cacheRecord(id)
		c.Parse("docs/adr/"+id+"-x.md", sha256.Sum256(b), b)
	}
	entries := func() int { _, _, n := c.Stats(); return n }
	// One corpus of two files, read, then swept as after a change.
	parse("0001")
	parse("0002")
	c.Sweep()
	// 0002 changed to 0003: both are read again; 0002's entry is not.
	parse("0001")
	parse("0003")
	c.Sweep()
	if n := entries(); n != 3 {
		t.Fatalf("after one change: %d entries, want 3 (the old one kept for one change)", n)
	}
	// Another change: now the entry unused for two changes goes.
	parse("0001")
	parse("0004")
	c.Sweep()
	if n := entries(); n != 3 {
		t.Fatalf("after two changes: %d entries, want 3 (0001, 0003 for one more change, 0004)", n)
	}
	parse("0001")
	parse("0004")
	c.Sweep()
	if n := entries(); n != 2 {
		t.Fatalf("with nothing changed: %d entries, want 2", n)
	}
	if _, _, ok := c.Lookup("docs/adr/0002-x.md", sha256.Sum256(cacheRecord("0002"))); ok {
		t.Error("a parse unused since two changes is still there")
	}
}

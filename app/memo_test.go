package app

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
	"github.com/adrkit/adrkit-go/ports"
)

// generatedReader is a fakeReader over a generated corpus of n records,
// large enough to be read by the worker pool.
func generatedReader(n int) *fakeReader {
	c := corpusgen.New(corpusgen.Config{N: n, Seed: 3, Broken: 0.02, Federated: 1})
	r := &fakeReader{}
	for _, name := range c.Names() {
		r.files = append(r.files, regular(name, string(c.Files[name])))
	}
	return r
}

func TestParallelProjectionMatchesSequential(t *testing.T) {
	r := generatedReader(400)
	r.files[7].readErr = &ports.ReadError{Kind: ports.ReadTooLarge}
	r.files[8].readErr = &ports.ReadError{Kind: ports.ReadStatFailed}
	r.files[9].readErr = errors.New("odd")
	ctx := context.Background()
	got, err := New(r, Options{}).Project(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := New(r, Options{NoMemo: true}).Project(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Fingerprint != want.Fingerprint || got.RecordCount != want.RecordCount || got.ExcludedCount != want.ExcludedCount {
		t.Fatalf("memo %s %d/%d, sequential %s %d/%d", got.Fingerprint, got.RecordCount, got.ExcludedCount,
			want.Fingerprint, want.RecordCount, want.ExcludedCount)
	}
	if len(got.Findings) != len(want.Findings) {
		t.Fatalf("%d findings, want %d", len(got.Findings), len(want.Findings))
	}
	for i := range got.Findings {
		if got.Findings[i] != want.Findings[i] {
			t.Fatalf("finding %d: %+v, want %+v", i, got.Findings[i], want.Findings[i])
		}
	}
}

func TestParallelReadReportsFirstFailure(t *testing.T) {
	for try := range 20 {
		r := generatedReader(300)
		r.files[100].readErr = unavailableErr(corpus.CorpusChangedDuringLoad)
		r.files[250].readErr = unavailableErr(corpus.DirNotReadable)
		_, err := New(r, Options{}).Project(context.Background())
		var u *ports.UnavailableError
		if !errors.As(err, &u) || u.Reason != corpus.CorpusChangedDuringLoad || !strings.Contains(err.Error(), r.files[100].entry.Path) {
			t.Fatalf("try %d: %v, want the failure of %s", try, err, r.files[100].entry.Path)
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

func TestProjectionMemoReuse(t *testing.T) {
	r := generatedReader(120)
	svc := New(r, Options{})
	ctx := context.Background()
	p1, err := svc.Project(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := svc.Project(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if p2 != p1 {
		t.Error("an unchanged corpus was projected again")
	}
	_, misses, _ := svc.memo.parses.Stats()
	if misses != uint64(len(r.files)) {
		t.Errorf("parse cache after a reused projection: %d misses, want one per file", misses)
	}

	// One changed file: a new projection, every other parse from the cache.
	r.mu.Lock()
	r.files[5].content = append([]byte(nil), r.files[5].content...)
	r.files[5].content[len(r.files[5].content)-2] ^= 1
	r.mu.Unlock()
	p3, err := svc.Project(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if p3 == p1 || p3.Fingerprint == p1.Fingerprint {
		t.Error("a changed byte did not give a new projection")
	}
	if _, m, _ := svc.memo.parses.Stats(); m != misses+1 {
		t.Errorf("parse cache after one change: %d misses, want %d (only the changed file parsed)", m, misses+1)
	}
	fresh, err := New(r, Options{NoMemo: true}).Project(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Fingerprint != p3.Fingerprint {
		t.Error("the memoised projection differs from a fresh one")
	}
}

// TestKeptContents: on a small corpus the memo keeps each file's bytes
// and tells an unchanged file by comparing them, and a changed byte,
// at the same size, is still seen; a corpus over the budget keeps nothing.
func TestKeptContents(t *testing.T) {
	ctx := context.Background()
	r := generatedReader(120)
	svc := New(r, Options{})
	var p *corpus.Projection
	for range 3 { // the first call decides to keep, the second copies
		var err error
		if p, err = svc.Project(ctx); err != nil {
			t.Fatal(err)
		}
	}
	prev := svc.memo.previous()
	if len(prev.contents) != len(r.files) || len(prev.key) != len(r.files) {
		t.Fatalf("kept %d contents for %d keys, %d files", len(prev.contents), len(prev.key), len(r.files))
	}
	for i, c := range prev.contents {
		if !bytes.Equal(c, r.files[i].content) {
			t.Fatalf("kept bytes of %s differ from the file", r.files[i].entry.Name)
		}
	}

	// One byte changed, same size: seen, and the answer is a fresh one's.
	r.mu.Lock()
	r.files[40].content = append([]byte(nil), r.files[40].content...)
	r.files[40].content[len(r.files[40].content)-3] ^= 0x20
	r.mu.Unlock()
	p2, err := svc.Project(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := New(r, Options{NoMemo: true}).Project(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if p2.Fingerprint == p.Fingerprint || p2.Fingerprint != fresh.Fingerprint {
		t.Errorf("after a one-byte change: fingerprint %s, before %s, fresh %s", p2.Fingerprint, p.Fingerprint, fresh.Fingerprint)
	}
	if got := svc.memo.previous().contents[40]; !bytes.Equal(got, r.files[40].content) {
		t.Error("the kept bytes were not replaced by the changed file's")
	}

	// Over the budget: nothing kept, nothing copied.
	big := New(generatedReader(120), Options{})
	big.memo.contentBudget = 1000
	for range 3 {
		if _, err := big.Project(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if c := big.memo.previous().contents; c != nil || big.memo.keepContents.Load() {
		t.Errorf("over the budget: %d contents kept, copying %v", len(c), big.memo.keepContents.Load())
	}
}

// TestRememberNeedsItsOwnKey: bytes are kept only beside the key of the
// call that read them; a key stored meanwhile by another call wins.
func TestRememberNeedsItsOwnKey(t *testing.T) {
	m := newMemo()
	k1 := []candidateKey{{path: "a"}}
	m.store(k1, &corpus.Projection{}, [][]byte{[]byte("one")})
	k2 := []candidateKey{{path: "a"}}
	m.store(k2, &corpus.Projection{}, [][]byte{[]byte("two")})
	m.remember(k1, [][]byte{[]byte("stale")})
	if got := string(m.previous().contents[0]); got != "two" {
		t.Errorf("contents %q, want those stored with the current key", got)
	}
	m.remember(k2, [][]byte{[]byte("three")})
	if got := string(m.previous().contents[0]); got != "three" {
		t.Errorf("contents %q, want those remembered with the current key", got)
	}
}

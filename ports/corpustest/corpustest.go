// Package corpustest is the conformance suite every ports.CorpusReader must
// pass, in the manner of gocloud.dev's drivertest: an implementation's own
// tests supply a Harness that can materialise a small fixture in its kind
// of source, and RunConformance checks the contract of ports.go against it.
//
// The suite pins what the use cases rely on and cannot check themselves:
// listing order and kinds, display paths, the size limit of Read, that a
// symlink is never read, and that Verify accepts an untouched corpus.
// Behaviour only one source can show (permissions, races, a retargeted
// root) belongs in that source's own tests.
package corpustest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// Feature is something a fixture may ask for that not every source can
// express. A test that needs a feature the harness lacks is skipped, with
// the feature named in the reason.
type Feature uint

// Features.
const (
	// Symlinks: a symlink entry in the ADR directory (in a git tree, an
	// entry of mode 120000).
	Symlinks Feature = 1 << iota
	// SymlinkedDir: the configured ADR directory is a symlink to a real
	// directory elsewhere inside the root.
	SymlinkedDir
	// SpecialFiles: an entry that is neither a file, a directory nor a
	// symlink (a FIFO).
	SpecialFiles
)

// String names the features of f, for skip reasons.
func (f Feature) String() string {
	var names []string
	for _, n := range []struct {
		f    Feature
		name string
	}{{Symlinks, "symlink entries"}, {SymlinkedDir, "a symlinked ADR directory"}, {SpecialFiles, "special files (FIFOs)"}} {
		if f&n.f != 0 {
			names = append(names, n.name)
		}
	}
	if len(names) == 0 {
		return "no features"
	}
	return strings.Join(names, ", ")
}

// Entry is one thing a fixture puts in the ADR directory.
type Entry struct {
	// Path is relative to the ADR directory, "/"-separated. Directories
	// on the way are created as needed; every directory a fixture makes
	// holds at least one file, so a git tree can express it too.
	Path string
	// Kind is KindRegular (the zero value), KindSymlink (needs Symlinks)
	// or KindOther, a FIFO (needs SpecialFiles).
	Kind ports.EntryKind
	// Content of a regular file.
	Content []byte
	// Target of a symlink, relative to the directory holding it.
	Target string
}

// Fixture is a repository to materialise: a Git worktree root holding the
// ADR directory Dir and the given entries.
type Fixture struct {
	// Dir is the real ADR directory relative to the root, "/"-separated;
	// "" is the root itself.
	Dir string
	// DirLink, when set, is a symlink (relative to the root) to Dir, and
	// the reader is configured with DirLink rather than Dir. Needs
	// SymlinkedDir.
	DirLink string
	Entries []Entry
}

// Harness lets the suite build fixtures in the source under test.
type Harness interface {
	// Features says which optional features the source can express.
	Features() Feature
	// MakeReader materialises fx as a fresh source and returns a reader
	// configured with fx's ADR directory. It fails t if it cannot.
	MakeReader(t *testing.T, fx Fixture) ports.CorpusReader
}

// Mutator is implemented by a Harness whose source can change after it
// was opened (a working tree can; a git revision cannot). Without it the
// tests that need a change are skipped.
type Mutator interface {
	// Rewrite replaces the content of the regular file path (relative
	// to the ADR directory) in the source MakeReader built last.
	Rewrite(t *testing.T, path string, content []byte)
}

// HarnessMaker returns a fresh Harness for one test; each test
// materialises at most one fixture with it.
type HarnessMaker func(t *testing.T) Harness

// RunConformance runs the suite against the readers newHarness builds.
func RunConformance(t *testing.T, newHarness HarnessMaker) {
	tests := []struct {
		name  string
		needs Feature
		run   func(t *testing.T, h Harness)
	}{
		{"ListTopLevelSorted", 0, testListTopLevel},
		{"ListRecursive", 0, testListRecursive},
		{"DirIsRoot", 0, testDirIsRoot},
		{"DirectoryNamedLikeRecord", 0, testDirectoryNamedLikeRecord},
		{"SymlinkEntries", Symlinks, testSymlinkEntries},
		{"SymlinkedDir", SymlinkedDir, testSymlinkedDir},
		{"SpecialFiles", SpecialFiles, testSpecialFiles},
		{"ReadContent", 0, testReadContent},
		{"ReadIntoABuffer", 0, testReadIntoABuffer},
		{"ReadNotAnEntry", 0, testReadNotAnEntry},
		{"ReadLimits", 0, testReadLimits},
		{"VerifyUnchanged", 0, testVerifyUnchanged},
		{"VerifyDetectsRewrite", 0, testVerifyDetectsRewrite},
		{"OpenIsFresh", 0, testOpenIsFresh},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			if missing := tc.needs &^ h.Features(); missing != 0 {
				t.Skipf("the source cannot express %s", missing)
			}
			tc.run(t, h)
		})
	}
}

// opTimeout bounds every call into the reader: a FIFO must never block it.
const opTimeout = 10 * time.Second

// recordText is a small valid-looking record; the reader never parses it.
func recordText(id string) []byte {
	return []byte("---\nid: \"" + id + "\"\ntitle: Record " + id + "\nstatus: accepted\ndate: 2026-01-01\n---\n\nBody.\n")
}

// sortedFixture has names whose code-unit order differs from both byte
// and case-insensitive order: "Z" < "a", and U+1F600 (a surrogate pair,
// D83D...) sorts before U+FF5E although its UTF-8 bytes sort after.
func sortedFixture(dir string) Fixture {
	return Fixture{Dir: dir, Entries: []Entry{
		{Path: "README.md", Content: []byte("# Decisions\n")},
		{Path: "0001-alpha.md", Content: recordText("0001")},
		{Path: "0002-\uff5e.md", Content: recordText("0002")},
		{Path: "0001-Zeta.md", Content: recordText("0001")},
		{Path: "0002-\U0001F600.md", Content: recordText("0002")},
		{Path: "0000-template.md", Content: []byte("---\n---\n")},
		{Path: "sub/0100-nested.md", Content: recordText("0100")},
		{Path: "sub/deeper/0200-deep.md", Content: recordText("0200")},
	}}
}

func testListTopLevel(t *testing.T, h Harness) {
	fx := sortedFixture("docs/adr")
	c := open(t, h.MakeReader(t, fx))
	got := list(t, c, false)
	want := []string{"0000-template.md", "0001-Zeta.md", "0001-alpha.md", "0002-\U0001F600.md", "0002-\uff5e.md", "README.md", "sub"}
	checkNames(t, got, want)
	checkEntries(t, fx, "docs/adr/", got)
}

func testListRecursive(t *testing.T, h Harness) {
	fx := sortedFixture("docs/adr")
	c := open(t, h.MakeReader(t, fx))
	got := list(t, c, true)
	want := []string{"0000-template.md", "0001-Zeta.md", "0001-alpha.md", "0002-\U0001F600.md", "0002-\uff5e.md", "README.md",
		"sub", "sub/0100-nested.md", "sub/deeper", "sub/deeper/0200-deep.md"}
	checkNames(t, got, want)
	checkEntries(t, fx, "docs/adr/", got)
}

func testDirIsRoot(t *testing.T, h Harness) {
	fx := Fixture{Dir: "", Entries: []Entry{
		{Path: "0002-b.md", Content: recordText("0002")},
		{Path: "0001-a.md", Content: recordText("0001")},
		{Path: "docs/notes.md", Content: []byte("notes\n")},
	}}
	c := open(t, h.MakeReader(t, fx))
	got := list(t, c, false)
	// The root of a worktree may show the source's own .git entry; it is
	// the only entry a source may add.
	got = slices.DeleteFunc(got, func(e ports.Entry) bool { return e.Name == ".git" })
	checkNames(t, got, []string{"0001-a.md", "0002-b.md", "docs"})
	checkEntries(t, fx, "", got)
	b := read(t, c, "0001-a.md", corpus.MaxRecordBytes)
	if !bytes.Equal(b, recordText("0001")) {
		t.Errorf("Read(0001-a.md) = %q, want the fixture's bytes", b)
	}
}

func testDirectoryNamedLikeRecord(t *testing.T, h Harness) {
	fx := Fixture{Dir: "docs/adr", Entries: []Entry{
		{Path: "0001-a.md", Content: recordText("0001")},
		{Path: "0003-dir.md/0004-inner.md", Content: recordText("0004")},
	}}
	c := open(t, h.MakeReader(t, fx))
	got := list(t, c, false)
	checkNames(t, got, []string{"0001-a.md", "0003-dir.md"})
	checkEntries(t, fx, "docs/adr/", got)
	checkReadFails(t, c, "0003-dir.md", corpus.MaxRecordBytes, ports.ReadStatFailed)
}

func testSymlinkEntries(t *testing.T, h Harness) {
	fx := Fixture{Dir: "docs/adr", Entries: []Entry{
		{Path: "0001-a.md", Content: recordText("0001")},
		{Path: "0002-link.md", Kind: ports.KindSymlink, Target: "0001-a.md"},
		{Path: "0003-dirlink.md", Kind: ports.KindSymlink, Target: "sub"},
		{Path: "0004-dangling.md", Kind: ports.KindSymlink, Target: "0099-missing.md"},
		{Path: "sub/0100-nested.md", Content: recordText("0100")},
	}}
	c := open(t, h.MakeReader(t, fx))
	checkNames(t, list(t, c, false), []string{"0001-a.md", "0002-link.md", "0003-dirlink.md", "0004-dangling.md", "sub"})
	// A symlinked directory is an entry, never a way into more entries.
	got := list(t, c, true)
	checkNames(t, got, []string{"0001-a.md", "0002-link.md", "0003-dirlink.md", "0004-dangling.md", "sub", "sub/0100-nested.md"})
	checkEntries(t, fx, "docs/adr/", got)
	for _, name := range []string{"0002-link.md", "0003-dirlink.md", "0004-dangling.md"} {
		checkReadFails(t, c, name, corpus.MaxRecordBytes, ports.ReadStatFailed)
	}
	verify(t, c)
}

func testSymlinkedDir(t *testing.T, h Harness) {
	fx := Fixture{Dir: "real/adr", DirLink: "docs/adr", Entries: []Entry{
		{Path: "0001-a.md", Content: recordText("0001")},
		{Path: "sub/0100-nested.md", Content: recordText("0100")},
	}}
	c := open(t, h.MakeReader(t, fx))
	// Display paths follow the real directory, not the configured link.
	got := list(t, c, true)
	checkNames(t, got, []string{"0001-a.md", "sub", "sub/0100-nested.md"})
	checkEntries(t, fx, "real/adr/", got)
	read(t, c, "0001-a.md", corpus.MaxRecordBytes)
	verify(t, c)
}

func testSpecialFiles(t *testing.T, h Harness) {
	fx := Fixture{Dir: "docs/adr", Entries: []Entry{
		{Path: "0001-a.md", Content: recordText("0001")},
		{Path: "0002-fifo.md", Kind: ports.KindOther},
	}}
	c := open(t, h.MakeReader(t, fx))
	got := list(t, c, true)
	checkNames(t, got, []string{"0001-a.md", "0002-fifo.md"})
	checkEntries(t, fx, "docs/adr/", got)
	checkReadFails(t, c, "0002-fifo.md", corpus.MaxRecordBytes, ports.ReadStatFailed)
	verify(t, c)
}

func testReadContent(t *testing.T, h Harness) {
	// Bytes come back untouched: a BOM, CRLF, invalid UTF-8, NUL.
	odd := []byte("\xef\xbb\xbf---\r\nid: \"0002\"\r\n---\r\n\xe2\x82a\xff\x00\n")
	fx := Fixture{Dir: "docs/adr", Entries: []Entry{
		{Path: "0001-a.md", Content: recordText("0001")},
		{Path: "0002-odd.md", Content: odd},
		{Path: "0003-empty.md", Content: []byte{}},
	}}
	c := open(t, h.MakeReader(t, fx))
	for _, e := range fx.Entries {
		if got := read(t, c, e.Path, corpus.MaxRecordBytes); !bytes.Equal(got, e.Content) {
			t.Errorf("Read(%q) = %q, want %q", e.Path, got, e.Content)
		}
	}
	if got := read(t, c, "0003-empty.md", 0); len(got) != 0 {
		t.Errorf("Read(0003-empty.md, 0) = %q, want no bytes", got)
	}
}

// testReadIntoABuffer: a caller may hand Read a buffer to recycle, of any
// size and holding anything: the result is the file's bytes, whatever
// buf held, and reading the next file into the same buffer changes
// nothing that was meant to be copied first.
func testReadIntoABuffer(t *testing.T, h Harness) {
	long := bytes.Repeat([]byte("long line of a record\n"), 300)
	fx := Fixture{Dir: "docs/adr", Entries: []Entry{
		{Path: "0001-a.md", Content: recordText("0001")},
		{Path: "0002-long.md", Content: long},
		{Path: "0003-empty.md", Content: []byte{}},
	}}
	c := open(t, h.MakeReader(t, fx))
	for _, buf := range [][]byte{nil, make([]byte, 0, 4), bytes.Repeat([]byte{0xff}, corpus.MaxRecordBytes+1)[:0]} {
		for _, e := range fx.Entries {
			res := call(t, func() result[[]byte] {
				b, err := c.Read(context.Background(), e.Path, corpus.MaxRecordBytes, buf)
				return result[[]byte]{b, err}
			})
			if res.err != nil || !bytes.Equal(res.v, e.Content) {
				t.Fatalf("Read(%q) into a buffer of %d: %q %v, want %d bytes", e.Path, cap(buf), res.v, res.err, len(e.Content))
			}
			buf = res.v[:0]
		}
	}
}

func testReadNotAnEntry(t *testing.T, h Harness) {
	fx := Fixture{Dir: "docs/adr", Entries: []Entry{
		{Path: "0001-a.md", Content: recordText("0001")},
		{Path: "sub/0100-nested.md", Content: recordText("0100")},
	}}
	c := open(t, h.MakeReader(t, fx))
	for _, name := range []string{"0099-missing.md", "sub/0100-nested.md", "sub", "", ".", "..", "../adr/0001-a.md"} {
		checkReadFails(t, c, name, corpus.MaxRecordBytes, ports.ReadStatFailed)
	}
}

func testReadLimits(t *testing.T, h Harness) {
	const maxBytes = corpus.MaxRecordBytes
	exact := bytes.Repeat([]byte("x"), maxBytes)
	over := bytes.Repeat([]byte("y"), maxBytes+1)
	hundred := bytes.Repeat([]byte("z"), 100)
	fx := Fixture{Dir: "docs/adr", Entries: []Entry{
		{Path: "0001-exact.md", Content: exact},
		{Path: "0002-over.md", Content: over},
		{Path: "0003-hundred.md", Content: hundred},
	}}
	c := open(t, h.MakeReader(t, fx))
	for _, tc := range []struct {
		name  string
		limit int64
		want  []byte // nil: ReadTooLarge
	}{
		{"0001-exact.md", maxBytes, exact},
		{"0002-over.md", maxBytes, nil},
		{"0003-hundred.md", 100, hundred},
		{"0003-hundred.md", 99, nil},
		{"0003-hundred.md", 0, nil},
		{"0001-exact.md", maxBytes - 1, nil},
	} {
		if tc.want == nil {
			checkReadFails(t, c, tc.name, tc.limit, ports.ReadTooLarge)
			continue
		}
		if got := read(t, c, tc.name, tc.limit); !bytes.Equal(got, tc.want) {
			t.Errorf("Read(%q, %d) returned %d bytes, want %d", tc.name, tc.limit, len(got), len(tc.want))
		}
	}
	// An excluded record is not part of what Verify checks.
	verify(t, c)
}

func testVerifyUnchanged(t *testing.T, h Harness) {
	fx := sortedFixture("docs/adr")
	r := h.MakeReader(t, fx)
	c := open(t, r)
	verify(t, c) // nothing read yet
	for _, e := range list(t, c, false) {
		if e.Kind == ports.KindRegular {
			read(t, c, e.Name, corpus.MaxRecordBytes)
		}
	}
	verify(t, c)
	verify(t, c) // Verify has no side effect on a later Verify
	// A second projection is independent of the first.
	c2 := open(t, r)
	read(t, c2, "0001-alpha.md", corpus.MaxRecordBytes)
	verify(t, c2)
	verify(t, c)
}

func testVerifyDetectsRewrite(t *testing.T, h Harness) {
	m, ok := h.(Mutator)
	if !ok {
		t.Skip("the source cannot change after it is opened (no Mutator)")
	}
	fx := Fixture{Dir: "docs/adr", Entries: []Entry{
		{Path: "0001-a.md", Content: recordText("0001")},
		{Path: "0002-b.md", Content: recordText("0002")},
	}}
	c := open(t, h.MakeReader(t, fx))
	read(t, c, "0001-a.md", corpus.MaxRecordBytes)
	m.Rewrite(t, "0002-b.md", recordText("0002-unread"))
	verify(t, c) // a record that was not read is not checked
	m.Rewrite(t, "0001-a.md", append(recordText("0001"), "More.\n"...))
	err := call(t, func() error { return c.Verify(context.Background()) })
	checkUnavailable(t, err, corpus.CorpusChangedDuringLoad)
}

func testOpenIsFresh(t *testing.T, h Harness) {
	m, ok := h.(Mutator)
	if !ok {
		t.Skip("the source cannot change after it is opened (no Mutator)")
	}
	fx := Fixture{Dir: "docs/adr", Entries: []Entry{{Path: "0001-a.md", Content: recordText("0001")}}}
	r := h.MakeReader(t, fx)
	read(t, open(t, r), "0001-a.md", corpus.MaxRecordBytes)
	next := append(recordText("0001"), "Edited.\n"...)
	m.Rewrite(t, "0001-a.md", next)
	c := open(t, r)
	if got := read(t, c, "0001-a.md", corpus.MaxRecordBytes); !bytes.Equal(got, next) {
		t.Errorf("after a rewrite, a new Open reads %q, want %q", got, next)
	}
	verify(t, c)
}

// call runs f with a deadline, so that a reader blocking on a FIFO fails
// the test instead of hanging it.
func call[T any](t *testing.T, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(opTimeout):
		t.Fatalf("the reader did not answer within %v (blocked?)", opTimeout)
		var zero T
		return zero
	}
}

type result[T any] struct {
	v   T
	err error
}

func open(t *testing.T, r ports.CorpusReader) ports.ADRDir {
	t.Helper()
	res := call(t, func() result[ports.ADRDir] {
		c, err := r.Open(context.Background())
		return result[ports.ADRDir]{c, err}
	})
	if res.err != nil {
		t.Fatalf("Open: %v", res.err)
	}
	return res.v
}

func list(t *testing.T, c ports.ADRDir, recursive bool) []ports.Entry {
	t.Helper()
	res := call(t, func() result[[]ports.Entry] {
		es, err := c.List(context.Background(), recursive)
		return result[[]ports.Entry]{es, err}
	})
	if res.err != nil {
		t.Fatalf("List(recursive=%v): %v", recursive, res.err)
	}
	return res.v
}

func read(t *testing.T, c ports.ADRDir, name string, limit int64) []byte {
	t.Helper()
	res := call(t, func() result[[]byte] {
		b, err := c.Read(context.Background(), name, limit, nil)
		return result[[]byte]{b, err}
	})
	if res.err != nil {
		t.Fatalf("Read(%q, %d): %v", name, limit, res.err)
	}
	if int64(len(res.v)) > limit {
		t.Fatalf("Read(%q, %d) returned %d bytes, more than the limit", name, limit, len(res.v))
	}
	return res.v
}

func verify(t *testing.T, c ports.ADRDir) {
	t.Helper()
	if err := call(t, func() error { return c.Verify(context.Background()) }); err != nil {
		t.Fatalf("Verify of an unchanged corpus: %v", err)
	}
}

// checkReadFails requires Read(name, lim) to fail with a *ports.ReadError
// of kind want and no bytes.
func checkReadFails(t *testing.T, c ports.ADRDir, name string, lim int64, want ports.ReadErrorKind) {
	t.Helper()
	res := call(t, func() result[[]byte] {
		b, err := c.Read(context.Background(), name, lim, nil)
		return result[[]byte]{b, err}
	})
	var re *ports.ReadError
	switch {
	case res.err == nil:
		t.Errorf("Read(%q, %d) = %d bytes, want a %s error", name, lim, len(res.v), kindName(want))
	case !errors.As(res.err, &re):
		t.Errorf("Read(%q, %d) error %v (%T) is not a *ports.ReadError", name, lim, res.err, res.err)
	case re.Kind != want:
		t.Errorf("Read(%q, %d) failed with %s (%v), want %s", name, lim, kindName(re.Kind), res.err, kindName(want))
	case res.v != nil:
		t.Errorf("Read(%q, %d) failed but returned %d bytes", name, lim, len(res.v))
	}
}

// ReasonOf returns the reason of an *ports.UnavailableError, "" for nil,
// and fails t for any other error: what a reader's own tests compare.
func ReasonOf(t testing.TB, err error) corpus.UnavailableReason {
	t.Helper()
	if err == nil {
		return ""
	}
	var ue *ports.UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("error %v (%T) is not a *ports.UnavailableError", err, err)
	}
	return ue.Reason
}

func checkUnavailable(t *testing.T, err error, want corpus.UnavailableReason) {
	t.Helper()
	if got := ReasonOf(t, err); got != want {
		t.Errorf("reason %s (%v), want %s", got, err, want)
	}
}

func checkNames(t *testing.T, got []ports.Entry, want []string) {
	t.Helper()
	names := make([]string, len(got))
	for i, e := range got {
		names[i] = e.Name
	}
	if !slices.Equal(names, want) {
		t.Errorf("List names\n got %q\nwant %q", names, want)
	}
}

// checkEntries checks each listed entry against the fixture: display path
// (prefix + name), kind, and the size of a regular file.
func checkEntries(t *testing.T, fx Fixture, prefix string, got []ports.Entry) {
	t.Helper()
	byPath := map[string]Entry{}
	dirs := map[string]bool{}
	for _, e := range fx.Entries {
		byPath[e.Path] = e
		for d := e.Path; strings.Contains(d, "/"); {
			d = d[:strings.LastIndex(d, "/")]
			dirs[d] = true
		}
	}
	for _, e := range got {
		if e.Path != prefix+e.Name {
			t.Errorf("entry %q: Path %q, want %q", e.Name, e.Path, prefix+e.Name)
		}
		fe, known := byPath[e.Name]
		switch {
		case known:
			if e.Kind != fe.Kind {
				t.Errorf("entry %q: Kind %s, want %s", e.Name, kindString(e.Kind), kindString(fe.Kind))
			}
		case dirs[e.Name]:
			if e.Kind != ports.KindDirectory {
				t.Errorf("entry %q: Kind %s, want directory", e.Name, kindString(e.Kind))
			}
		default:
			t.Errorf("entry %q is not in the fixture", e.Name)
		}
	}
}

func kindString(k ports.EntryKind) string {
	switch k {
	case ports.KindRegular:
		return "regular"
	case ports.KindSymlink:
		return "symlink"
	case ports.KindDirectory:
		return "directory"
	case ports.KindOther:
		return "other"
	}
	return fmt.Sprintf("EntryKind(%d)", int(k))
}

func kindName(k ports.ReadErrorKind) string {
	switch k {
	case ports.ReadTooLarge:
		return "ReadTooLarge"
	case ports.ReadStatFailed:
		return "ReadStatFailed"
	case ports.ReadFailed:
		return "ReadFailed"
	}
	return fmt.Sprintf("ReadErrorKind(%d)", int(k))
}

package filesystem

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/fifotest"
	"github.com/adrkit/adrkit-go/internal/linktest"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/corpustest"
)

// listing is the comparable form of an entry for these tests.
type listing struct {
	Name, Path string
	Kind       ports.EntryKind
}

func TestList(t *testing.T) { eachDriver(t, testList) }

func testList(t *testing.T) {
	// build makes the tree every case lists: a record, its symlinked
	// twin, a directory and a FIFO named like records, a dangling
	// symlink, a symlink to a directory and nested files. The links and
	// the FIFO are left out (of the tree and of what is listed) where the
	// system cannot make them, so that the rest is listed on every system.
	links, fifos := linktest.Supported(), fifotest.Supported()
	build := func(t *testing.T, adr string) {
		copyRecords(t, adr)
		if links {
			symlink(t, rec1, filepath.Join(adr, "0003-symlinked.md"))
			symlink(t, "0099-missing.md", filepath.Join(adr, "0007-dangling.md"))
			symlink(t, "sub", filepath.Join(adr, "0008-dirlink.md"))
		}
		write(t, filepath.Join(adr, "0004-dir.md", "0005-inside.md"), []byte("inside\n"))
		if fifos {
			mkfifo(t, filepath.Join(adr, "0006-fifo.md"))
		}
		write(t, filepath.Join(adr, "sub", "0100-nested.md"), []byte("nested\n"))
		write(t, filepath.Join(adr, "sub", "deeper", "0200-deep.md"), []byte("deep\n"))
		write(t, filepath.Join(adr, "README.md"), []byte("# Decisions\n"))
	}
	top := func(prefix string) []listing {
		l := []listing{
			{rec1, prefix + rec1, ports.KindRegular},
			{rec2, prefix + rec2, ports.KindRegular},
			{"0003-symlinked.md", prefix + "0003-symlinked.md", ports.KindSymlink},
			{"0004-dir.md", prefix + "0004-dir.md", ports.KindDirectory},
			{"0006-fifo.md", prefix + "0006-fifo.md", ports.KindOther},
			{"0007-dangling.md", prefix + "0007-dangling.md", ports.KindSymlink},
			{"0008-dirlink.md", prefix + "0008-dirlink.md", ports.KindSymlink},
			{"README.md", prefix + "README.md", ports.KindRegular},
			{"sub", prefix + "sub", ports.KindDirectory},
		}
		return slices.DeleteFunc(l, func(e listing) bool {
			return e.Kind == ports.KindSymlink && !links || e.Kind == ports.KindOther && !fifos
		})
	}
	all := func(prefix string) []listing {
		l := top(prefix)
		at := slices.IndexFunc(l, func(e listing) bool { return e.Name == "0004-dir.md" }) + 1
		l = slices.Insert(l, at, listing{"0004-dir.md/0005-inside.md", prefix + "0004-dir.md/0005-inside.md", ports.KindRegular})
		return append(l,
			listing{"sub/0100-nested.md", prefix + "sub/0100-nested.md", ports.KindRegular},
			listing{"sub/deeper", prefix + "sub/deeper", ports.KindDirectory},
			listing{"sub/deeper/0200-deep.md", prefix + "sub/deeper/0200-deep.md", ports.KindRegular},
		)
	}
	tests := []struct {
		name      string
		setup     func(t *testing.T, root string) (dir string)
		recursive bool
		want      []listing
	}{
		{"top level", func(t *testing.T, root string) string {
			build(t, filepath.Join(root, "docs", "adr"))
			return "docs/adr"
		}, false, top("docs/adr/")},
		{"recursive, never through a symlink", func(t *testing.T, root string) string {
			build(t, filepath.Join(root, "docs", "adr"))
			return "docs/adr"
		}, true, all("docs/adr/")},
		{"through a symlinked dir: paths of the real dir", func(t *testing.T, root string) string {
			build(t, filepath.Join(root, "real", "adr"))
			symlink(t, "../real/adr", filepath.Join(root, "docs", "adr"))
			return "docs/adr"
		}, true, all("real/adr/")},
		{"dir is the root: bare names", func(t *testing.T, root string) string {
			build(t, root)
			return ""
		}, false, append(
			[]listing{{".git", ".git", ports.KindDirectory}},
			top("")...)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(base(t), "repo")
			mkdir(t, filepath.Join(root, ".git"))
			r := New(root, tc.setup(t, root))
			c := openView(t, r)
			var got []ports.Entry
			var err error
			noBlock(t, "List", func() { got, err = c.List(context.Background(), tc.recursive) })
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			var gotL []listing
			for _, e := range got {
				gotL = append(gotL, listing{e.Name, e.Path, e.Kind})
			}
			if !slices.Equal(gotL, tc.want) {
				t.Errorf("List\n got %v\nwant %v", gotL, tc.want)
			}
		})
	}
}

func TestListOrderIsCodeUnits(t *testing.T) { eachDriver(t, testListOrderIsCodeUnits) }

func testListOrderIsCodeUnits(t *testing.T) {
	root := newRoot(t, base(t), "repo")
	adr := filepath.Join(root, "docs", "adr")
	remove(t, adr)
	// Byte order would put U+FF5E before U+1F600; UTF-16 order is the
	// reverse (D83D < FF5E). "Z" sorts before "a".
	names := []string{"0001-alpha.md", "0002-\uff5e.md", "0001-Zeta.md", "0002-\U0001F600.md"}
	for _, n := range names {
		write(t, filepath.Join(adr, n), []byte("x\n"))
	}
	es, err := openView(t, New(root, "docs/adr")).List(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Name)
	}
	want := []string{"0001-Zeta.md", "0001-alpha.md", "0002-\U0001F600.md", "0002-\uff5e.md"}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

func TestListFailures(t *testing.T) { eachDriver(t, testListFailures) }

func testListFailures(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, root string)
		want   corpus.UnavailableReason
	}{
		{"dir removed", func(t *testing.T, root string) { remove(t, filepath.Join(root, "docs", "adr")) }, corpus.DirNotFound},
		{"dir renamed away", func(t *testing.T, root string) {
			rename(t, filepath.Join(root, "docs", "adr"), filepath.Join(root, "docs", "adr-moved"))
		}, corpus.DirNotFound},
		{"dir replaced by a file", func(t *testing.T, root string) {
			rename(t, filepath.Join(root, "docs", "adr"), filepath.Join(root, "docs", "adr-moved"))
			write(t, filepath.Join(root, "docs", "adr"), []byte("not a directory\n"))
		}, corpus.DirNotReadable},
		{"dir replaced by a FIFO", func(t *testing.T, root string) {
			rename(t, filepath.Join(root, "docs", "adr"), filepath.Join(root, "docs", "adr-moved"))
			mkfifo(t, filepath.Join(root, "docs", "adr"))
		}, corpus.DirNotReadable},
		{"dir replaced by a symlink", func(t *testing.T, root string) {
			rename(t, filepath.Join(root, "docs", "adr"), filepath.Join(root, "docs", "adr-moved"))
			symlink(t, "adr-moved", filepath.Join(root, "docs", "adr"))
		}, corpus.DirNotReadable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := newRoot(t, base(t), "repo")
			c := openView(t, New(root, "docs/adr"))
			tc.change(t, root)
			var err error
			noBlock(t, "List", func() { _, err = c.List(context.Background(), false) })
			if got := corpustest.ReasonOf(t, err); got != tc.want {
				t.Errorf("List: reason %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}

func TestListUnreadableSubdirectory(t *testing.T) { eachDriver(t, testListUnreadableSubdirectory) }

func testListUnreadableSubdirectory(t *testing.T) {
	skipIfRoot(t)
	root := newRoot(t, base(t), "repo")
	adr := filepath.Join(root, "docs", "adr")
	write(t, filepath.Join(adr, "locked", "0100-x.md"), []byte("x\n"))
	chmod(t, filepath.Join(adr, "locked"), 0o000)
	es, err := openView(t, New(root, "docs/adr")).List(context.Background(), true)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name)
	}
	if want := []string{rec1, rec2, "locked"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
}

func TestRead(t *testing.T) { eachDriver(t, testRead) }

func testRead(t *testing.T) {
	const maxBytes = corpus.MaxRecordBytes
	tests := []struct {
		name string
		// setup prepares adr (the ADR directory) after List and before
		// Read, and returns the name to read.
		setup func(t *testing.T, adr string) string
		// beforeOpen, when set, runs between the guard and the open.
		beforeOpen func(t *testing.T, path string)
		limit      int64
		wantKind   ports.ReadErrorKind // -1: success
		want       []byte              // on success
	}{
		{"record", func(t *testing.T, adr string) string { return rec1 }, nil, maxBytes, -1, nil},
		{"exactly 64 KiB", func(t *testing.T, adr string) string {
			write(t, filepath.Join(adr, "0010-exact.md"), bytes.Repeat([]byte("x"), maxBytes))
			return "0010-exact.md"
		}, nil, maxBytes, -1, bytes.Repeat([]byte("x"), maxBytes)},
		{"one byte too large, from its size", func(t *testing.T, adr string) string {
			write(t, filepath.Join(adr, "0010-over.md"), bytes.Repeat([]byte("x"), maxBytes+1))
			return "0010-over.md"
		}, nil, maxBytes, ports.ReadTooLarge, nil},
		{"empty", func(t *testing.T, adr string) string {
			write(t, filepath.Join(adr, "0010-empty.md"), nil)
			return "0010-empty.md"
		}, nil, maxBytes, -1, []byte{}},
		{"vanished after List", func(t *testing.T, adr string) string {
			remove(t, filepath.Join(adr, rec1))
			return rec1
		}, nil, maxBytes, ports.ReadStatFailed, nil},
		{"replaced by a symlink after List", func(t *testing.T, adr string) string {
			remove(t, filepath.Join(adr, rec1))
			symlink(t, rec2, filepath.Join(adr, rec1))
			return rec1
		}, nil, maxBytes, ports.ReadStatFailed, nil},
		{"replaced by a directory after List", func(t *testing.T, adr string) string {
			remove(t, filepath.Join(adr, rec1))
			mkdir(t, filepath.Join(adr, rec1))
			return rec1
		}, nil, maxBytes, ports.ReadStatFailed, nil},
		{"FIFO renamed to a record name after List", func(t *testing.T, adr string) string {
			mkfifo(t, filepath.Join(adr, "fifo"))
			rename(t, filepath.Join(adr, "fifo"), filepath.Join(adr, rec1))
			return rec1
		}, nil, maxBytes, ports.ReadStatFailed, nil},
		{"not a top-level name", func(t *testing.T, adr string) string {
			write(t, filepath.Join(adr, "sub", "0100-nested.md"), []byte("x\n"))
			return "sub/0100-nested.md"
		}, nil, maxBytes, ports.ReadStatFailed, nil},
		{"escaping name", func(t *testing.T, adr string) string { return "../adr/" + rec1 }, nil, maxBytes, ports.ReadStatFailed, nil},
		{"dot-dot", func(t *testing.T, adr string) string { return ".." }, nil, maxBytes, ports.ReadStatFailed, nil},
		{"grows past the limit during the read", func(t *testing.T, adr string) string { return rec1 },
			func(t *testing.T, p string) { appendTo(t, p, bytes.Repeat([]byte("y"), 1000)) },
			300, ports.ReadTooLarge, nil},
		{"grows within the limit during the read", func(t *testing.T, adr string) string { return rec1 },
			func(t *testing.T, p string) { appendTo(t, p, []byte("more\n")) },
			maxBytes, -1, append(readTestdata(t, rec1), "more\n"...)},
		{"symlink swapped in after the guard", func(t *testing.T, adr string) string {
			// Skipped here, where it can be: beforeOpen runs off the
			// test's goroutine.
			linktest.Require(t)
			return rec1
		},
			func(t *testing.T, p string) {
				remove(t, p)
				symlink(t, rec2, p)
			}, maxBytes, ports.ReadStatFailed, nil},
		{"FIFO swapped in after the guard: opened without blocking, rejected", func(t *testing.T, adr string) string {
			// Skipped here, where it can be: beforeOpen runs off the
			// test's goroutine.
			fifotest.Require(t)
			return rec1
		},
			func(t *testing.T, p string) {
				remove(t, p)
				mkfifo(t, p)
			}, maxBytes, ports.ReadStatFailed, nil},
		{"another file renamed over it after the guard", func(t *testing.T, adr string) string { return rec1 },
			func(t *testing.T, p string) {
				write(t, p+".new", readTestdata(t, rec1))
				rename(t, p+".new", p)
			}, maxBytes, ports.ReadStatFailed, nil},
		{"removed after the guard: the open fails", func(t *testing.T, adr string) string { return rec1 },
			func(t *testing.T, p string) { remove(t, p) }, maxBytes, ports.ReadVanished, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := newRoot(t, base(t), "repo")
			adr := filepath.Join(root, "docs", "adr")
			r := New(root, "docs/adr")
			if tc.beforeOpen != nil {
				r.beforeOpen = func(p string) { tc.beforeOpen(t, p) }
			}
			c := openView(t, r)
			if _, err := c.List(context.Background(), false); err != nil {
				t.Fatal(err)
			}
			name := tc.setup(t, adr)
			var got []byte
			var err error
			noBlock(t, "Read", func() { got, err = c.Read(context.Background(), name, tc.limit, nil) })
			if k := readKindOf(t, err); k != tc.wantKind {
				t.Fatalf("Read(%q): kind %d (%v), want %d", name, k, err, tc.wantKind)
			}
			if tc.wantKind != -1 {
				if got != nil {
					t.Errorf("Read failed but returned %d bytes", len(got))
				}
				// A read error may become a finding message: no absolute path.
				if re := (*ports.ReadError)(nil); errors.As(err, &re) && re.Err != nil && strings.Contains(re.Err.Error(), root) {
					t.Errorf("error %q holds an absolute path", re.Err)
				}
				return
			}
			want := tc.want
			if want == nil {
				want = readTestdata(t, name)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Read(%q) = %d bytes, want %d", name, len(got), len(want))
			}
		})
	}
}

func TestReadTooLargeNeverOpened(t *testing.T) { eachDriver(t, testReadTooLargeNeverOpened) }

func testReadTooLargeNeverOpened(t *testing.T) {
	// The size cap is a pre-read guard: an oversized record is refused
	// from its stat alone, never opened (the read limit only catches a
	// file that grows after the guard).
	root := newRoot(t, base(t), "repo")
	write(t, filepath.Join(root, "docs", "adr", "0010-over.md"), bytes.Repeat([]byte("x"), corpus.MaxRecordBytes+1))
	r := New(root, "docs/adr")
	opened := false
	r.beforeOpen = func(string) { opened = true }
	_, err := openView(t, r).Read(context.Background(), "0010-over.md", corpus.MaxRecordBytes, nil)
	if k := readKindOf(t, err); k != ports.ReadTooLarge {
		t.Errorf("Read: kind %d (%v), want ReadTooLarge", k, err)
	}
	if opened {
		t.Error("an oversized record was opened")
	}
}

func TestReadUnreadable(t *testing.T) { eachDriver(t, testReadUnreadable) }

func testReadUnreadable(t *testing.T) {
	skipIfRoot(t)
	root := newRoot(t, base(t), "repo")
	chmod(t, filepath.Join(root, "docs", "adr", rec1), 0o000)
	_, err := openView(t, New(root, "docs/adr")).Read(context.Background(), rec1, corpus.MaxRecordBytes, nil)
	if k := readKindOf(t, err); k != ports.ReadDenied {
		t.Errorf("Read: kind %d (%v), want ReadDenied", k, err)
	}
}

func TestReadHonoursContext(t *testing.T) { eachDriver(t, testReadHonoursContext) }

func testReadHonoursContext(t *testing.T) {
	c := openView(t, New(newRoot(t, base(t), "repo"), "docs/adr"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Read(ctx, rec1, corpus.MaxRecordBytes, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Read: %v, want context.Canceled", err)
	}
	if _, err := c.List(ctx, false); !errors.Is(err, context.Canceled) {
		t.Errorf("List: %v, want context.Canceled", err)
	}
	if err := c.Verify(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Verify: %v, want context.Canceled", err)
	}
}

func TestVerify(t *testing.T) { eachDriver(t, testVerify) }

func testVerify(t *testing.T) {
	past := time.Date(2020, 1, 2, 3, 4, 5, 6, time.UTC)
	tests := []struct {
		name string
		// change alters the tree after both records were read; root is
		// the repository root, adr the ADR directory.
		change func(t *testing.T, root, adr string)
		want   corpus.UnavailableReason
	}{
		{"unchanged", func(t *testing.T, root, adr string) {}, ""},
		{"rewritten, same size", func(t *testing.T, root, adr string) {
			b := readTestdata(t, rec1)
			b[len(b)-2] = '!'
			write(t, filepath.Join(adr, rec1), b)
			touch(t, filepath.Join(adr, rec1), past)
		}, corpus.CorpusChangedDuringLoad},
		{"touched", func(t *testing.T, root, adr string) { touch(t, filepath.Join(adr, rec1), past) }, corpus.CorpusChangedDuringLoad},
		{"grown", func(t *testing.T, root, adr string) { appendTo(t, filepath.Join(adr, rec2), []byte("more\n")) }, corpus.CorpusChangedDuringLoad},
		{"grown past the cap", func(t *testing.T, root, adr string) {
			appendTo(t, filepath.Join(adr, rec2), bytes.Repeat([]byte("y"), corpus.MaxRecordBytes))
		}, corpus.CorpusChangedDuringLoad},
		{"removed", func(t *testing.T, root, adr string) { remove(t, filepath.Join(adr, rec1)) }, corpus.CorpusChangedDuringLoad},
		{"replaced by a symlink to its own copy", func(t *testing.T, root, adr string) {
			rename(t, filepath.Join(adr, rec1), filepath.Join(adr, "copy"))
			symlink(t, "copy", filepath.Join(adr, rec1))
		}, corpus.CorpusChangedDuringLoad},
		{"replaced by a FIFO", func(t *testing.T, root, adr string) {
			remove(t, filepath.Join(adr, rec1))
			mkfifo(t, filepath.Join(adr, rec1))
		}, corpus.CorpusChangedDuringLoad},
		{"replaced by an identical file (new inode, same size and mtime)", func(t *testing.T, root, adr string) {
			p := filepath.Join(adr, rec1)
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			write(t, p+".new", readTestdata(t, rec1))
			touch(t, p+".new", fi.ModTime())
			rename(t, p+".new", p)
		}, corpus.CorpusChangedDuringLoad},
		{"a record added is not a change (only records read are checked)", func(t *testing.T, root, adr string) {
			write(t, filepath.Join(adr, "0003-added.md"), []byte("---\n---\n"))
		}, ""},
		{"an unread file changed is not a change", func(t *testing.T, root, adr string) {
			write(t, filepath.Join(adr, "README.md"), []byte("changed\n"))
		}, ""},
		{"dir removed", func(t *testing.T, root, adr string) {
			skipIfHeldOpen(t)
			remove(t, adr)
		}, corpus.DirNotFound},
		{"dir replaced by a copy", func(t *testing.T, root, adr string) {
			skipIfHeldOpen(t)
			rename(t, adr, adr+"-old")
			copyRecords(t, adr)
		}, corpus.CorpusChangedDuringLoad},
		{"dir now resolves elsewhere in the root", func(t *testing.T, root, adr string) {
			skipIfHeldOpen(t)
			rename(t, adr, filepath.Join(root, "moved"))
			symlink(t, "../moved", adr)
		}, corpus.CorpusChangedDuringLoad},
		{"dir now resolves outside the root", func(t *testing.T, root, adr string) {
			skipIfHeldOpen(t)
			rename(t, adr, filepath.Join(root, "..", "outside"))
			symlink(t, "../../outside", adr)
		}, corpus.DirOutsideRoot},
		{"git entry removed", func(t *testing.T, root, adr string) { remove(t, filepath.Join(root, ".git")) }, corpus.RootNotGit},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := newRoot(t, base(t), "repo")
			adr := filepath.Join(root, "docs", "adr")
			write(t, filepath.Join(adr, "README.md"), []byte("# Decisions\n"))
			c := openView(t, New(root, "docs/adr"))
			for _, name := range []string{rec1, rec2} {
				if _, err := c.Read(context.Background(), name, corpus.MaxRecordBytes, nil); err != nil {
					t.Fatalf("Read(%s): %v", name, err)
				}
			}
			tc.change(t, root, adr)
			var err error
			noBlock(t, "Verify", func() { err = c.Verify(context.Background()) })
			if got := corpustest.ReasonOf(t, err); got != tc.want {
				t.Errorf("Verify: reason %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}

func TestVerifyRootRetargeted(t *testing.T) { eachDriver(t, testVerifyRootRetargeted) }

func testVerifyRootRetargeted(t *testing.T) {
	b := base(t)
	newRoot(t, b, "repo")
	newRoot(t, b, "other")
	symlink(t, "repo", filepath.Join(b, "current"))
	r := New(filepath.Join(b, "current"), "docs/adr")
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := openView(t, r)
	if _, err := c.Read(context.Background(), rec1, corpus.MaxRecordBytes, nil); err != nil {
		t.Fatal(err)
	}
	replaceSymlink(t, "other", filepath.Join(b, "current"))
	if got := corpustest.ReasonOf(t, c.Verify(context.Background())); got != corpus.RootNotFound {
		t.Errorf("Verify: reason %q, want %q", got, corpus.RootNotFound)
	}
}

func TestNothingWritten(t *testing.T) { eachDriver(t, testNothingWritten) }

func testNothingWritten(t *testing.T) {
	// The reader never writes under the root: a full projection leaves
	// every entry's mtime and the listing unchanged.
	root := newRoot(t, base(t), "repo")
	snapshot := func() map[string]time.Time {
		m := map[string]time.Time{}
		err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			m[p] = fi.ModTime()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	before := snapshot()
	r := New(root, "docs/adr")
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := openView(t, r)
	if _, err := c.List(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{rec1, rec2} {
		if _, err := c.Read(context.Background(), name, corpus.MaxRecordBytes, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Verify(context.Background()); err != nil {
		t.Fatal(err)
	}
	after := snapshot()
	if len(after) != len(before) {
		t.Fatalf("entries under the root: %d before, %d after", len(before), len(after))
	}
	for p, m := range before {
		if !after[p].Equal(m) {
			t.Errorf("%s modified", p)
		}
	}
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "records", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func appendTo(t *testing.T, p string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func touch(t *testing.T, p string, mtime time.Time) {
	t.Helper()
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

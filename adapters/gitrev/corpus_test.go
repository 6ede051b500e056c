package gitrev

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/internal/linktest"
	"github.com/adrkit/adrkit-go/ports"
)

// listing is the comparable form of an entry.
type listing struct {
	Name, Path string
	Kind       ports.EntryKind
}

func listOf(t *testing.T, c ports.ADRDir, recursive bool) []listing {
	t.Helper()
	es, err := c.List(context.Background(), recursive)
	if err != nil {
		t.Fatalf("List(recursive=%v): %v (%v)", recursive, err, causeOf(err))
	}
	out := make([]listing, len(es))
	for i, e := range es {
		out[i] = listing{e.Name, e.Path, e.Kind}
	}
	return out
}

func TestListKinds(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	a := string(recordText("0001"))
	repo.CommitOn("main", "kinds\n",
		reg("docs/adr/0001-a.md", a),
		exe("docs/adr/0002-exec.md", "#!/bin/sh\n"),
		file{Path: "docs/adr/0003-group.md", Content: "g\n", Mode: filemode.Deprecated},
		link("docs/adr/0004-link.md", "0001-a.md"),
		link("docs/adr/0005-dirlink.md", "sub"),
		reg("docs/adr/0006-dir.md/inner.md", "inner\n"),
		gitlink("docs/adr/0007-module.md", "0123456789abcdef0123456789abcdef01234567"),
		reg("docs/adr/sub/0100-nested.md", "nested\n"),
		reg("docs/adr/sub/deeper/0200-deep.md", "deep\n"),
		reg("docs/adr/Zeta.md", "z\n"),
		reg("docs/adr/a.md", "a\n"),
		reg("docs/adr/\U0001F600.md", "smile\n"),
		reg("docs/adr/\uff5e.md", "tilde\n"),
		reg("README.md", "# Repo\n"),
	)
	p := func(n string) string { return "docs/adr/" + n }
	top := []listing{
		{"0001-a.md", p("0001-a.md"), ports.KindRegular},
		{"0002-exec.md", p("0002-exec.md"), ports.KindRegular},
		{"0003-group.md", p("0003-group.md"), ports.KindRegular},
		{"0004-link.md", p("0004-link.md"), ports.KindSymlink},
		{"0005-dirlink.md", p("0005-dirlink.md"), ports.KindSymlink},
		{"0006-dir.md", p("0006-dir.md"), ports.KindDirectory},
		{"0007-module.md", p("0007-module.md"), ports.KindOther},
		{"Zeta.md", p("Zeta.md"), ports.KindRegular},
		{"a.md", p("a.md"), ports.KindRegular},
		{"sub", p("sub"), ports.KindDirectory},
		// UTF-16 order: U+1F600 (D83D DE00) before U+FF5E.
		{"\U0001F600.md", p("\U0001F600.md"), ports.KindRegular},
		{"\uff5e.md", p("\uff5e.md"), ports.KindRegular},
	}
	c := mustOpen(t, New(repo.Root(), "docs/adr", "HEAD"))
	if got := listOf(t, c, false); !slices.Equal(got, top) {
		t.Errorf("top level\n got %v\nwant %v", got, top)
	}
	all := slices.Clone(top)
	all = slices.Insert(all, 6, listing{"0006-dir.md/inner.md", p("0006-dir.md/inner.md"), ports.KindRegular})
	all = slices.Insert(all, 11, // after "sub", before the astral name
		listing{"sub/0100-nested.md", p("sub/0100-nested.md"), ports.KindRegular},
		listing{"sub/deeper", p("sub/deeper"), ports.KindDirectory},
		listing{"sub/deeper/0200-deep.md", p("sub/deeper/0200-deep.md"), ports.KindRegular})
	if got := listOf(t, c, true); !slices.Equal(got, all) {
		t.Errorf("recursive\n got %v\nwant %v", got, all)
	}

	// Only regular files are read; a symlink, a tree and a gitlink are
	// refused before anything is loaded.
	for name, want := range map[string]ports.ReadErrorKind{
		"0001-a.md": -1, "0002-exec.md": -1, "0003-group.md": -1,
		"0004-link.md": ports.ReadStatFailed, "0005-dirlink.md": ports.ReadStatFailed,
		"0006-dir.md": ports.ReadStatFailed, "0007-module.md": ports.ReadStatFailed,
		"sub/0100-nested.md": ports.ReadStatFailed, "..": ports.ReadStatFailed, "": ports.ReadStatFailed,
	} {
		_, err := c.Read(context.Background(), name, corpus.MaxRecordBytes, nil)
		if got := readKindOf(t, err); got != want {
			t.Errorf("Read(%q): kind %d (%v), want %d", name, got, err, want)
		}
	}
}

func TestReadSizeLimit(t *testing.T) {
	const maxBytes = corpus.MaxRecordBytes
	exact := bytes.Repeat([]byte("x"), maxBytes)
	over := bytes.Repeat([]byte("y"), maxBytes+1)
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	c1 := repo.CommitOn("main", "sizes\n",
		reg("docs/adr/0001-exact.md", string(exact)),
		reg("docs/adr/0002-over.md", string(over)))
	c := mustOpen(t, New(repo.Root(), "docs/adr", "HEAD"))

	got, err := c.Read(context.Background(), "0001-exact.md", maxBytes, nil)
	if err != nil || !bytes.Equal(got, exact) {
		t.Errorf("Read(exactly %d bytes) = %d bytes, %v", maxBytes, len(got), err)
	}
	_, err = c.Read(context.Background(), "0001-exact.md", maxBytes-1, nil)
	if k := readKindOf(t, err); k != ports.ReadTooLarge {
		t.Errorf("Read(limit one short): kind %d (%v), want ReadTooLarge", k, err)
	}

	// The oversized blob's stored content is cut to its header: the
	// answer must come from the header alone, or the truncated content
	// would show as a read failure.
	h := repo.EntryHash(c1, "docs/adr/0002-over.md")
	writeLooseObject(t, repo.ObjectFile(h), fmt.Sprintf("blob %d", maxBytes+1), []byte("yyy"))
	_, err = c.Read(context.Background(), "0002-over.md", maxBytes, nil)
	if k := readKindOf(t, err); k != ports.ReadTooLarge {
		t.Errorf("Read(%d bytes): kind %d (%v), want ReadTooLarge from the header", maxBytes+1, k, err)
	}
}

func TestReadCorruptBlob(t *testing.T) {
	// A header that promises fewer bytes than the object holds is a
	// corrupt object: the read fails instead of returning either length.
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	c1 := repo.CommitOn("main", "corrupt\n", record("docs/adr/0001-a.md", "0001"))
	h := repo.EntryHash(c1, "docs/adr/0001-a.md")
	writeLooseObject(t, repo.ObjectFile(h), "blob 3", []byte("more than three bytes"))
	_, err := mustOpen(t, New(repo.Root(), "docs/adr", "HEAD")).Read(context.Background(), "0001-a.md", corpus.MaxRecordBytes, nil)
	if k := readKindOf(t, err); k != ports.ReadFailed {
		t.Errorf("Read: kind %d (%v), want ReadFailed", k, err)
	}
}

func TestMissingObjects(t *testing.T) {
	// A shallow-like repository: objects the history refers to are absent
	// from .git/objects, as past a shallow clone's boundary or after a
	// prune.
	setup := func(t *testing.T) (*gittest.Repo, plumbing.Hash, plumbing.Hash) {
		repo := gittest.Init(t, filepath.Join(base(t), "repo"))
		c1 := repo.CommitOn("main", "first\n", record("docs/adr/0001-a.md", "0001"))
		c2 := repo.CommitOn("main", "second\n",
			record("docs/adr/0001-a.md", "0001"),
			record("docs/adr/0002-b.md", "0002"),
			reg("docs/adr/notes/0100-n.md", "notes\n"))
		writeFile(t, filepath.Join(repo.GitDir(), "shallow"), []byte(c2.String()+"\n"))
		return repo, c1, c2
	}

	t.Run("commit past the boundary", func(t *testing.T) {
		repo, c1, _ := setup(t)
		repo.DeleteObject(c1)
		equalNames(t, "HEAD", topNames(t, New(repo.Root(), "docs/adr", "HEAD")), []string{"0001-a.md", "0002-b.md", "notes"})
		_, err := New(repo.Root(), "docs/adr", "HEAD~1").Open(context.Background())
		checkUnavailable(t, "Open(HEAD~1)", err, corpus.RootNotFound, "missing", "shallow")
		_, err = New(repo.Root(), "docs/adr", c1.String()).Open(context.Background())
		checkUnavailable(t, "Open(hash)", err, corpus.RootNotFound)
	})
	t.Run("record blob", func(t *testing.T) {
		repo, _, c2 := setup(t)
		repo.DeleteObject(repo.EntryHash(c2, "docs/adr/0002-b.md"))
		c := mustOpen(t, New(repo.Root(), "docs/adr", "HEAD"))
		// Listed; its Read fails on its own.
		equalNames(t, "HEAD", topNames(t, New(repo.Root(), "docs/adr", "HEAD")), []string{"0001-a.md", "0002-b.md", "notes"})
		if _, err := c.Read(context.Background(), "0001-a.md", corpus.MaxRecordBytes, nil); err != nil {
			t.Errorf("Read(0001-a.md): %v", err)
		}
		_, err := c.Read(context.Background(), "0002-b.md", corpus.MaxRecordBytes, nil)
		if k := readKindOf(t, err); k != ports.ReadFailed {
			t.Fatalf("Read(0002-b.md): kind %d (%v), want ReadFailed", k, err)
		}
		if msg := errors.Unwrap(err).Error(); !strings.Contains(msg, "docs/adr/0002-b.md") || !strings.Contains(msg, "missing from the repository") {
			t.Errorf("cause %q should name the record and say the object is missing", msg)
		}
		if strings.Contains(err.Error(), repo.Root()) {
			t.Errorf("read error %q holds an absolute path", err)
		}
		if err := c.Verify(context.Background()); err != nil {
			t.Errorf("Verify: %v", err)
		}
	})
	t.Run("nested tree", func(t *testing.T) {
		repo, _, c2 := setup(t)
		repo.DeleteObject(repo.EntryHash(c2, "docs/adr/notes"))
		c := mustOpen(t, New(repo.Root(), "docs/adr", "HEAD"))
		equalNames(t, "top level", names(t, c, false), []string{"0001-a.md", "0002-b.md", "notes"})
		_, err := c.List(context.Background(), true)
		checkUnavailable(t, "List(recursive)", err, corpus.DirNotReadable, "docs/adr/notes", "missing")
	})
	t.Run("directory tree", func(t *testing.T) {
		repo, _, c2 := setup(t)
		repo.DeleteObject(repo.EntryHash(c2, "docs/adr"))
		_, err := New(repo.Root(), "docs/adr", "HEAD").Open(context.Background())
		checkUnavailable(t, "Open", err, corpus.DirNotReadable, "docs/adr", "missing")
	})
	t.Run("root tree", func(t *testing.T) {
		repo, _, c2 := setup(t)
		repo.DeleteObject(repo.EntryHash(c2, ""))
		_, err := New(repo.Root(), "docs/adr", "HEAD").Open(context.Background())
		checkUnavailable(t, "Open", err, corpus.DirNotReadable, "missing")
	})
}

func TestBareRepository(t *testing.T) {
	h := newHistory(t, false)
	bare := h.CloneBare(filepath.Join(base(t), "mirror.git"))
	for rev, want := range map[string][]string{
		"HEAD":             upTo(4),
		"main":             upTo(4),
		"v2.0.0":           upTo(3),
		short(h.c[2]):      upTo(2),
		"feature~1":        upTo(2),
		"refs/tags/v1.0.0": upTo(1),
	} {
		r := New(bare.Root(), "docs/adr", rev)
		if err := r.Check(context.Background()); err != nil {
			t.Fatalf("Check(%s): %v (%v)", rev, err, causeOf(err))
		}
		equalNames(t, rev, topNames(t, r), want)
	}
	// An absolute directory is taken relative to the bare repository.
	equalNames(t, "absolute dir", topNames(t, New(bare.Root(), filepath.Join(bare.Root(), "docs/adr"), "HEAD")), upTo(4))
	c := mustOpen(t, New(bare.Root(), "docs/adr", "HEAD"))
	got, err := c.Read(context.Background(), "0003-r.md", corpus.MaxRecordBytes, nil)
	if err != nil || !bytes.Equal(got, recordText("0003")) {
		t.Errorf("Read = %q, %v", got, err)
	}
	if err := c.Verify(context.Background()); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

func TestLinkedWorktree(t *testing.T) {
	h := newHistory(t, false)
	wt := filepath.Join(filepath.Dir(h.Root()), "linked")
	runGit(t, h.Root(), "worktree", "add", "-b", "side", wt, h.c[2].String())
	if fi, err := os.Lstat(filepath.Join(wt, ".git")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the linked worktree's .git is not a file: %v", err)
	}

	head := New(wt, "docs/adr", "HEAD")
	equalNames(t, "linked HEAD", topNames(t, head), upTo(2))
	// Branches and tags are shared with the main repository.
	equalNames(t, "main from the linked worktree", topNames(t, New(wt, "docs/adr", "main")), upTo(4))
	equalNames(t, "tag from the linked worktree", topNames(t, New(wt, "docs/adr", "v1.0.0")), upTo(1))
	// An absolute directory inside the linked worktree.
	equalNames(t, "absolute dir", topNames(t, New(wt, filepath.Join(wt, "docs", "adr"), "HEAD")), upTo(2))
	// The main worktree's HEAD is its own.
	equalNames(t, "main worktree HEAD", topNames(t, New(h.Root(), "docs/adr", "HEAD")), upTo(4))

	// A commit on the linked worktree's branch shows on the next Open.
	h.CommitOn("side", "on the side\n", append(filesOf(2), record("docs/adr/0050-side.md", "0050"))...)
	equalNames(t, "linked HEAD after a commit", topNames(t, head), append(upTo(2), "0050-side.md"))
}

func TestWorkingTreeIsIgnored(t *testing.T) {
	h := newHistory(t, false)
	adr := filepath.Join(h.Root(), "docs", "adr")
	// The working tree disagrees with HEAD in every way it can: an edited
	// record, an extra one, a removed one's directory replaced, a symlink
	// (where this account can make one).
	writeFile(t, filepath.Join(adr, "0001-r.md"), []byte("---\nid: edited\n---\n"))
	writeFile(t, filepath.Join(adr, "0042-uncommitted.md"), recordText("0042"))
	writeFile(t, filepath.Join(h.Root(), "docs", "other", "0001-x.md"), recordText("0001"))
	if linktest.Supported() {
		linktest.Make(t, "0042-uncommitted.md", filepath.Join(adr, "0043-link.md"))
	}
	c := mustOpen(t, New(h.Root(), "docs/adr", "HEAD"))
	equalNames(t, "listing", names(t, c, true), upTo(4))
	got, err := c.Read(context.Background(), "0001-r.md", corpus.MaxRecordBytes, nil)
	if err != nil || !bytes.Equal(got, recordText("0001")) {
		t.Errorf("Read = %q, %v; want the committed bytes", got, err)
	}

	// Even a directory that exists only on disk is not found.
	_, err = New(h.Root(), "docs/other", "HEAD").Open(context.Background())
	checkUnavailable(t, "Open(docs/other)", err, corpus.DirNotFound)
	// And one that exists only in the commit is found.
	if err := os.RemoveAll(filepath.Join(h.Root(), "docs")); err != nil {
		t.Fatal(err)
	}
	equalNames(t, "after removing docs from disk", topNames(t, New(h.Root(), "docs/adr", "HEAD")), upTo(4))
}

func TestVerify(t *testing.T) {
	h := newHistory(t, false)
	r := New(h.Root(), "docs/adr", "main")
	open := func() ports.ADRDir {
		c := mustOpen(t, r)
		for _, n := range upTo(4) {
			if _, err := c.Read(context.Background(), n, corpus.MaxRecordBytes, nil); err != nil {
				t.Fatal(err)
			}
		}
		return c
	}
	c := open()
	if err := c.Verify(context.Background()); err != nil {
		t.Fatalf("Verify of an untouched repository: %v", err)
	}
	// A commit landing, a re-tag, even a pruned read blob: the view read
	// one commit consistently, so none is a change of this projection.
	h.CommitOn("main", "landed\n", filesOf(3)...)
	h.SetRef(plumbing.NewTagReferenceName("v1.0.0"), h.c[4])
	h.DeleteObject(h.EntryHash(h.c[4], "docs/adr/0004-r.md"))
	if err := c.Verify(context.Background()); err != nil {
		t.Errorf("Verify after the branch moved: %v (%v)", err, causeOf(err))
	}
	// A repository that is gone is still reported. It is moved away, not
	// removed: the move fails on Windows if the reader still holds a
	// file of it open.
	if err := os.Rename(h.Root(), h.Root()+".gone"); err != nil {
		t.Fatal(err)
	}
	checkUnavailable(t, "Verify after removal", c.Verify(context.Background()), corpus.RootNotFound)
}

func TestNothingWritten(t *testing.T) {
	// Reading a revision writes nothing in the repository: not the
	// index, not a lock, not a cache.
	h := newHistory(t, false)
	type state struct {
		mode fs.FileMode
		size int64
		data string
	}
	snapshot := func() map[string]state {
		m := map[string]state{}
		err := filepath.WalkDir(h.Root(), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			s := state{mode: fi.Mode(), size: fi.Size()}
			if fi.Mode().IsRegular() {
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				s.data = string(b)
			}
			m[p] = s
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	before := snapshot()
	for _, rev := range []string{"HEAD", short(h.c[2]), "v2.0.0"} {
		r := New(h.Root(), "docs/adr", rev)
		if err := r.Check(context.Background()); err != nil {
			t.Fatal(err)
		}
		c := mustOpen(t, r)
		for _, e := range listOf(t, c, true) {
			if _, err := c.Read(context.Background(), e.Name, corpus.MaxRecordBytes, nil); err != nil && !strings.Contains(e.Name, "/") {
				t.Fatal(err)
			}
		}
		if err := c.Verify(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	after := snapshot()
	for p, s := range after {
		if b, ok := before[p]; !ok || b != s {
			t.Errorf("%s was created or changed", p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s was removed", p)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	// One view shared by goroutines, and concurrent Opens of one reader:
	// go-git's storage is not safe for concurrent use, so the view
	// serialises it (run with -race to check).
	h := newHistory(t, false)
	r := New(h.Root(), "docs/adr", "HEAD")
	c := mustOpen(t, r)
	errs := make(chan error, 16)
	for i := 0; i < 8; i++ {
		go func() {
			_, err := c.List(context.Background(), true)
			if err == nil {
				_, err = c.Read(context.Background(), "0002-r.md", corpus.MaxRecordBytes, nil)
			}
			errs <- err
		}()
		go func() {
			_, err := r.Open(context.Background())
			errs <- err
		}()
	}
	for i := 0; i < 16; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

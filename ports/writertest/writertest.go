// Package writertest is the conformance suite every ports.FolderWriter and
// ports.RepoFiles must pass: an implementation's tests materialise a
// small ADR directory or repository in their kind of store, and RunFolder
// and RunRepo check the failure policy ports/write.go states against it.
// What only one store can show (permissions kept, a case-only rename on a
// case-insensitive system, git's branches and dates, nothing written
// outside through a link) belongs in that store's own tests.
package writertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/ports"
)

// Entry is one thing a fixture holds.
type Entry struct {
	// Path is relative to the ADR directory (RunFolder) or to the
	// repository root (RunRepo), "/"-separated; directories on the way
	// are made as needed.
	Path    string
	Content string
	// Dir makes Path an empty directory.
	Dir bool
	// Link, when set, makes Path a symbolic link to Link, relative to
	// the directory holding it (only where the store has Symlinks).
	Link string
}

// Maker materialises entries as a fresh store and returns its writer:
// for RunFolder the ADR directory docs/adr of a repository, for RunRepo a
// repository whose regular files git tracks. It fails t if it cannot.
type Maker[W any] func(t *testing.T, entries []Entry) W

// RunFolder checks the FolderWriters build makes; symlinks says the store
// can hold a symbolic link.
func RunFolder(t *testing.T, symlinks bool, build Maker[ports.FolderWriter]) {
	// In UTF-16 code-unit order "Z" comes before "n", and U+1F600 (a
	// surrogate pair) before U+FF5E, although its UTF-8 bytes sort after.
	fixture := []Entry{
		{Path: "0001-a.md", Content: "alpha\n"},
		{Path: "0002-b.MD", Content: "bravo\n"},
		{Path: "0009-dir.md", Dir: true},
		{Path: "Z.markdown", Content: "zulu\n"},
		{Path: "notes.txt", Content: "notes\n"},
		{Path: "\U0001F600.md", Content: "smile\n"},
		{Path: "\uff5e.md", Content: "tilde\n"},
	}
	notRegular := []string{"0009-dir.md"}
	if symlinks {
		fixture = append(fixture, Entry{Path: "0003-link.md", Link: "0001-a.md"})
		notRegular = append(notRegular, "0003-link.md")
	}
	var names []string
	for _, e := range fixture {
		names = append(names, e.Path)
	}
	names = sorted(names)
	open := func(t *testing.T) ports.FolderWriter { return build(t, fixture) }
	unchanged := func(t *testing.T, f ports.FolderWriter, what string) {
		t.Helper()
		checkNames(t, f, names, what)
		checkContent(t, f, "0001-a.md", "alpha\n", what)
	}

	t.Run("Listing", func(t *testing.T) {
		f := open(t)
		checkNames(t, f, names, "the fixture")
		files, err := f.MarkdownFiles(context.Background())
		var got []string
		for _, file := range files {
			got = append(got, file.Name)
			if file.Path != "docs/adr/"+file.Name || file.Path != f.DisplayPath(file.Name) {
				t.Errorf("%s: Path %q, want docs/adr/%s", file.Name, file.Path, file.Name)
			}
		}
		want := []string{"0001-a.md", "0002-b.MD", "Z.markdown", "\U0001F600.md", "\uff5e.md"}
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("MarkdownFiles: %q, %v; want %q (regular Markdown files only)", got, err, want)
		}
		if string(files[2].Content) != "zulu\n" {
			t.Errorf("MarkdownFiles: Z.markdown holds %q", files[2].Content)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := f.MarkdownFiles(ctx); err == nil {
			t.Error("MarkdownFiles: a cancelled context is not reported")
		}
	})

	t.Run("Read", func(t *testing.T) {
		f := open(t)
		checkContent(t, f, "0002-b.MD", "bravo\n", "Read")
		if _, err := f.Read("0004-missing.md"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Read of a missing file: %v, want fs.ErrNotExist", err)
		}
		for _, name := range notRegular {
			if b, err := f.Read(name); err == nil || errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Read(%q), not a regular file: %q, %v; want an error other than fs.ErrNotExist", name, b, err)
			}
		}
	})

	t.Run("Create", func(t *testing.T) {
		f := open(t)
		for _, name := range append([]string{"0001-a.md"}, notRegular...) {
			if err := f.Create(name, []byte("clobber")); !errors.Is(err, fs.ErrExist) {
				t.Errorf("Create over %s: %v, want fs.ErrExist", name, err)
			}
		}
		unchanged(t, f, "after refused creates")
		if err := f.Create("0004-d.md", []byte("delta\n")); err != nil {
			t.Fatalf("Create: %v", err)
		}
		checkContent(t, f, "0004-d.md", "delta\n", "Create")
		checkNames(t, f, sorted(append(slices.Clone(names), "0004-d.md")), "after Create")
	})

	t.Run("Replace", func(t *testing.T) {
		f := open(t)
		if err := f.Replace("0004-missing.md", nil, []byte("x")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Replace of a missing file: %v, want fs.ErrNotExist", err)
		}
		for _, name := range notRegular {
			if err := f.Replace(name, nil, []byte("x")); err == nil {
				t.Errorf("Replace(%q), not a regular file: no error", name)
			}
		}
		for _, stale := range []string{"", "alpha", "alpha\nmore\n", "ALPHA\n"} {
			if err := f.Replace("0001-a.md", []byte(stale), []byte("new\n")); !errors.Is(err, ports.ErrChanged) {
				t.Errorf("Replace over %q, read as %q: %v, want ports.ErrChanged", "alpha\n", stale, err)
			}
		}
		unchanged(t, f, "after refused replaces")
		if err := f.Replace("0001-a.md", []byte("alpha\n"), []byte("new\n")); err != nil {
			t.Fatalf("Replace: %v", err)
		}
		checkContent(t, f, "0001-a.md", "new\n", "Replace")
		checkNames(t, f, names, "after Replace")
	})

	// Appenders that read, add a line and replace, all at once, as
	// adrkit status racing another process's edits did: a Replace made
	// from a stale reading fails (and its appender reads again) instead
	// of dropping the lines written since.
	t.Run("ConcurrentAppenders", func(t *testing.T) {
		f := open(t)
		const appenders, lines = 4, 25
		var wg sync.WaitGroup
		for a := range appenders {
			wg.Go(func() {
				for n := 0; n < lines; {
					old, err := f.Read("0001-a.md")
					if err != nil {
						t.Error(err)
						return
					}
					line := fmt.Sprintf("appender %d line %d\n", a, n)
					switch err := f.Replace("0001-a.md", old, append(slices.Clip(old), line...)); {
					case err == nil:
						n++
					case !errors.Is(err, ports.ErrChanged):
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		got, err := f.Read("0001-a.md")
		if err != nil {
			t.Fatal(err)
		}
		have := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
		if len(have) != 1+appenders*lines {
			t.Errorf("%d lines after %d appends, want %d: lines were lost", len(have), appenders*lines, 1+appenders*lines)
		}
		for a := range appenders {
			for n := range lines {
				if line := fmt.Sprintf("appender %d line %d", a, n); !slices.Contains(have, line) {
					t.Errorf("%q was lost", line)
				}
			}
		}
		checkNames(t, f, names, "after the appenders")
	})

	t.Run("Rename", func(t *testing.T) {
		f := open(t)
		if err := f.Rename("0002-b.MD", "0001-a.md"); !errors.Is(err, fs.ErrExist) {
			t.Errorf("Rename onto a taken name: %v, want fs.ErrExist", err)
		}
		if err := f.Rename("0004-missing.md", "0005-e.md"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Rename of a missing file: %v, want fs.ErrNotExist", err)
		}
		unchanged(t, f, "after refused renames")
		checkContent(t, f, "0002-b.MD", "bravo\n", "after refused renames")
		// A case-only rename, which a case-insensitive system sees as a
		// name taken by the file itself.
		if err := f.Rename("0002-b.MD", "0002-b.md"); err != nil {
			t.Fatalf("Rename: %v", err)
		}
		checkContent(t, f, "0002-b.md", "bravo\n", "Rename")
		want := slices.Clone(names)
		want[1] = "0002-b.md"
		checkNames(t, f, sorted(want), "after Rename")
	})

	t.Run("NotAFileName", func(t *testing.T) {
		f := open(t)
		for _, name := range []string{"", ".", "..", "../0001-a.md", "sub/x.md", `sub\x.md`, "/0001-a.md", ".git", ".GIT"} {
			_, readErr := f.Read(name)
			for i, err := range []error{
				readErr,
				f.Create(name, []byte("x")),
				f.Replace(name, nil, []byte("x")),
				f.Rename(name, "0005-e.md"),
				f.Rename("0001-a.md", name),
			} {
				if !errors.Is(err, fs.ErrInvalid) {
					op := []string{"Read", "Create", "Replace", "Rename from", "Rename to"}[i]
					t.Errorf("%s %q: %v, want fs.ErrInvalid", op, name, err)
				}
			}
		}
		unchanged(t, f, "after refused names")
	})
}

// RunRepo checks the RepoFiles build makes; symlinks says the store can
// hold a symbolic link.
func RunRepo(t *testing.T, symlinks bool, build Maker[ports.RepoFiles]) {
	const src = "// @adr 0001\npackage a\n"
	fixture := []Entry{
		{Path: "src/a.go", Content: src},
		{Path: "docs/adr/0001-a.md", Content: "---\n"},
		{Path: "tool.sh", Content: "#!/bin/sh\n"},
		{Path: "build", Dir: true},
	}
	if symlinks {
		fixture = append(fixture, Entry{Path: "src/link.go", Link: "a.go"}, Entry{Path: "out", Link: "../outside"})
	}
	tracked := []string{"docs/adr/0001-a.md", "src/a.go", "tool.sh"}
	open := func(t *testing.T) ports.RepoFiles { return build(t, fixture) }
	notRegular := []string{"build", "src"}
	if symlinks {
		notRegular = append(notRegular, "src/link.go", "out/x.json")
	}

	t.Run("TrackedFiles", func(t *testing.T) {
		r := open(t)
		checkTracked(t, r, tracked, "the fixture")
		if err := r.Write("new.txt", []byte("new\n")); err != nil {
			t.Fatal(err)
		}
		checkTracked(t, r, tracked, "after a write")
	})

	t.Run("Read", func(t *testing.T) {
		r := open(t)
		for _, tc := range []struct {
			limit int
			want  string
			more  bool
		}{{5, src[:5], true}, {-1, src, false}, {len(src), src, false}, {0, "", true}} {
			b, more, err := r.Read("src/a.go", tc.limit)
			if err != nil || string(b) != tc.want || more != tc.more {
				t.Errorf("Read(src/a.go, %d): %q, %v, %v; want %q, %v", tc.limit, b, more, err, tc.want, tc.more)
			}
		}
		for _, p := range []string{"src/missing.go", "missing/a.go"} {
			if _, _, err := r.Read(p, -1); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Read(%q): %v, want fs.ErrNotExist", p, err)
			}
		}
		for _, p := range notRegular {
			if b, _, err := r.Read(p, -1); err == nil || errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Read(%q), not a regular file inside the repository: %q, %v; want an error other than fs.ErrNotExist", p, b, err)
			}
		}
	})

	t.Run("Write", func(t *testing.T) {
		r := open(t)
		for _, p := range append(notRegular, "src/a.go/x.json") {
			if err := r.Write(p, []byte("x")); err == nil {
				t.Errorf("Write(%q), not a regular file inside the repository: no error", p)
			}
		}
		checkRepoContent(t, r, "src/a.go", src, "after refused writes")
		for p, content := range map[string]string{"src/a.go": "package a\n", ".claude/hooks/settings.json": "{}\n"} {
			if err := r.Write(p, []byte(content)); err != nil {
				t.Fatalf("Write(%q): %v", p, err)
			}
			checkRepoContent(t, r, p, content, "Write")
		}
	})

	t.Run("NotARepositoryPath", func(t *testing.T) {
		r := open(t)
		for _, p := range []string{"", ".", "..", "../x", "/etc/hostname", "src/../tool.sh", "src//a.go", "./tool.sh", "src/"} {
			if _, _, err := r.Read(p, -1); !errors.Is(err, fs.ErrInvalid) {
				t.Errorf("Read(%q): %v, want fs.ErrInvalid", p, err)
			}
			if err := r.Write(p, []byte("x")); !errors.Is(err, fs.ErrInvalid) {
				t.Errorf("Write(%q): %v, want fs.ErrInvalid", p, err)
			}
		}
		checkRepoContent(t, r, "tool.sh", "#!/bin/sh\n", "after refused paths")
		checkRepoContent(t, r, "src/a.go", src, "after refused paths")
	})

	t.Run("NothingInsideGit", func(t *testing.T) {
		r := open(t)
		for _, p := range []string{".git", ".git/config", ".git/hooks/pre-commit", ".Git/HEAD", "vendor/lib/.git/config", "src/.GIT"} {
			if err := r.Write(p, []byte("x")); !errors.Is(err, fs.ErrInvalid) {
				t.Errorf("Write(%q), inside git's directory: %v, want fs.ErrInvalid", p, err)
			}
			if b, _, err := r.Read(p, -1); err == nil && string(b) == "x" {
				t.Errorf("Write(%q) was refused but wrote the file", p)
			}
		}
		if err := r.Write(".github/workflows/adr.yml", []byte("on: push\n")); err != nil {
			t.Errorf("Write of .github/workflows/adr.yml, not git's directory: %v", err)
		}
	})
}

func checkNames(t *testing.T, f ports.FolderWriter, want []string, what string) {
	t.Helper()
	if got, err := f.Names(); err != nil || !slices.Equal(got, want) {
		t.Errorf("Names %s: %q, %v; want %q (in code-unit order, no temporary file)", what, got, err, want)
	}
}

func checkContent(t *testing.T, f ports.FolderWriter, name, want, what string) {
	t.Helper()
	if got, err := f.Read(name); err != nil || !bytes.Equal(got, []byte(want)) {
		t.Errorf("%s: %s holds %q, %v; want %q", what, name, got, err, want)
	}
}

func checkTracked(t *testing.T, r ports.RepoFiles, want []string, what string) {
	t.Helper()
	if got, err := r.TrackedFiles(); err != nil || !slices.Equal(got, want) {
		t.Errorf("TrackedFiles %s: %q, %v; want %q", what, got, err, want)
	}
}

func checkRepoContent(t *testing.T, r ports.RepoFiles, p, want, what string) {
	t.Helper()
	if got, more, err := r.Read(p, -1); err != nil || more || string(got) != want {
		t.Errorf("%s: %s holds %q, %v; want %q", what, p, got, err, want)
	}
}

// sorted sorts names in code-unit order.
func sorted(names []string) []string {
	slices.SortFunc(names, jsstring.Compare)
	return names
}

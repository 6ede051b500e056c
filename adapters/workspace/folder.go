package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/migrate"
)

// Folder is an ADR directory on disk, for the commands that write. Names
// are file names in the directory; nothing outside it is touched.
type Folder struct {
	root, dir string // canonical absolute paths
	rel       string // dir relative to root, "/"-separated; "." for the root
	planned   bool   // the directory does not exist yet (PlannedFolder)
}

// OpenFolder opens the ADR directory dir of the repository at root (dir
// relative to root unless absolute). Both are resolved through symlinks,
// and dir must lie inside root, as the corpus reader requires.
func OpenFolder(root, dir string) (*Folder, error) {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("resolving the repository root: %w", err)
	}
	r, err = filepath.Abs(r)
	if err != nil {
		return nil, fmt.Errorf("resolving the repository root: %w", err)
	}
	d := dir
	if !filepath.IsAbs(d) {
		d = filepath.Join(r, d)
	}
	d, err = filepath.EvalSymlinks(d)
	if err != nil {
		return nil, fmt.Errorf("resolving the ADR directory: %w", err)
	}
	rel, err := filepath.Rel(r, d)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("the ADR directory is not inside the repository")
	}
	return &Folder{root: r, dir: d, rel: filepath.ToSlash(rel)}, nil
}

// PlannedFolder is the ADR directory dir of the repository at root before
// it exists, for a dry run: it lists as empty and reads nothing. dir is
// relative to root. Writing through it fails.
func PlannedFolder(root, dir string) (*Folder, error) {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("resolving the repository root: %w", err)
	}
	if r, err = filepath.Abs(r); err != nil {
		return nil, fmt.Errorf("resolving the repository root: %w", err)
	}
	rel := filepath.ToSlash(filepath.Clean(filepath.FromSlash(dir)))
	if filepath.IsAbs(dir) || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil, fmt.Errorf("the ADR directory is not inside the repository")
	}
	return &Folder{root: r, dir: filepath.Join(r, filepath.FromSlash(rel)), rel: rel, planned: true}, nil
}

// Root is the canonical repository root.
func (f *Folder) Root() string { return f.root }

// Rel is the directory relative to the root, "/"-separated ("." for the
// root itself).
func (f *Folder) Rel() string { return f.rel }

// DisplayPath is a file's path as adrkit shows it: relative to the root.
func (f *Folder) DisplayPath(name string) string {
	if f.rel == "." {
		return name
	}
	return path.Join(f.rel, name)
}

// Names lists the names of the directory's entries, in code-unit order.
func (f *Folder) Names() ([]string, error) {
	des, err := os.ReadDir(f.dir)
	if f.planned && errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing the ADR directory: %w", err)
	}
	names := make([]string, len(des))
	for i, de := range des {
		names[i] = de.Name()
	}
	slices.SortFunc(names, jsstring.Compare)
	return names, nil
}

// MarkdownFiles reads the regular Markdown files (.md or .markdown, any
// case) at the top level of the directory. Symlinks, directories and
// other files are left out, as discovery leaves them out.
func (f *Folder) MarkdownFiles(ctx context.Context) ([]migrate.File, error) {
	des, err := os.ReadDir(f.dir)
	if f.planned && errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing the ADR directory: %w", err)
	}
	var files []migrate.File
	for _, de := range des {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lower := strings.ToLower(de.Name())
		if !de.Type().IsRegular() || !(strings.HasSuffix(lower, ".md") || strings.HasSuffix(lower, ".markdown")) {
			continue
		}
		b, err := f.Read(de.Name())
		if err != nil {
			return nil, err
		}
		files = append(files, migrate.File{Name: de.Name(), Path: f.DisplayPath(de.Name()), Content: b})
	}
	slices.SortFunc(files, func(a, b migrate.File) int { return jsstring.Compare(a.Name, b.Name) })
	return files, nil
}

// Read returns a file's bytes.
func (f *Folder) Read(name string) ([]byte, error) {
	b, err := os.ReadFile(f.path(name))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.DisplayPath(name), withoutPath(err))
	}
	return b, nil
}

func (f *Folder) path(name string) string { return filepath.Join(f.dir, name) }

// Replace writes content over the existing file name atomically: the
// bytes go to a temporary file in the same directory, which is synced
// and then renamed over name, so a reader sees the old file or the new
// one, never half of one. The file keeps its permissions.
func (f *Folder) Replace(name string, content []byte) error {
	st, err := os.Stat(f.path(name))
	if err != nil {
		return fmt.Errorf("writing %s: %w", f.DisplayPath(name), withoutPath(err))
	}
	return f.writeAtomic(name, content, st.Mode().Perm(), false)
}

// Create writes a new file name atomically; if name exists already it
// fails with an error wrapping fs.ErrExist, and nothing is written.
func (f *Folder) Create(name string, content []byte) error {
	return f.writeAtomic(name, content, 0o644, true)
}

func (f *Folder) writeAtomic(name string, content []byte, perm fs.FileMode, exclusive bool) error {
	shown := f.DisplayPath(name)
	tmp, err := os.CreateTemp(f.dir, "."+name+".adrkit-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", shown, withoutPath(err))
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(content); err != nil {
		return fmt.Errorf("writing %s: %w", shown, withoutPath(err))
	}
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("writing %s: %w", shown, withoutPath(err))
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", shown, withoutPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", shown, withoutPath(err))
	}
	if exclusive {
		// A hard link fails when the name exists: no other writer's file
		// is ever replaced.
		err = os.Link(tmp.Name(), f.path(name))
		_ = os.Remove(tmp.Name())
		done = true
		if err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s exists already: %w", shown, fs.ErrExist)
			}
			return fmt.Errorf("writing %s: %w", shown, withoutPath(err))
		}
		return nil
	}
	if err := os.Rename(tmp.Name(), f.path(name)); err != nil {
		return fmt.Errorf("writing %s: %w", shown, withoutPath(err))
	}
	done = true
	return nil
}

// Rename renames a file within the directory; it never replaces an
// existing file (an error wrapping fs.ErrExist). A new name that differs
// only in case names the same file on a case-insensitive file system
// (macOS and Windows by default): see renameCase.
func (f *Folder) Rename(from, to string) error {
	if err := os.Link(f.path(from), f.path(to)); err != nil {
		if errors.Is(err, fs.ErrExist) && strings.EqualFold(from, to) && f.sameFile(from, to) {
			return f.renameCase(from, to)
		}
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("renaming %s: %s exists already: %w", f.DisplayPath(from), f.DisplayPath(to), fs.ErrExist)
		}
		return fmt.Errorf("renaming %s: %w", f.DisplayPath(from), withoutPath(err))
	}
	if err := os.Remove(f.path(from)); err != nil {
		_ = os.Remove(f.path(to))
		return fmt.Errorf("renaming %s: %w", f.DisplayPath(from), withoutPath(err))
	}
	return nil
}

// renameCase changes the case of a file's name on a case-insensitive file
// system, through a temporary name: renaming a file to its own name in
// other case is a no-op on some systems (wine's emulation of Windows),
// and once the file is moved aside the new name is free, so the link
// that takes it still never replaces anything. On a failure the file is
// moved back.
func (f *Folder) renameCase(from, to string) error {
	fail := func(err error) error { return fmt.Errorf("renaming %s: %w", f.DisplayPath(from), withoutPath(err)) }
	tmp, err := os.CreateTemp(f.dir, "."+to+".adrkit-*")
	if err != nil {
		return fail(err)
	}
	aside := tmp.Name()
	if err := tmp.Close(); err != nil {
		_ = os.Remove(aside)
		return fail(err)
	}
	// The empty placeholder reserved the name; the file replaces it.
	if err := os.Rename(f.path(from), aside); err != nil {
		_ = os.Remove(aside)
		return fail(err)
	}
	if err := os.Link(aside, f.path(to)); err != nil {
		_ = os.Rename(aside, f.path(from))
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("renaming %s: %s exists already: %w", f.DisplayPath(from), f.DisplayPath(to), fs.ErrExist)
		}
		return fail(err)
	}
	if err := os.Remove(aside); err != nil {
		return fail(err)
	}
	return nil
}

// sameFile reports whether names a and b are one file (not a symbolic
// link): two spellings of a name on a case-insensitive file system.
func (f *Folder) sameFile(a, b string) bool {
	fa, err := os.Lstat(f.path(a))
	if err != nil || !fa.Mode().IsRegular() {
		return false
	}
	fb, err := os.Lstat(f.path(b))
	return err == nil && os.SameFile(fa, fb)
}

// withoutPath drops the absolute path a *fs.PathError carries: messages
// name repository-relative paths only.
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

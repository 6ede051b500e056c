package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/migrate"
	"github.com/adrkit/adrkit-go/ports"
)

// Folder is an ADR directory on disk, for the commands that write. Names
// are file names in the directory; nothing outside it is touched.
type Folder struct {
	root, dir string // canonical absolute paths
	rel       string // dir relative to root, "/"-separated; "." for the root
	planned   bool   // the directory does not exist yet (PlannedFolder)
	// replacing serialises Replace's comparison and rename, so that two
	// edits made from one reading cannot both pass the comparison.
	replacing sync.Mutex
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
	if err := outsideGit(filepath.ToSlash(rel)); err != nil {
		return nil, err
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
	if err := outsideGit(rel); err != nil {
		return nil, err
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

// entries lists the directory: nothing yet for a planned one.
func (f *Folder) entries() ([]os.DirEntry, error) {
	des, err := os.ReadDir(f.dir)
	if f.planned && errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing the ADR directory: %w", withoutPath(err))
	}
	return des, nil
}

// Names lists the names of the directory's entries, in code-unit order.
func (f *Folder) Names() ([]string, error) {
	des, err := f.entries()
	if err != nil {
		return nil, err
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
	des, err := f.entries()
	if err != nil || len(des) == 0 {
		return nil, err
	}
	root, err := f.openRoot()
	if err != nil {
		return nil, fmt.Errorf("reading the ADR directory: %w", err)
	}
	defer root.Close()
	var files []migrate.File
	for _, de := range des {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lower := strings.ToLower(de.Name())
		if !de.Type().IsRegular() || !(strings.HasSuffix(lower, ".md") || strings.HasSuffix(lower, ".markdown")) {
			continue
		}
		shown := f.DisplayPath(de.Name())
		b, _, err := readRegular(root, de.Name(), shown, -1)
		if err != nil {
			return nil, err
		}
		files = append(files, migrate.File{Name: de.Name(), Path: shown, Content: b})
	}
	slices.SortFunc(files, func(a, b migrate.File) int { return jsstring.Compare(a.Name, b.Name) })
	return files, nil
}

// Read returns the bytes of the regular file name.
func (f *Folder) Read(name string) ([]byte, error) {
	root, err := f.file(name, "reading")
	if err != nil {
		return nil, err
	}
	defer root.Close()
	b, _, err := readRegular(root, name, f.DisplayPath(name), -1)
	return b, err
}

// Replace writes content over the regular file name atomically, if it
// still holds old (else an error wrapping ports.ErrChanged): a reader sees
// the old file or the new one, never half of one. The file keeps its
// permissions.
func (f *Folder) Replace(name string, old, content []byte) error {
	f.replacing.Lock()
	defer f.replacing.Unlock()
	root, err := f.file(name, "writing")
	if err != nil {
		return err
	}
	defer root.Close()
	shown := f.DisplayPath(name)
	return writeAtomic(root, name, shown, content, replaceOnly, func() error {
		now, more, err := readRegular(root, name, shown, len(old))
		if err == nil && (more || !bytes.Equal(now, old)) {
			err = fmt.Errorf("%s was changed by someone else since adrkit read it; nothing was written, run the command again: %w",
				shown, ports.ErrChanged)
		}
		return err
	})
}

// Create writes a new file name atomically; if name exists already it
// fails with an error wrapping fs.ErrExist, and nothing is written.
func (f *Folder) Create(name string, content []byte) error {
	return f.write(name, content, createOnly)
}

func (f *Folder) write(name string, content []byte, mode writeMode) error {
	root, err := f.file(name, "writing")
	if err != nil {
		return err
	}
	defer root.Close()
	return writeAtomic(root, name, f.DisplayPath(name), content, mode, nil)
}

// file checks that name is a plain file name and opens the directory to
// read or write it; op says which, for errors.
func (f *Folder) file(name, op string) (*os.Root, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	root, err := f.openRoot()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", op, f.DisplayPath(name), err)
	}
	return root, nil
}

func (f *Folder) openRoot() (*os.Root, error) {
	root, err := os.OpenRoot(f.dir)
	if err != nil {
		return nil, withoutPath(err)
	}
	return root, nil
}

// checkName refuses what is not a plain file name: nothing outside the
// directory is ever named. Nor is .git, which at the repository's root
// is git's directory or a linked worktree's pointer to it.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("%q is not a file name in the ADR directory: %w", name, fs.ErrInvalid)
	}
	return outsideGit(name)
}

func (f *Folder) path(name string) string { return filepath.Join(f.dir, name) }

// Rename renames a file within the directory; it never replaces an
// existing file (an error wrapping fs.ErrExist). A new name that differs
// only in case names the same file on a case-insensitive file system
// (macOS and Windows by default): see renameCase.
func (f *Folder) Rename(from, to string) error {
	if err := errors.Join(checkName(from), checkName(to)); err != nil {
		return err
	}
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

package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/internal/parallel"
)

// manifestName is the file that marks a directory as a site adrkit
// built, listing the files of that build: a later build into the same
// directory removes those files it no longer writes, and never touches
// a directory without it, so that a mistyped OUTDIR loses nothing.
const manifestName = ".adrkit-site"

// ErrNotASite refuses an OUTDIR that holds files but no manifest.
var ErrNotASite = errors.New("is not empty and was not built by adrkit site; choose an empty or new directory")

// WriteDir writes files under dir, creating it if needed. Stale files of
// a previous build are removed; nothing else is.
//
// A site holds no symbolic link, and a directory that does may be a trap:
// a committed site whose decisions/0001-x.html points at
// ~/.ssh/authorized_keys would have it overwritten. So every entry of dir
// is looked at (never followed) before anything is written, and a link
// anywhere in it refuses the build, naming the link. All reads and writes
// go through an os.Root of dir, which cannot leave it even if a link
// appears meanwhile. What is removed is found by walking dir: a regular
// file the previous build's manifest names and this build does not
// write; the manifest's names alone never choose a path.
func WriteDir(dir string, files Files) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating the output directory: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("opening the output directory: %w", err)
	}
	defer root.Close()
	present, err := regularFiles(root, dir)
	if err != nil {
		return err
	}
	entries, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return fmt.Errorf("reading the output directory: %w", err)
	}
	old, err := readManifest(root, len(entries) > 0)
	if err != nil {
		return err
	}
	names := files.Names()
	// Until the build is whole the manifest names both builds' files, so
	// that a build cut short leaves nothing a later one would not remove.
	if err := writeManifest(root, slices.Concat(old, names)); err != nil {
		return err
	}
	dirs := map[string]bool{}
	for _, n := range names {
		dirs[path.Dir(n)] = true
	}
	for _, d := range sortedKeys(dirs) {
		if err := root.MkdirAll(filepath.FromSlash(d), 0o755); err != nil {
			return fmt.Errorf("creating %s: %w", d, err)
		}
	}
	// A thousand pages are a thousand file creations, which cost more
	// than building them: they go on every core.
	errs := make([]error, len(names))
	parallel.For(len(names), 16, func(_, i int) bool {
		if err := root.WriteFile(filepath.FromSlash(names[i]), files[names[i]], 0o644); err != nil {
			errs[i] = fmt.Errorf("writing %s: %w", names[i], err)
			return false
		}
		return true
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, n := range old {
		if _, kept := files[n]; kept || !present[n] {
			continue
		}
		if err := root.Remove(filepath.FromSlash(n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s of the previous build: %w", n, err)
		}
	}
	return writeManifest(root, names)
}

// regularFiles walks root (never following a link) and returns its
// regular files by slash-separated name; a symbolic link, or anything
// else that is neither a file nor a directory, is an error naming it
// (dir is only for the words).
func regularFiles(root *os.Root, dir string) (map[string]bool, error) {
	present := map[string]bool{}
	err := fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("reading the output directory: %w", err)
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link; adrkit site writes and removes nothing through a link: remove it, or choose another OUTDIR",
				filepath.Join(dir, filepath.FromSlash(name)))
		case d.Type().IsRegular():
			present[name] = true
		case !d.IsDir():
			return fmt.Errorf("%s is not a regular file or directory; choose another OUTDIR", filepath.Join(dir, filepath.FromSlash(name)))
		}
		return nil
	})
	return present, err
}

// writeManifest lists names, sorted and without repeats, as root's
// manifest.
func writeManifest(root *os.Root, names []string) error {
	names = slices.Clone(names)
	slices.Sort(names)
	names = slices.Compact(names)
	if err := root.WriteFile(manifestName, []byte(strings.Join(names, "\n")+"\n"), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", manifestName, err)
	}
	return nil
}

// readManifest returns the files of the previous build in root: none
// for a directory without entries, ErrNotASite for one with others.
func readManifest(root *os.Root, hasEntries bool) ([]string, error) {
	data, err := root.ReadFile(manifestName)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !hasEntries:
		return nil, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, ErrNotASite
	case err != nil:
		return nil, fmt.Errorf("reading the output directory's %s: %w", manifestName, err)
	}
	var names []string
	for n := range bytes.SplitSeq(data, []byte("\n")) {
		if len(n) > 0 {
			names = append(names, string(n))
		}
	}
	return slices.Compact(names), nil
}

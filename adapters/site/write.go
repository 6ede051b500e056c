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
// a previous build (its manifest) are removed; nothing else is.
func WriteDir(dir string, files Files) error {
	old, err := readManifest(dir)
	if err != nil {
		return err
	}
	names := files.Names()
	// Until the build is whole the manifest names both builds' files, so
	// that a build cut short leaves nothing a later one would not remove.
	if err := writeManifest(dir, slices.Concat(old, names)); err != nil {
		return err
	}
	dirs := map[string]bool{}
	for _, n := range names {
		dirs[path.Dir(n)] = true
	}
	for _, d := range sortedKeys(dirs) {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return fmt.Errorf("creating %s: %w", d, err)
		}
	}
	// A thousand pages are a thousand file creations, which cost more
	// than building them: they go on every core.
	errs := make([]error, len(names))
	parallel.For(len(names), 16, func(_, i int) bool {
		p := filepath.Join(dir, filepath.FromSlash(names[i]))
		if err := os.WriteFile(p, files[names[i]], 0o644); err != nil {
			errs[i] = fmt.Errorf("writing %s: %w", names[i], err)
			return false
		}
		return true
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, n := range old {
		if _, kept := files[n]; kept || !safeName(n) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(n))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s of the previous build: %w", n, err)
		}
	}
	return writeManifest(dir, names)
}

// writeManifest lists names, sorted and without repeats, as dir's
// manifest.
func writeManifest(dir string, names []string) error {
	names = slices.Clone(names)
	slices.Sort(names)
	names = slices.Compact(names)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating the output directory: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, manifestName), []byte(strings.Join(names, "\n")+"\n"), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", manifestName, err)
	}
	return nil
}

// readManifest returns the files of the previous build in dir: none for
// a missing or empty directory, ErrNotASite for one with other files.
func readManifest(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading the output directory: %w", err)
	case len(entries) == 0:
		return nil, nil
	}
	data, err := os.ReadFile(filepath.Join(dir, manifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotASite
	}
	if err != nil {
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

// safeName keeps a manifest line inside the directory: relative, no
// "..", no empty or dot segments.
func safeName(n string) bool {
	if n == "" || strings.HasPrefix(n, "/") || strings.Contains(n, "\\") || strings.Contains(n, ":") {
		return false
	}
	for seg := range strings.SplitSeq(n, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

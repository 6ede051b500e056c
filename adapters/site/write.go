package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("creating %s: %w", filepath.Dir(n), err)
		}
		if err := writeFile(p, files[n]); err != nil {
			return err
		}
	}
	for _, n := range old {
		if _, kept := files[n]; kept || !safeName(n) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(n))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s of the previous build: %w", n, err)
		}
	}
	return writeFile(filepath.Join(dir, manifestName), []byte(strings.Join(names, "\n")+"\n"))
}

// writeFile replaces p with data through a temporary file beside it, so
// that a server publishing the directory never sees half a page.
func writeFile(p string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(p), ".adrkit-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Base(p), err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", filepath.Base(p), err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", filepath.Base(p), err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", filepath.Base(p), err)
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

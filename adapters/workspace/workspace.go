// Package workspace is the repository as the adrkit command line sees it
// when it writes: where the root and the ADR directory are when no option
// says (found upward from the working directory, as git finds its root,
// with adr-tools' .adr-dir honoured), the Markdown files of the ADR
// directory, atomic writes and renames that never overwrite, and what git
// knows about the directory (the numbers taken on every branch, the day a
// file was first committed).
//
// Only the CLI's authoring commands (migrate, new, status, renumber,
// index, init) write, and only here; the MCP server (adapters/mcp) never
// imports this package, and the binaries' shared entry
// (cmd/internal/entry) uses only FindRoot and FindDir, which read.
package workspace

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/adrkit/adrkit-go/domain/corpus"
)

// DefaultDirs are the ADR directories looked for, in order, when nothing
// names one: adrkit's own, adr-tools' default, MADR's default.
var DefaultDirs = []string{corpus.DefaultDir, "doc/adr", "docs/decisions"}

// AdrDirFile is adr-tools' file naming the ADR directory, relative to the
// directory that holds it.
const AdrDirFile = ".adr-dir"

// FindRoot returns the nearest directory at or above wd that holds a .git
// entry (a directory, or a linked worktree's file), as git finds its
// root; ok is false when there is none.
func FindRoot(wd string) (root string, ok bool) {
	abs, err := filepath.Abs(wd)
	if err != nil {
		return "", false
	}
	for d := abs; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// DirChoice is the ADR directory found for a root, and why.
type DirChoice struct {
	// Dir is the directory, relative to the root, "/"-separated.
	Dir string
	// From says where it came from: the .adr-dir file's path relative to
	// the root, "default" for one of DefaultDirs that exists, or "" when
	// none exists (Dir is then DefaultDirs[0]).
	From string
}

// FindDir picks the ADR directory of the repository at root for a command
// run in wd: the .adr-dir file nearest to wd between wd and root (its
// first line is a path relative to the file's directory), else the first
// of DefaultDirs that exists, else DefaultDirs[0].
func FindDir(root, wd string) (DirChoice, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return DirChoice{}, fmt.Errorf("resolving the repository root: %w", err)
	}
	absWD, err := filepath.Abs(wd)
	if err != nil {
		absWD = absRoot
	}
	if rel, err := filepath.Rel(absRoot, absWD); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		absWD = absRoot
	}
	for d := absWD; ; d = filepath.Dir(d) {
		file := filepath.Join(d, AdrDirFile)
		if target, ok, err := readAdrDir(file); err != nil {
			return DirChoice{}, err
		} else if ok {
			dir := filepath.Join(d, filepath.FromSlash(target))
			rel, err := filepath.Rel(absRoot, dir)
			if err != nil {
				return DirChoice{}, fmt.Errorf("%s names %q: %w", AdrDirFile, target, err)
			}
			from, _ := filepath.Rel(absRoot, file)
			return DirChoice{Dir: filepath.ToSlash(rel), From: filepath.ToSlash(from)}, nil
		}
		if d == absRoot || filepath.Dir(d) == d {
			break
		}
	}
	for _, d := range DefaultDirs {
		if st, err := os.Stat(filepath.Join(absRoot, filepath.FromSlash(d))); err == nil && st.IsDir() {
			return DirChoice{Dir: d, From: "default"}, nil
		}
	}
	return DirChoice{Dir: DefaultDirs[0]}, nil
}

// readAdrDir reads the first non-empty line of an .adr-dir file.
func readAdrDir(file string) (string, bool, error) {
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("reading %s: %w", AdrDirFile, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			return line, true, nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", false, fmt.Errorf("reading %s: %w", AdrDirFile, err)
	}
	return "", false, nil
}

package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutsideRepository is the error of a command-line path that does not
// name a place inside the repository.
var ErrOutsideRepository = errors.New("not a path inside the repository")

// RepoPath turns a FILE argument, as a shell hands it over, into the
// repository path that affects patterns and markers are matched against
// ("/"-separated, relative to root). wd is the directory the command was
// started in (root itself when --cwd named the repository).
//
//   - An absolute path inside the repository is made relative to root;
//     one outside is ErrOutsideRepository.
//   - From the root, a relative path is kept as written ("src/../src/x.go"
//     stays so, as the reference's command line matches it) unless it
//     climbs out of the repository.
//   - From a subdirectory, a relative path is taken from wd, as a shell
//     means it; when no such file exists but the path exists from the
//     root, it is the repository path already (what git diff --name-only
//     prints in a subdirectory). A file that exists nowhere yet (one about
//     to be created) is taken from wd.
func RepoPath(root, wd, arg string) (string, error) {
	if arg == "" {
		return "", fmt.Errorf("an empty path: %w", ErrOutsideRepository)
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("resolving the repository root: %w", err)
	}
	absWD, err := filepath.Abs(wd)
	if err != nil {
		absWD = absRoot
	}
	if filepath.IsAbs(arg) {
		rel, ok := within(absRoot, arg)
		if !ok {
			return "", fmt.Errorf("%q: %w %s", arg, ErrOutsideRepository, absRoot)
		}
		return rel, nil
	}
	inside := func(p string) (string, bool) { return within(absRoot, filepath.Join(absWD, p)) }
	fromRoot := func() (string, bool) {
		if _, ok := within(absRoot, filepath.Join(absRoot, arg)); !ok {
			return "", false
		}
		return filepath.ToSlash(arg), true
	}
	if sameDir(absWD, absRoot) {
		if p, ok := fromRoot(); ok {
			return p, nil
		}
		return "", fmt.Errorf("%q: %w %s", arg, ErrOutsideRepository, absRoot)
	}
	rel, ok := inside(arg)
	if ok && exists(filepath.Join(absWD, arg)) {
		return rel, nil
	}
	if p, rootOK := fromRoot(); rootOK && exists(filepath.Join(absRoot, arg)) {
		return p, nil
	}
	if !ok {
		return "", fmt.Errorf("%q (from %s): %w %s", arg, absWD, ErrOutsideRepository, absRoot)
	}
	return rel, nil
}

// within is path relative to root, "/"-separated, when path is root or
// below it. A path reached through a symbolic link to the root (a macOS
// /tmp, a symlinked home) is compared by its resolved form too.
func within(root, path string) (string, bool) {
	if rel, ok := lexicallyWithin(root, path); ok {
		return rel, true
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false
	}
	// Resolve the longest part of path that exists; the rest (a file
	// about to be created) is appended as written.
	dir, rest := filepath.Clean(path), ""
	for {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return lexicallyWithin(realRoot, filepath.Join(real, rest))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

func lexicallyWithin(root, path string) (string, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// EditPaths makes the paths an agent's tool names (absolute, or relative
// to base, as a shell gives them) the repository paths the edit writes:
// each path as RepoPath makes it and, for a symbolic link, the file
// inside the repository it leads to, which the edit changes. outside are
// the base names of the paths that are not inside the repository.
func EditPaths(root, base string, paths []string) (files, outside []string) {
	for _, p := range paths {
		rel, err := RepoPath(root, base, p)
		if err != nil || rel == "." {
			outside = append(outside, filepath.Base(p))
			continue
		}
		files = append(files, rel)
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(base, p)
		}
		if target, ok := linkTarget(root, abs); ok && target != rel {
			files = append(files, target)
		}
	}
	return files, outside
}

// linkTarget is, for a file path that is a symbolic link, its target
// made relative to root ("/"-separated) when the target lies inside the
// repository.
func linkTarget(root, path string) (string, bool) {
	info, err := os.Lstat(path)
	if err != nil || info.Mode()&os.ModeSymlink == 0 {
		return "", false
	}
	realRoot, err1 := filepath.EvalSymlinks(root)
	target, err2 := filepath.EvalSymlinks(path)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, ok := lexicallyWithin(realRoot, target)
	return rel, ok && rel != "."
}

// InTree reports whether path (absolute) lies in the working tree at
// root however it gets there: as written, or once every symbolic link
// on its way is followed, a link to a place that does not exist yet
// included (where creating path would write). A path whose links
// cannot be followed (a loop, an unreadable link) counts as inside: the
// caller is about to refuse to write there.
func InTree(root, path string) bool {
	if _, ok := within(root, path); ok {
		return true
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	real, ok := followLinks(path)
	if !ok {
		return true
	}
	_, in := lexicallyWithin(realRoot, real)
	return in
}

// followLinks is path with every symbolic link on its way replaced by
// its target, whether the target exists or not (realpath -m); false
// past 64 links or for a link that cannot be read.
func followLinks(path string) (string, bool) {
	sep := string(filepath.Separator)
	top := filepath.VolumeName(path) + sep
	done, rest := top, strings.Split(filepath.Clean(path)[len(top)-1:], sep)
	for links := 0; len(rest) > 0; {
		name := rest[0]
		rest = rest[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			done = filepath.Dir(done)
			continue
		}
		next := filepath.Join(done, name)
		info, err := os.Lstat(next)
		if err != nil || info.Mode()&os.ModeSymlink == 0 {
			done = next
			continue
		}
		target, err := os.Readlink(next)
		if links++; err != nil || links > 64 {
			return "", false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(done, target)
		}
		t := filepath.Clean(target)
		done, rest = filepath.VolumeName(t)+sep, append(strings.Split(t[len(filepath.VolumeName(t)):], sep), rest...)
	}
	return done, true
}

package hooks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutside is Relative's error for a path outside the repository.
var ErrOutside = errors.New("not inside the repository")

// Relative makes path, as a tool named it (absolute, or relative to
// base), relative to root ("/"-separated), the form affects patterns and
// @adr markers are matched in. root and base are absolute. A path that
// is outside root as written may be inside it once symbolic links are
// resolved (a root reached through a link, /tmp and /private/tmp): both
// are tried. A path that is itself a symbolic link to a file inside root
// also yields the link's target, which is the file the tool will write.
// The result is nil with ErrOutside when the path is not inside root.
func Relative(root, base, path string) ([]string, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(base, path)
	}
	path = filepath.Clean(path)
	rel, ok := inside(root, path)
	if !ok {
		realRoot, err1 := filepath.EvalSymlinks(root)
		realPath, err2 := resolveExisting(path)
		if err1 != nil || err2 != nil {
			return nil, ErrOutside
		}
		if rel, ok = inside(realRoot, realPath); !ok {
			return nil, ErrOutside
		}
	}
	out := []string{rel}
	if info, err := os.Lstat(path); err == nil && info.Mode()&os.ModeSymlink != 0 {
		realRoot, err1 := filepath.EvalSymlinks(root)
		target, err2 := filepath.EvalSymlinks(path)
		if err1 == nil && err2 == nil {
			if t, ok := inside(realRoot, target); ok && t != rel {
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// inside is path relative to root, "/"-separated, when it lies strictly
// inside root (compared lexically).
func inside(root, path string) (string, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// resolveExisting resolves the symbolic links of the longest part of
// path that exists, and appends the rest as written: a file being
// created does not exist yet, but its directory may be reached through a
// link.
func resolveExisting(path string) (string, error) {
	var rest []string
	p := path
	for {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				real = filepath.Join(real, rest[i])
			}
			return real, nil
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", ErrOutside
		}
		rest = append(rest, filepath.Base(p))
		p = parent
	}
}

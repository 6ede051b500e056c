package hooks

import (
	"os"
	"path/filepath"
	"strings"
)

// LinkTarget is, for a file path that is a symbolic link, its target
// made relative to root ("/"-separated) when the target lies inside the
// repository: the file a tool writing path will change. The path itself
// is made a repository path as the command line makes any path
// (workspace.RepoPath); this is what a hook adds to it.
func LinkTarget(root, path string) (string, bool) {
	info, err := os.Lstat(path)
	if err != nil || info.Mode()&os.ModeSymlink == 0 {
		return "", false
	}
	realRoot, err1 := filepath.EvalSymlinks(root)
	target, err2 := filepath.EvalSymlinks(path)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(realRoot, target)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

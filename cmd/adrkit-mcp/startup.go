package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// startupMessage words a start-up failure on one line: the contract's
// reason sentence, the path it concerns, and what to do. For a git
// revision the cause says which part of the revision lookup failed (e.g.
// an unknown tag), which the reason sentence alone cannot. The exit status
// and the empty stdout are the contract's; the wording is ours.
func startupMessage(err error, cwd, dir, rev string) string {
	var u *ports.UnavailableError
	if !errors.As(err, &u) {
		return err.Error()
	}
	msg := u.Reason.Message()
	if rev != "" {
		if u.Err != nil {
			return msg + " (" + u.Err.Error() + ")"
		}
		return msg
	}
	root := cwd
	if root == "" && u.Reason == corpus.RootNotFound {
		return msg + ` --cwd (or ADRKIT_MCP_CWD) is "", which names no directory; give the repository root.`
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if dir == "" {
		dir = "docs/adr"
	}
	dirPath := dir
	if !filepath.IsAbs(dirPath) {
		dirPath = filepath.Join(root, dir)
	}
	switch u.Reason {
	case corpus.RootNotFound:
		return fmt.Sprintf("%s No directory %q; start adrkit-mcp in the repository, or point --cwd (or ADRKIT_MCP_CWD) at its root.", msg, root)
	case corpus.RootNotDirectory:
		return fmt.Sprintf("%s %q is a file; --cwd (or ADRKIT_MCP_CWD) must name the repository's root directory.", msg, root)
	case corpus.RootNotReadable:
		return fmt.Sprintf("%s %q cannot be read; check its permissions.", msg, root)
	case corpus.RootNotGit:
		return fmt.Sprintf("%s %q has no .git entry; point --cwd (or ADRKIT_MCP_CWD) at the repository root, the directory that holds .git.", msg, root)
	case corpus.DirNotFound:
		return fmt.Sprintf("%s No directory %q; create it, or name the ADR directory with --dir (or ADRKIT_MCP_DIR), relative to the root (adr-tools keeps doc/adr, MADR docs/decisions).", msg, dirPath)
	case corpus.DirNotDirectory:
		return fmt.Sprintf("%s %q is a file; --dir (or ADRKIT_MCP_DIR) must name a directory.", msg, dirPath)
	case corpus.DirNotReadable:
		return fmt.Sprintf("%s %q cannot be listed; check its permissions.", msg, dirPath)
	case corpus.DirOutsideRoot:
		return fmt.Sprintf("%s %q is not inside the root %q; --dir must stay inside the repository (no \"..\" above it, no link out of it).", msg, dirPath, root)
	}
	return msg
}

package entry

import (
	"context"
	"fmt"

	"github.com/adrkit/adrkit-go/adapters/mcp"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// ProjectDirVar is the variable Claude Code sets to the project's
// directory for the commands of a plugin, its MCP servers included: a
// server started elsewhere finds its repository there (ADR 0044).
const ProjectDirVar = "CLAUDE_PROJECT_DIR"

// nowhere is the corpus reader of a server that has found no repository
// yet: every call is answered corpus-unavailable (root-not-git), with
// why as its message.
type nowhere struct{ why string }

// Open refuses: there is nothing to read.
func (n nowhere) Open(context.Context) (ports.ADRDir, error) {
	return nil, &ports.UnavailableError{Reason: corpus.RootNotGit, Why: n.why}
}

// unlocated is the service of a server started outside any repository
// while the client has named none: its tools validate their arguments as
// always, then answer that nothing can be read and why (the client's
// part in one clause), and what to do instead.
func (l Location) unlocated(s Surface, clientPart string) *app.Service {
	why := "No Git repository here: the server started outside a repository, and " + clientPart +
		" Start the server inside the repository, or name its root with " + l.Env.option("cwd") + "."
	return l.over(nowhere{why: why}, s)
}

// offersNoRoots is the client's part while it has named no workspace
// root: it has none (no roots capability, or the 2026-07-28 revision,
// which has none), or has not been asked yet.
const offersNoRoots = "the client has named no workspace root (MCP roots) to find one in."

// fromRoots finds the corpus among the client's workspace roots: the
// first of them at or below a repository's root is served as if the
// server had started there (chosen is told its root); when none is, the
// tools say why.
func (l Location) fromRoots(s Surface, chosen func(root string)) func(context.Context, mcp.ClientRoots) mcp.ToolService {
	return func(_ context.Context, r mcp.ClientRoots) mcp.ToolService {
		for _, dir := range r.Dirs {
			if at := l.Within(dir); !at.Unlocated() {
				chosen(at.Root)
				svc, _ := at.Service(s)
				return svc
			}
		}
		switch n := len(r.Dirs) + r.Skipped; {
		case r.Err != nil:
			return l.unlocated(s, "the client did not list its workspace roots (MCP roots/list).")
		case n == 0:
			return l.unlocated(s, "the client lists no workspace roots (MCP roots).")
		case r.Skipped > 0:
			return l.unlocated(s, fmt.Sprintf("none of the client's %d workspace roots (MCP roots) is inside one (%d of them not a local directory).", n, r.Skipped))
		default:
			return l.unlocated(s, fmt.Sprintf("none of the client's %d workspace roots (MCP roots) is inside one.", n))
		}
	}
}

package hostconfig

import (
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/agenthost"
)

// codexTable is the header of our server's table in Codex's config.toml.
const codexTable = "[mcp_servers." + ServerName + "]"

// codexSnippet is the TOML table of the adrkit server for Codex.
func codexSnippet(l Launch) string {
	args := l.ServerArgs(agenthost.Codex)
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = strconv.Quote(a)
	}
	return codexTable + "\ncommand = " + strconv.Quote(l.command()) + "\nargs = [" + strings.Join(quoted, ", ") + "]\n"
}

// mergeCodexTOML handles .codex/config.toml without a TOML library: no
// file gets the table; a file that already defines the server (as a
// table, or under mcp_servers in any other spelling) is left as it is;
// any other file gets the table appended, since appending a new table
// to a TOML document keeps every byte of it (comments included), unless
// the file defines mcp_servers in a form a new table would collide with,
// where the snippet is printed instead.
func mergeCodexTOML(t Target, l Launch, current []byte, exists bool) Result {
	snippet := codexSnippet(l)
	added := []string{"mcp_servers." + ServerName}
	if !exists || strings.TrimSpace(string(current)) == "" {
		return Result{Target: t, Outcome: Create, Content: []byte(snippet), Added: added}
	}
	text := string(current)
	for _, line := range strings.Split(text, "\n") {
		s := strings.TrimSpace(line)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		compact := strings.Join(strings.Fields(s), "")
		switch {
		case compact == codexTable, strings.HasPrefix(compact, "[mcp_servers."+ServerName+"."),
			compact == `[mcp_servers."`+ServerName+`"]`:
			return Result{Target: t, Outcome: Unchanged}
		case strings.HasPrefix(compact, "mcp_servers=") || strings.HasPrefix(compact, "mcp_servers."+ServerName) ||
			strings.HasPrefix(compact, ServerName+"=") || strings.HasPrefix(compact, ServerName+"."):
			// An inline table or dotted keys: a new [mcp_servers.adrkit]
			// table could redefine what is there.
			return Result{Target: t, Outcome: Manual, Snippet: snippet,
				Reason: "it defines mcp_servers (or an adrkit key) inline, which a new table could collide with"}
		}
	}
	if strings.ContainsRune(text, '\r') || !strings.HasSuffix(text, "\n") {
		// Appending needs a line of its own; keep the file's line ends.
		nl := "\n"
		if strings.Contains(text, "\r\n") {
			nl = "\r\n"
		}
		body := strings.ReplaceAll(snippet, "\n", nl)
		sep := nl
		if !strings.HasSuffix(text, nl) {
			sep = nl + nl
		}
		return Result{Target: t, Outcome: Update, Content: []byte(text + sep + body), Added: added}
	}
	return Result{Target: t, Outcome: Update, Content: []byte(text + "\n" + snippet), Added: added}
}

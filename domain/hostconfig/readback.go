package hostconfig

import (
	"encoding/json"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/agenthost"
)

// Found is what a host's file holds of adrkit, as "adrkit doctor" reads
// it back.
type Found struct {
	// Server is the adrkit MCP server entry's command line (command,
	// then args); nil when the file has none.
	Server []string
	// Hooks are the hook command lines that run "adrkit hook", in file
	// order, each once.
	Hooks []string
	// Unreadable says why the file could not be read (comments, not
	// JSON...): it was then searched as text only.
	Unreadable string
}

// ReadBack reads what t's file (content) holds of adrkit.
func ReadBack(t Target, content []byte) Found {
	if strings.HasSuffix(t.Path, ".toml") {
		return Found{Server: codexServer(string(content))}
	}
	var f Found
	var v any
	if err := json.Unmarshal(content, &v); err != nil {
		f.Unreadable = describeParse(err)
		// Still find the hook lines a JSONC file names.
		for _, line := range strings.Split(string(content), "\n") {
			for _, q := range quoted(line) {
				if IsHookCommand(q) && !slices.Contains(f.Hooks, q) {
					f.Hooks = append(f.Hooks, q)
				}
			}
		}
		return f
	}
	if t.Kind.HasServer() {
		key := "mcpServers"
		if t.Host == agenthost.VSCode {
			key = "servers"
		}
		if m, ok := v.(map[string]any); ok {
			if servers, ok := m[key].(map[string]any); ok {
				if e, ok := servers[ServerName].(map[string]any); ok {
					if c, ok := e["command"].(string); ok {
						f.Server = []string{c}
						args, _ := e["args"].([]any)
						for _, a := range args {
							if s, ok := a.(string); ok {
								f.Server = append(f.Server, s)
							}
						}
					}
				}
			}
		}
	}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			if IsHookCommand(x) && !slices.Contains(f.Hooks, x) {
				f.Hooks = append(f.Hooks, x)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(x[k])
			}
		}
	}
	if t.Kind.HasHooks() {
		walk(v)
	}
	return f
}

// quoted returns the JSON string literals on one line of text.
func quoted(line string) []string {
	var out []string
	for i := 0; i < len(line); i++ {
		if line[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(line) && line[j] != '"' {
			if line[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(line) {
			break
		}
		if s, err := strconv.Unquote(line[i : j+1]); err == nil {
			out = append(out, s)
		}
		i = j
	}
	return out
}

// IsHookCommand reports whether a command line runs "adrkit hook": its
// first word names an adrkit executable, its second is hook.
func IsHookCommand(line string) bool {
	words := SplitCommand(line)
	return len(words) >= 2 && words[1] == "hook" && IsAdrkitExecutable(words[0])
}

// IsAdrkitExecutable reports whether a command's first word names the
// adrkit command line: a file name with adrkit in it (adrkit, adrkit.exe,
// a renamed build such as adrkit-dev), but not the adrkit-mcp server,
// which has no subcommands.
func IsAdrkitExecutable(word string) bool {
	base := strings.TrimSuffix(path.Base(strings.ReplaceAll(word, `\`, "/")), ".exe")
	return strings.Contains(base, "adrkit") && !strings.Contains(base, "adrkit-mcp")
}

// SplitCommand splits a command line into words the way a POSIX shell
// does for the simple lines hooks hold: white space separates, double
// and single quotes group, a backslash escapes the next character (inside
// double quotes only $, `, " and \, so a Windows path keeps its
// backslashes).
func SplitCommand(line string) []string {
	var words []string
	var cur strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == 0 && (c == ' ' || c == '\t'):
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case quote == 0 && (c == '"' || c == '\''):
			quote, in = c, true
		case c == quote:
			quote = 0
		case c == '\\' && i+1 < len(line) && (quote == 0 || quote == '"' && strings.IndexByte("$`\"\\", line[i+1]) >= 0):
			i++
			cur.WriteByte(line[i])
			in = true
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// codexServer reads the adrkit table of a Codex config.toml: its command
// and args, when both are written as plain strings.
func codexServer(text string) []string {
	inTable := false
	var cmd []string
	var args []string
	for _, line := range strings.Split(text, "\n") {
		s := strings.TrimSpace(line)
		if strings.HasPrefix(s, "[") {
			compact := strings.Join(strings.Fields(s), "")
			inTable = compact == codexTable || compact == `[mcp_servers."`+ServerName+`"]`
			continue
		}
		if !inTable {
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "command":
			if c, err := strconv.Unquote(v); err == nil {
				cmd = []string{c}
			}
		case "args":
			_ = json.Unmarshal([]byte(v), &args)
		}
	}
	if cmd == nil {
		return nil
	}
	return append(cmd, args...)
}

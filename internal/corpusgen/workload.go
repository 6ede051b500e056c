package corpusgen

import (
	"encoding/json"
	"strings"
)

// Call is one tool call of the benchmark workload.
type Call struct {
	Tool string
	// Args is the JSON arguments object.
	Args json.RawMessage
}

// Workload is the tool call the benchmarks time for each of the four
// tools on an n-record corpus. Each one is typical rather than
// best-case: a search for a word in many titles, tags and bodies; a
// lookup of a record in the middle; the context of a handful of files
// (path matchers fire, negations suppress, package and entity matchers
// raise findings); and the first page of superseded records.
func Workload(n int) []Call {
	files, _ := json.Marshal(ContextFiles())
	return []Call{
		{Tool: "get_decision", Args: json.RawMessage(`{"ref":"` + ID(n/2, n) + `"}`)},
		{Tool: "get_decision_context", Args: json.RawMessage(`{"files":` + string(files) + `}`)},
		{Tool: "list_superseded", Args: json.RawMessage(`{}`)},
		{Tool: "search_decisions", Args: json.RawMessage(`{"query":"PostgreSQL"}`)},
	}
}

// PathPatterns returns the path-matcher patterns of a generated file, in
// file order, for benchmarks of the glob matcher that should not depend
// on the frontmatter parser.
func PathPatterns(file []byte) []string {
	var out []string
	lines := strings.Split(string(file), "\n")
	for i, l := range lines {
		if l != "  - type: path" || i+1 >= len(lines) {
			continue
		}
		p, ok := strings.CutPrefix(lines[i+1], "    pattern: ")
		if !ok {
			continue
		}
		if len(p) >= 2 && p[0] == '"' {
			p = p[1 : len(p)-1]
		}
		out = append(out, p)
	}
	return out
}

package mcp

import (
	"embed"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adrkit/adrkit-go/app"
)

// The tool schemas are part of the contract (agents and clients validate
// against them), so they live as JSON files next to the code rather than
// being inferred from Go types: inference would drift with every struct
// change and cannot express the zod-shaped unions the outputs use.
//
//go:embed schemas/*.json
var schemaFiles embed.FS

// toolInfo is the catalogue entry of one tool: what tools/list advertises.
type toolInfo struct {
	title       string
	description string
}

// catalogue holds our own wording for each tool. Titles and descriptions
// are written for an agent deciding which tool to call.
var catalogue = map[string]toolInfo{
	app.ToolGetDecision: {
		title: "Fetch a decision record",
		description: "Look up one architecture decision record by its local id (for example \"0042\") and " +
			"return its full typed frontmatter and Markdown body. When no record has the id, several " +
			"records share it, or the ref names another decision log, the answer says so with a " +
			"not-found, ambiguous-local-id or federated-log-unavailable outcome instead. References " +
			"to other decisions are returned as written, never followed.",
	},
	app.ToolGetDecisionContext: {
		title: "Decisions that govern files",
		description: "For repository-relative file paths, report the decisions whose affects matchers " +
			"cover them: accepted decisions that govern the paths, drafts and proposals that would, " +
			"and rejected, superseded or deprecated records that once did. The paths are only " +
			"matched against the corpus's patterns; the files themselves are never opened.",
	},
	app.ToolListSuperseded: {
		title: "Superseded decisions and their replacements",
		description: "List the superseded decisions and, for each, what its supersededBy reference " +
			"points at in this corpus: a resolved record, a missing one, several candidates (counted, " +
			"not listed) or a record in another decision log. Only the direct replacement is " +
			"reported, never a chain.",
	},
	app.ToolGetSupersessionChain: {
		title: "Supersession chain and whether to act on it",
		description: "Walk the supersedes/supersededBy lineage of one decision (at most 12 steps each way) and " +
			"return it oldest first with a verdict: current (the newest record is accepted and nothing " +
			"replaces it) or hold, with a typed reason (ungoverned, rejected, deprecated, cycle, " +
			"truncated, dangling, ambiguous, not-observed) and one sentence saying what to do. Call it " +
			"before acting on a decision that may have been replaced. Missing, ambiguous and " +
			"log-qualified refs are answered as get_decision answers them.",
	},
	app.ToolListDecisionChanges: {
		title: "Feed of decision changes from git history",
		description: "List record-level changes (added, status-changed, edited, removed, renamed) from the " +
			"first-parent git history of the ADR directory, oldest first, with commit and time. Without " +
			"since the answer is empty and its cursor marks the head: poll with that cursor to receive " +
			"only what lands afterwards. since \"0_\" replays the whole history. A cursor whose commit was " +
			"rewritten away gives a restart outcome.",
	},
	app.ToolSearchDecisions: {
		title: "Search decision records",
		description: "Find decisions whose id, title, tags or Markdown body contain the query text " +
			"(trimmed, case- and width-folded literal match; no ranking, no model). Superseded, " +
			"rejected and deprecated records are included unless filtered out. Narrow the search " +
			"with status or scope (any listed value) and tags (all listed tags). Returns short " +
			"summaries; use get_decision for a full record.",
	},
}

// annotations are the same for every tool: each one only reads the local
// corpus and answers the same way until the corpus changes.
func annotations() *sdk.ToolAnnotations {
	no := false
	return &sdk.ToolAnnotations{
		ReadOnlyHint:    true,
		DestructiveHint: &no,
		IdempotentHint:  true,
		OpenWorldHint:   &no,
	}
}

// toolDefinition builds the tools/list entry for name from the catalogue
// and the embedded schemas.
func toolDefinition(name string) (*sdk.Tool, error) {
	info, ok := catalogue[name]
	if !ok {
		return nil, fmt.Errorf("tool %q has no catalogue entry", name)
	}
	in, err := readSchema(name + ".input.json")
	if err != nil {
		return nil, err
	}
	out, err := readSchema(name + ".output.json")
	if err != nil {
		return nil, err
	}
	return &sdk.Tool{
		Name:         name,
		Title:        info.title,
		Description:  info.description,
		InputSchema:  in,
		Annotations:  annotations(),
		OutputSchema: out,
	}, nil
}

// readSchema returns one embedded schema, checked to be a JSON object so a
// broken file fails at start-up rather than on the wire.
func readSchema(file string) (json.RawMessage, error) {
	data, err := schemaFiles.ReadFile("schemas/" + file)
	if err != nil {
		return nil, fmt.Errorf("reading embedded schema %s: %w", file, err)
	}
	var probe map[string]any
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("embedded schema %s is not a JSON object: %w", file, err)
	}
	return json.RawMessage(data), nil
}

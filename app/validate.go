package app

import (
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// validationPrefix starts the text of every refused call; what follows it
// is our own wording.
func validationPrefix(tool string) string {
	return "Input validation error: Invalid arguments for tool " + tool + ": "
}

// refusal is the isError answer for a refused argument set.
func refusal(tool string, issues []issue) Result {
	parts := make([]string, len(issues))
	for i, is := range issues {
		parts[i] = is.String()
	}
	return Result{Text: validationPrefix(tool) + strings.Join(parts, "; "), IsError: true}
}

var (
	statusRule = listRule{min: 1, max: maxStatusItems, elem: checkStatus, enum: true, unique: true,
		elemType: "must be one of " + statusList}
	tagsRule = listRule{min: 1, max: maxTagItems, elem: checkTag, unique: true,
		elemType: "must be a string"}
	scopeRule = listRule{min: 1, max: maxScopeItems, elem: checkScope, enum: true, unique: true,
		elemType: "must be one of " + scopeList}
	filesRule = listRule{required: true, min: 1, max: maxFileItems, elem: checkFile,
		elemType: "must be a string"}
	// argFilesRule is filesRule for ContextInput.CommandLine: a file
	// there is whatever the shell passed, so only an empty one is refused.
	argFilesRule = listRule{required: true, min: 1, max: maxFileItems, elem: checkArgFile,
		elemType: "must be a string"}
)

// readSearch reads search_decisions arguments in schema property order:
// query, status, tags, scope, then the pagination fields.
func readSearch(r *argReader) SearchInput {
	var in SearchInput
	if from, ok := r.from.(SearchInput); ok && from.All {
		// A listing (the command line's search without a query) has no
		// query to read.
		in.All = true
		r.lookup("query")
	} else if q := r.str("query", true, checkQuery); q != nil {
		in.Query = *q
	}
	if vals := r.list("status", statusRule); vals != nil {
		in.Status = make([]adr.Status, len(vals))
		for i, v := range vals {
			in.Status[i] = adr.Status(v)
		}
	}
	in.Tags = r.list("tags", tagsRule)
	if vals := r.list("scope", scopeRule); vals != nil {
		in.Scope = make([]adr.Scope, len(vals))
		for i, v := range vals {
			in.Scope[i] = adr.Scope(v)
		}
	}
	in.Page = r.page()
	return in
}

// readGet reads get_decision arguments: ref, then pagination.
func readGet(r *argReader) GetInput {
	var in GetInput
	if ref := r.str("ref", true, checkRef); ref != nil {
		in.Ref = *ref
	}
	in.Page = r.page()
	return in
}

// readContext reads get_decision_context arguments: files, then
// pagination.
func readContext(r *argReader) ContextInput {
	from, _ := r.from.(ContextInput)
	rule := filesRule
	if from.CommandLine {
		rule = argFilesRule
	}
	in := ContextInput{Files: r.list("files", rule), Markers: from.Markers, CommandLine: from.CommandLine}
	in.Page = r.page()
	return in
}

// readSuperseded reads list_superseded arguments: pagination only.
func readSuperseded(r *argReader) SupersededInput { return SupersededInput{Page: r.page()} }

func stringsOf[T ~string](vals []T) []string {
	if vals == nil {
		return nil
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = string(v)
	}
	return out
}

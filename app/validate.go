package app

import (
	"strconv"
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

// parseSearch validates search_decisions arguments in schema property
// order: query, status, tags, scope, then the pagination fields.
func parseSearch(set argSet) (SearchInput, []issue) {
	r := newArgReader(set)
	var in SearchInput
	if q := r.str("query", true, checkQuery); q != nil {
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
	return in, r.finish()
}

// parseGet validates get_decision arguments: ref, then pagination.
func parseGet(set argSet) (GetInput, []issue) {
	r := newArgReader(set)
	var in GetInput
	if ref := r.str("ref", true, checkRef); ref != nil {
		in.Ref = *ref
	}
	in.Page = r.page()
	return in, r.finish()
}

// parseContext validates get_decision_context arguments: files, then
// pagination.
func parseContext(set argSet) (ContextInput, []issue) {
	r := newArgReader(set)
	var in ContextInput
	in.Files = r.list("files", filesRule)
	in.Page = r.page()
	return in, r.finish()
}

// parseSuperseded validates list_superseded arguments: pagination only.
func parseSuperseded(set argSet) (SupersededInput, []issue) {
	r := newArgReader(set)
	in := SupersededInput{Page: r.page()}
	return in, r.finish()
}

// The typed checks below let callers that build inputs in Go (the command
// line) get the same refusals as JSON callers. They apply the same rules
// to values that are already well-typed.

func (p Page) issues() []issue {
	var out []issue
	add := func(path string, msgs []string) {
		for _, m := range msgs {
			out = append(out, issue{path: path, msg: m})
		}
	}
	if p.Cursor != nil {
		add("cursor", checkCursor(*p.Cursor))
	}
	if p.Limit != 0 {
		add("limit", checkLimit(float64(p.Limit), strconv.Itoa(p.Limit)))
	}
	if p.FindingsCursor != nil {
		add("findingsCursor", checkCursor(*p.FindingsCursor))
	}
	if p.FindingsLimit != 0 {
		add("findingsLimit", checkLimit(float64(p.FindingsLimit), strconv.Itoa(p.FindingsLimit)))
	}
	return out
}

// typedList applies rule to a list held in Go; nil is absent.
func typedList(name string, vals []string, rule listRule) []issue {
	if vals == nil {
		if rule.required {
			return []issue{{path: name, msg: "is required"}}
		}
		return nil
	}
	var out []issue
	typed := true
	for i, v := range vals {
		msgs := rule.elem(v)
		if len(msgs) > 0 && rule.enum {
			typed = false
		}
		for _, m := range msgs {
			out = append(out, issue{path: name + "." + strconv.Itoa(i), msg: m})
		}
	}
	for _, m := range checkCount(len(vals), rule.min, rule.max) {
		out = append(out, issue{path: name, msg: m})
	}
	if rule.unique && typed {
		for _, m := range checkUnique(vals) {
			out = append(out, issue{path: name, msg: m})
		}
	}
	return out
}

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

func (in SearchInput) issues() []issue {
	var out []issue
	if !in.All {
		for _, m := range checkQuery(in.Query) {
			out = append(out, issue{path: "query", msg: m})
		}
	}
	out = append(out, typedList("status", stringsOf(in.Status), statusRule)...)
	out = append(out, typedList("tags", in.Tags, tagsRule)...)
	out = append(out, typedList("scope", stringsOf(in.Scope), scopeRule)...)
	return append(out, in.Page.issues()...)
}

func (in GetInput) issues() []issue {
	var out []issue
	for _, m := range checkRef(in.Ref) {
		out = append(out, issue{path: "ref", msg: m})
	}
	return append(out, in.Page.issues()...)
}

func (in ContextInput) issues() []issue {
	rule := filesRule
	if in.CommandLine {
		rule = argFilesRule
	}
	return append(typedList("files", in.Files, rule), in.Page.issues()...)
}

func (in SupersededInput) issues() []issue { return in.Page.issues() }

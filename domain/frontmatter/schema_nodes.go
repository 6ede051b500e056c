package frontmatter

import (
	"sync"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// The schema is data: one tree of nodes, walked by validation.check. It
// mirrors corpus.md §7 field by field, in declaration order, because that
// order is both the issue order and the key order of the parsed value.

type kind uint8

const (
	kindString kind = iota
	kindEnum
	kindNumber
	kindBool
	kindArray
	kindObject
	kindRecord
)

// format is a string's shape check beyond its type and length.
type format uint8

const (
	formatNone format = iota
	formatSchemaVersion
	formatID
	formatSlug
	formatIdentity
	formatRef
	formatDate
	formatDateTime
	formatURL
)

type presence uint8

const (
	optional presence = iota
	required
	defaulted
)

type node struct {
	kind kind

	// Strings: length bounds in UTF-16 code units (0 = none) and format.
	minLen, maxLen int
	format         format

	// Enums: the allowed values, in declaration order.
	values []string

	// Numbers.
	integer        bool
	hasMin, hasMax bool
	min, max       float64

	// Arrays.
	elem   *node
	unique bool

	// Objects (always strict) and records (free keys, one value schema).
	fields []field
	value  *node
}

type field struct {
	name     string
	node     *node
	presence presence
	// def builds the value inserted when a defaulted field is absent; a
	// fresh value each time, as the parsed value is handed out.
	def func() any
}

func (n *node) hasField(name string) bool {
	for _, f := range n.fields {
		if f.name == name {
			return true
		}
	}
	return false
}

func str() *node                  { return &node{kind: kindString} }
func strFormat(f format) *node    { return &node{kind: kindString, format: f} }
func enum(values ...string) *node { return &node{kind: kindEnum, values: values} }
func boolean() *node              { return &node{kind: kindBool} }
func array(elem *node) *node      { return &node{kind: kindArray, elem: elem} }
func uniqueArray(elem *node) *node {
	return &node{kind: kindArray, elem: elem, unique: true}
}
func object(fields ...field) *node { return &node{kind: kindObject, fields: fields} }

func number(min, max float64) *node {
	return &node{kind: kindNumber, hasMin: true, min: min, hasMax: true, max: max}
}

func integerAtLeast(min float64) *node {
	return &node{kind: kindNumber, integer: true, hasMin: true, min: min}
}

func req(name string, n *node) field { return field{name: name, node: n, presence: required} }
func opt(name string, n *node) field { return field{name: name, node: n, presence: optional} }

func def(name string, n *node, value func() any) field {
	return field{name: name, node: n, presence: defaulted, def: value}
}

// emptyList is the default of a list: one shared empty list, since the
// validated value is never modified.
func emptyList() any { return theEmptyList }

var theEmptyList any = []any{}

func constant(v any) func() any { return func() any { return v } }

var (
	statusValues = func() []string {
		vs := make([]string, len(adr.Statuses))
		for i, s := range adr.Statuses {
			vs[i] = string(s)
		}
		return vs
	}()
	scopeValues = func() []string {
		vs := make([]string, len(adr.Scopes))
		for i, s := range adr.Scopes {
			vs[i] = string(s)
		}
		return vs
	}()
	severityValues = []string{"error", "warn", "info"}
)

// frontmatterSchema is built on first use, not at start-up: the server
// and the hook start far more often than they read a record.
var frontmatterSchema = sync.OnceValue(func() *node {
	return object(
		def("schemaVersion", strFormat(formatSchemaVersion), constant("0.1.0")),
		req("id", strFormat(formatID)),
		req("title", &node{kind: kindString, minLen: 3, maxLen: 120}),
		req("status", enum(statusValues...)),
		req("date", strFormat(formatDate)),
		opt("created", strFormat(formatDate)),
		def("deciders", array(strFormat(formatIdentity)), emptyList),
		def("consulted", array(strFormat(formatIdentity)), emptyList),
		def("informed", array(strFormat(formatIdentity)), emptyList),
		def("tags", uniqueArray(strFormat(formatSlug)), emptyList),
		def("scope", enum(scopeValues...), constant(string(adr.ScopeComponent))),
		opt("domain", str()),
		def("reversibility", enum("two-way-door", "one-way-door", "unknown"), constant("unknown")),
		def("blastRadius", enum("component", "team", "cross-team", "org"), constant("component")),
		def("supersedes", uniqueArray(strFormat(formatRef)), emptyList),
		opt("supersededBy", strFormat(formatRef)),
		def("relatesTo", uniqueArray(strFormat(formatRef)), emptyList),
		def("conflictsWith", array(strFormat(formatRef)), emptyList),
		def("affects", array(object(
			req("type", enum("path", "entity", "package", "resource", "api", "data")),
			req("pattern", &node{kind: kindString, minLen: 1}),
			opt("repo", str()),
			def("negate", boolean(), constant(false)),
			opt("note", str()),
		)), emptyList),
		def("assertions", array(object(
			req("id", strFormat(formatSlug)),
			opt("description", str()),
			req("engine", enum("rego", "jsonpath", "grep", "custom")),
			opt("expression", str()),
			opt("expressionFile", str()),
			def("input", enum("source", "iac-plan", "sbom", "openapi", "catalog", "custom"), constant("source")),
			req("severity", enum(severityValues...)),
		)), emptyList),
		opt("provenance", object(
			def("authoredBy", enum("human", "agent", "agent-drafted"), constant("human")),
			opt("agent", object(
				opt("name", str()),
				opt("model", str()),
				opt("harness", str()),
				opt("runId", str()),
			)),
			opt("ratifiedBy", strFormat(formatIdentity)),
			opt("sourceArtifact", str()),
			opt("importedFrom", object(
				req("sourceKind", enum("madr", "agent-log", "plan-artifact", "other")),
				req("sourceRef", str()),
				req("fingerprint", str()),
				opt("importedAt", strFormat(formatDateTime)),
			)),
		)),
		opt("review", object(
			opt("tier", enum("auto", "async", "arb")),
			opt("tierReason", str()),
			opt("queuedAt", strFormat(formatDateTime)),
			opt("slaDays", integerAtLeast(0)),
			opt("escalatedAt", strFormat(formatDateTime)),
			opt("decidedAt", strFormat(formatDateTime)),
			opt("quorum", integerAtLeast(1)),
			def("approvals", array(strFormat(formatIdentity)), emptyList),
			def("objections", array(object(
				req("by", strFormat(formatIdentity)),
				opt("summary", str()),
				def("resolved", boolean(), constant(false)),
			)), emptyList),
		)),
		opt("evaluation", object(
			opt("ranAt", strFormat(formatDateTime)),
			opt("evaluatorVersion", str()),
			opt("rubricVersion", str()),
			opt("scores", &node{kind: kindRecord, value: number(0, 4)}),
			opt("confidence", number(0, 1)),
			opt("escalate", boolean()),
			def("escalationReasons", array(enum(
				"one-way-door", "cost-threshold", "security-surface", "data-residency", "regulatory",
				"contradicts-accepted-adr", "low-confidence", "pass-disagreement",
				"agent-authored-production", "novel-no-precedent", "human-requested",
			)), emptyList),
			def("deterministicFindings", array(object(
				req("rule", str()),
				req("severity", enum(severityValues...)),
				opt("message", str()),
				opt("adr", strFormat(formatRef)),
			)), emptyList),
		)),
		def("externalRefs", array(object(
			req("type", enum("issue", "pr", "rfc", "incident", "doc", "meeting", "control", "other")),
			opt("id", str()),
			req("url", strFormat(formatURL)),
			opt("label", str()),
		)), emptyList),
		def("complianceControls", uniqueArray(str()), emptyList),
		opt("reviewBy", strFormat(formatDate)),
	)
})

// jsSpace is the JavaScript \s class (the set String.prototype.trim
// removes), spelled out because Go's \s is only ASCII.
const jsSpace = `\t\n\v\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`

// dateBody is the leap-year-aware calendar date of the reference's ISO
// date check, unanchored so the date-time pattern can reuse it.
const dateBody = `(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))`

var (
	schemaVersionRE = lazyregexp.New(`^\d+\.\d+\.\d+$`)
	slugRE          = lazyregexp.New(`^[a-z0-9][a-z0-9-]*$`)
	identityRE      = lazyregexp.New(`^(@[A-Za-z0-9-]+|team:[a-z0-9-]+|[^@` + jsSpace + `]+@[^@` + jsSpace + `]+\.[^@` + jsSpace + `]+)$`)
	dateRE          = lazyregexp.New(`^` + dateBody + `$`)
	dateTimeRE      = lazyregexp.New(`^` + dateBody + `T(?:(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|([+-](?:[01]\d|2[0-3]):[0-5]\d)))$`)
)

func formatMatches(f format, s string) bool {
	switch f {
	case formatSchemaVersion:
		return schemaVersionRE.MatchString(s)
	case formatID:
		return adr.ValidID(s)
	case formatSlug:
		return slugRE.MatchString(s)
	case formatIdentity:
		return identityRE.MatchString(s)
	case formatRef:
		return adr.ValidRef(s)
	case formatDate:
		return dateRE.MatchString(s)
	case formatDateTime:
		return dateTimeRE.MatchString(s)
	case formatURL:
		_, ok := checkURL(s)
		return ok
	}
	return true
}

package adr

// Record is one schema-valid ADR file.
type Record struct {
	// SourcePath is the file's path relative to the repository root, with
	// "/" separators (e.g. "docs/adr/0001-x.md").
	SourcePath  string
	Frontmatter *Frontmatter
	// Body is everything after the closing fence line, byte for byte.
	Body string
}

// Frontmatter is the typed view of a validated frontmatter block, defaults
// applied. Optional members that were absent hold their zero value.
//
// The exact validated value (schema key order, defaults inserted, absent
// optionals omitted) is not kept as a value: a server keeps every record
// for as long as its file is unchanged, and the value as a tree takes
// more memory than the file. The fingerprint hashes its canonical text,
// kept here; get_decision, which shows one record at a time, works it out
// again from the YAML (frontmatter.JSON).
type Frontmatter struct {
	SchemaVersion      string
	ID                 string
	Title              string
	Status             Status
	Date               string
	Created            string
	Deciders           []string
	Consulted          []string
	Informed           []string
	Tags               []string
	Scope              Scope
	Domain             string
	Reversibility      string
	BlastRadius        string
	Supersedes         []string
	SupersededBy       string
	RelatesTo          []string
	ConflictsWith      []string
	Affects            []Matcher
	Assertions         []Assertion
	Provenance         *Provenance
	Review             *Review
	Evaluation         *Evaluation
	ExternalRefs       []ExternalRef
	ComplianceControls []string
	ReviewBy           string

	// YAML is the frontmatter as written, between the fences (a part of
	// the record's file text, as Body is).
	YAML string
	// Canonical is the validated value as canonical JSON (every object's
	// members in UTF-16 code-unit order of their keys): what the corpus
	// fingerprint hashes.
	Canonical string
}

// MatcherType is the kind of thing an affects matcher names.
type MatcherType string

// The six matcher types, in schema order. Only path matchers can fire in
// this server; the others have no snapshot to match against.
const (
	MatcherPath     MatcherType = "path"
	MatcherEntity   MatcherType = "entity"
	MatcherPackage  MatcherType = "package"
	MatcherResource MatcherType = "resource"
	MatcherAPI      MatcherType = "api"
	MatcherData     MatcherType = "data"
)

// Matcher is one affects entry.
type Matcher struct {
	Type    MatcherType
	Pattern string
	// Repo qualifies the matcher with another log; a non-empty Repo makes
	// the matcher inactive here.
	Repo   string
	Negate bool
	Note   string
}

// FiredMatcher is a matcher that matched at least one supplied file.
type FiredMatcher struct {
	Type    MatcherType `json:"type"`
	Pattern string      `json:"pattern"`
}

// Assertion is a machine-checkable consequence of the decision.
type Assertion struct {
	ID             string
	Description    string
	Engine         string
	Expression     string
	ExpressionFile string
	Input          string
	Severity       string
}

// Provenance says who or what authored the record and where it came from.
type Provenance struct {
	AuthoredBy     string
	Agent          *Agent
	RatifiedBy     string
	SourceArtifact string
	ImportedFrom   *ImportedFrom
}

// Agent identifies the agent that drafted a record.
type Agent struct {
	Name    string
	Model   string
	Harness string
	RunID   string
}

// ImportedFrom records the source of an imported decision.
type ImportedFrom struct {
	SourceKind  string
	SourceRef   string
	Fingerprint string
	ImportedAt  string
}

// Review is the review-queue block.
type Review struct {
	Tier        string
	TierReason  string
	QueuedAt    string
	SLADays     *int64
	EscalatedAt string
	DecidedAt   string
	Quorum      *int64
	Approvals   []string
	Objections  []Objection
}

// Objection is a reviewer's objection.
type Objection struct {
	By       string
	Summary  string
	Resolved bool
}

// Evaluation is the evaluator's verdict block.
type Evaluation struct {
	RanAt                 string
	EvaluatorVersion      string
	RubricVersion         string
	Scores                []Score
	Confidence            *float64
	Escalate              *bool
	EscalationReasons     []string
	DeterministicFindings []DeterministicFinding
}

// Score is one evaluation score, in output order.
type Score struct {
	Key   string
	Value float64
}

// DeterministicFinding is a finding an evaluator recorded in the record.
type DeterministicFinding struct {
	Rule     string
	Severity string
	Message  string
	ADR      string
}

// ExternalRef links the record to an issue, PR, RFC, incident, document...
type ExternalRef struct {
	Type  string
	ID    string
	URL   string
	Label string
}

package app

import (
	"slices"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// LintRule describes one rule lint can report: what SARIF consumers show
// next to a result, and what docs/cli.md lists.
type LintRule struct {
	ID string
	// Severity is the rule's default severity; template-text raises it
	// to error for an accepted record.
	Severity adr.Severity
	// Summary says in one sentence what the rule checks.
	Summary string
}

// LintRules lists every rule id Lint can emit, sorted by id in code-unit
// order. A report format that declares its rules up front (SARIF) uses
// it; a test keeps it complete.
func LintRules() []LintRule {
	rules := slices.Clone(lintRules)
	slices.SortFunc(rules, func(a, b LintRule) int { return jsstring.Compare(a.ID, b.ID) })
	return rules
}

var lintRules = []LintRule{
	// Reading the file.
	{corpus.RuleRecordTooLarge, adr.SeverityError, "A record file is larger than the 64 KiB cap and is left out of the corpus."},
	{corpus.RuleRecordStatError, adr.SeverityError, "A record file could not be checked before reading and is left out of the corpus."},
	{corpus.RuleFileRead, adr.SeverityError, "A record file, or its frontmatter YAML, could not be read and is left out of the corpus."},
	{frontmatter.RuleFence, adr.SeverityError, `A record file does not start with a "---" frontmatter block, or never closes it.`},
	{frontmatter.RuleParse, adr.SeverityError, "A record's frontmatter is not valid YAML."},
	// The frontmatter schema.
	{"required-field", adr.SeverityError, "A frontmatter field the schema requires is missing."},
	{"invalid-type", adr.SeverityError, "A frontmatter field has a value of the wrong type."},
	{"invalid-enum-value", adr.SeverityError, "A frontmatter field holds a value outside its allowed set."},
	{"invalid-format", adr.SeverityError, "A frontmatter value does not have the required format (id, ref, date, handle, URL...)."},
	{"invalid-size", adr.SeverityError, "A frontmatter value is too short, too long, too small or too large."},
	{"unique-items", adr.SeverityError, "A frontmatter list repeats a value."},
	{"strict-unknown-key", adr.SeverityError, "The frontmatter holds a field the schema does not define."},
	{"superseded-requires-supersededBy", adr.SeverityError, `A record with status "superseded" does not name its replacement in supersededBy.`},
	{"supersededBy-requires-superseded-status", adr.SeverityError, `A record names a replacement in supersededBy but its status is not "superseded".`},
	{"accepted-requires-decider-unless-imported", adr.SeverityError, "An accepted record names no decider and was not imported."},
	{"agent-accepted-requires-ratifier", adr.SeverityError, "An agent-authored record was accepted without a named human ratifier."},
	{"one-way-door-disallows-auto", adr.SeverityError, "A one-way-door decision is set for automatic approval."},
	// Across records.
	{corpus.RuleUniqueID, adr.SeverityError, "Two or more records use the same id."},
	{corpus.RuleDanglingSupersedes, adr.SeverityError, "A supersedes entry names no record in the corpus."},
	{corpus.RuleDanglingSupersededBy, adr.SeverityError, "The supersededBy reference names no record in the corpus."},
	{corpus.RuleDanglingRelatesTo, adr.SeverityError, "A relatesTo entry names no record in the corpus."},
	{corpus.RuleDanglingConflictsWith, adr.SeverityWarn, "A conflictsWith entry names no record in the corpus."},
	{corpus.RuleAcceptedConflictsWith, adr.SeverityWarn, "An accepted record declares a conflict with another record."},
	{corpus.RuleImportIncomplete, adr.SeverityInfo, "An imported, accepted record names no deciders yet."},
	// Lint only.
	{affects.RuleBadPattern, adr.SeverityWarn, "An affects matcher can never match: a path glob that does not compile or starts with \"/\", or a malformed package pattern."},
	{RuleCorpusFileSkipped, adr.SeverityWarn, "A Markdown file in the ADR directory looks like a record but is never read (misnamed, nested, a link or not a file)."},
	{RuleReviewOverdue, adr.SeverityWarn, "A draft, proposed or accepted decision is past its reviewBy date."},
	{RuleMatchesNothing, adr.SeverityWarn, "A live decision's affects path pattern matches no file git tracks in the working tree (not checked with --rev)."},
	{RuleTemplateText, adr.SeverityWarn, "A record's body still holds a prompt sentence of adrkit new's template (an error once the record is accepted)."},
	{RuleNoRecords, adr.SeverityError, "The ADR directory holds Markdown files but not one record: decisions kept in another format (run adrkit migrate)."},
	{RuleIDFileName, adr.SeverityWarn, "A record's file name starts with a number that is not its id."},
	{RuleRenamedLink, adr.SeverityWarn, "A record's body links to a file of the ADR directory that is not there, under the old name of a record that is (renamed by migrate --rename or renumber)."},
	{RuleFormatHint, adr.SeverityInfo, "A finding comes from another ADR tool's habit (MADR's decision-makers, a site generator's keys, a status written \"superseded by ADR-0123\", no frontmatter); the hint says what adrkit expects."},
}

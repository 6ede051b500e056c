package corpus

import (
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// Rule ids of the findings this package produces. The ids and severities
// are the contract; the messages are ours.
const (
	RuleRecordTooLarge        = "record-too-large"
	RuleRecordStatError       = "record-stat-error"
	RuleFileRead              = "file-read"
	RuleUniqueID              = "unique-id"
	RuleDanglingSupersedes    = "dangling-supersedes"
	RuleDanglingSupersededBy  = "dangling-supersededBy"
	RuleDanglingRelatesTo     = "dangling-relatesTo"
	RuleDanglingConflictsWith = "dangling-conflictsWith"
	RuleAcceptedConflictsWith = "accepted-conflictsWith"
	RuleImportIncomplete      = "import-incomplete"
)

// exclusionFinding reports a candidate that was dropped before parsing.
// Such a file was never parsed, so the finding has no id and no field.
func exclusionFinding(c *Candidate) adr.Finding {
	f := adr.Finding{Severity: adr.SeverityError, Path: c.Path}
	switch c.Exclusion {
	case ExcludedTooLarge:
		f.Rule = RuleRecordTooLarge
		f.Message = "the file is larger than the " + strconv.Itoa(MaxRecordBytes) +
			"-byte limit, so it was not read and is left out of the corpus"
	case ExcludedStatError:
		f.Rule = RuleRecordStatError
		if c.Cause != "" {
			f.Message = "the file could not be checked before reading (" + c.Cause +
				"), so it is left out of the corpus"
		} else {
			f.Message = "the file could not be checked before reading (it vanished, " +
				"stopped being a regular file or resolves outside the ADR directory), " +
				"so it is left out of the corpus"
		}
	default:
		f.Rule = RuleFileRead
		if c.Cause != "" {
			f.Message = "the file could not be read (" + c.Cause + "), so it is left out of the corpus"
		} else {
			f.Message = "the file could not be read, so it is left out of the corpus"
		}
	}
	return f
}

// maxListedHolders bounds how many other holders a unique-id message
// names. Listing every holder in every holder's finding would make a
// corpus where one id is shared n times cost O(n²) message bytes (and
// fingerprint input); the findings themselves still name each holder.
const maxListedHolders = 3

// checkInvariants appends the cross-record findings to findings and
// returns the extended slice. It looks at the valid records only: a file
// that was excluded does not exist for these checks, so a reference to it
// dangles. Every lookup goes through byID, keeping the pass linear in the
// number of references.
func checkInvariants(records []*adr.Record, byID map[string][]*adr.Record, findings []adr.Finding) []adr.Finding {
	for i := 0; i < len(records); {
		j := i + 1
		for j < len(records) && records[j].Frontmatter.ID == records[i].Frontmatter.ID {
			j++
		}
		if j-i > 1 {
			findings = appendUniqueID(findings, records[i:j])
		}
		i = j
	}
	for _, r := range records {
		fm := r.Frontmatter
		for _, ref := range fm.Supersedes {
			if _, ok := byID[ref]; !ok {
				findings = append(findings, dangling(r, RuleDanglingSupersedes, adr.SeverityError, "supersedes", ref))
			}
		}
		if fm.SupersededBy != "" {
			if _, ok := byID[fm.SupersededBy]; !ok {
				findings = append(findings, dangling(r, RuleDanglingSupersededBy, adr.SeverityError, "supersededBy", fm.SupersededBy))
			}
		}
		for _, ref := range fm.RelatesTo {
			if _, ok := byID[ref]; !ok {
				findings = append(findings, dangling(r, RuleDanglingRelatesTo, adr.SeverityError, "relatesTo", ref))
			}
		}
		// conflictsWith may repeat a ref; each occurrence is reported.
		for _, ref := range fm.ConflictsWith {
			if _, ok := byID[ref]; !ok {
				findings = append(findings, dangling(r, RuleDanglingConflictsWith, adr.SeverityWarn, "conflictsWith", ref))
			} else if fm.Status == adr.StatusAccepted {
				findings = append(findings, adr.Finding{
					Rule:     RuleAcceptedConflictsWith,
					Severity: adr.SeverityWarn,
					Message: "the record is accepted but lists " + strconv.Quote(ref) +
						" in conflictsWith; an accepted decision should not knowingly conflict with another record",
					Path:  r.SourcePath,
					ID:    fm.ID,
					Field: "conflictsWith",
				})
			}
		}
		if fm.Status == adr.StatusAccepted && len(fm.Deciders) == 0 &&
			fm.Provenance != nil && fm.Provenance.ImportedFrom != nil {
			findings = append(findings, adr.Finding{
				Rule:     RuleImportIncomplete,
				Severity: adr.SeverityInfo,
				Message:  "the record was imported and is accepted but names no deciders; add them once they are known",
				Path:     r.SourcePath,
				ID:       fm.ID,
				Field:    "deciders",
			})
		}
	}
	return findings
}

// appendUniqueID reports every holder of an id that more than one record
// declares; group is in canonical order, so by path.
func appendUniqueID(findings []adr.Finding, group []*adr.Record) []adr.Finding {
	id := group[0].Frontmatter.ID
	for k, r := range group {
		var b strings.Builder
		b.WriteString("id ")
		b.WriteString(strconv.Quote(id))
		b.WriteString(" is also used by ")
		listed := 0
		for m, o := range group {
			if m == k {
				continue
			}
			if listed == maxListedHolders {
				break
			}
			if listed > 0 {
				if listed == len(group)-2 {
					b.WriteString(" and ")
				} else {
					b.WriteString(", ")
				}
			}
			b.WriteString(o.SourcePath)
			listed++
		}
		if more := len(group) - 1 - listed; more > 0 {
			b.WriteString(" and ")
			b.WriteString(strconv.Itoa(more))
			b.WriteString(" more record")
			if more > 1 {
				b.WriteString("s")
			}
		}
		b.WriteString("; each record needs an id of its own")
		findings = append(findings, adr.Finding{
			Rule:     RuleUniqueID,
			Severity: adr.SeverityError,
			Message:  b.String(),
			Path:     r.SourcePath,
			ID:       id,
			Field:    "id",
		})
	}
	return findings
}

// dangling reports a reference that names no valid record. A log-qualified
// ref gets its own wording: it cannot resolve here by construction, which
// is worth saying instead of suggesting a typo.
func dangling(r *adr.Record, rule string, sev adr.Severity, field, ref string) adr.Finding {
	var msg string
	if parsed := adr.ParseRef(ref); parsed.Federated() {
		msg = field + " names " + strconv.Quote(ref) + " in the decision log " + strconv.Quote(parsed.Log) +
			", which this server cannot see, so the reference does not resolve"
	} else {
		msg = field + " names " + strconv.Quote(ref) + ", but no valid record in the corpus has that id"
	}
	return adr.Finding{
		Rule:     rule,
		Severity: sev,
		Message:  msg,
		Path:     r.SourcePath,
		ID:       r.Frontmatter.ID,
		Field:    field,
	}
}

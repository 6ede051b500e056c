package frontmatter

import (
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// typed reads the validated, defaulted value into adr.Frontmatter. Every
// type was checked already, so absent or mistyped members cannot occur
// and simply read as zero values.
func typed(raw *jsvalue.Object) *adr.Frontmatter {
	fm := new(adr.Frontmatter)
	*fm = adr.Frontmatter{
		SchemaVersion:      getString(raw, "schemaVersion"),
		ID:                 getString(raw, "id"),
		Title:              getString(raw, "title"),
		Status:             adr.Status(getString(raw, "status")),
		Date:               getString(raw, "date"),
		Created:            getString(raw, "created"),
		Deciders:           stringList(raw, "deciders"),
		Consulted:          stringList(raw, "consulted"),
		Informed:           stringList(raw, "informed"),
		Tags:               stringList(raw, "tags"),
		Scope:              adr.Scope(getString(raw, "scope")),
		Domain:             getString(raw, "domain"),
		Reversibility:      getString(raw, "reversibility"),
		BlastRadius:        getString(raw, "blastRadius"),
		Supersedes:         stringList(raw, "supersedes"),
		SupersededBy:       getString(raw, "supersededBy"),
		RelatesTo:          stringList(raw, "relatesTo"),
		ConflictsWith:      stringList(raw, "conflictsWith"),
		ComplianceControls: stringList(raw, "complianceControls"),
		ReviewBy:           getString(raw, "reviewBy"),
		Canonical:          string(jsvalue.AppendCanonical(nil, raw)),
		Affects:            make([]adr.Matcher, 0, len(getArray(raw, "affects"))),
		Assertions:         make([]adr.Assertion, 0, len(getArray(raw, "assertions"))),
		ExternalRefs:       make([]adr.ExternalRef, 0, len(getArray(raw, "externalRefs"))),
	}
	for _, it := range getArray(raw, "affects") {
		m, _ := it.(*jsvalue.Object)
		fm.Affects = append(fm.Affects, adr.Matcher{
			Type:    adr.MatcherType(getString(m, "type")),
			Pattern: getString(m, "pattern"),
			Repo:    getString(m, "repo"),
			Negate:  getBool(m, "negate"),
			Note:    getString(m, "note"),
		})
	}
	for _, it := range getArray(raw, "assertions") {
		m, _ := it.(*jsvalue.Object)
		fm.Assertions = append(fm.Assertions, adr.Assertion{
			ID:             getString(m, "id"),
			Description:    getString(m, "description"),
			Engine:         getString(m, "engine"),
			Expression:     getString(m, "expression"),
			ExpressionFile: getString(m, "expressionFile"),
			Input:          getString(m, "input"),
			Severity:       getString(m, "severity"),
		})
	}
	if p := getObject(raw, "provenance"); p != nil {
		fm.Provenance = &adr.Provenance{
			AuthoredBy:     getString(p, "authoredBy"),
			RatifiedBy:     getString(p, "ratifiedBy"),
			SourceArtifact: getString(p, "sourceArtifact"),
		}
		if a := getObject(p, "agent"); a != nil {
			fm.Provenance.Agent = &adr.Agent{
				Name:    getString(a, "name"),
				Model:   getString(a, "model"),
				Harness: getString(a, "harness"),
				RunID:   getString(a, "runId"),
			}
		}
		if im := getObject(p, "importedFrom"); im != nil {
			fm.Provenance.ImportedFrom = &adr.ImportedFrom{
				SourceKind:  getString(im, "sourceKind"),
				SourceRef:   getString(im, "sourceRef"),
				Fingerprint: getString(im, "fingerprint"),
				ImportedAt:  getString(im, "importedAt"),
			}
		}
	}
	if r := getObject(raw, "review"); r != nil {
		fm.Review = &adr.Review{
			Tier:        getString(r, "tier"),
			TierReason:  getString(r, "tierReason"),
			QueuedAt:    getString(r, "queuedAt"),
			SLADays:     getInt(r, "slaDays"),
			EscalatedAt: getString(r, "escalatedAt"),
			DecidedAt:   getString(r, "decidedAt"),
			Quorum:      getInt(r, "quorum"),
			Approvals:   stringList(r, "approvals"),
			Objections:  []adr.Objection{},
		}
		for _, it := range getArray(r, "objections") {
			m, _ := it.(*jsvalue.Object)
			fm.Review.Objections = append(fm.Review.Objections, adr.Objection{
				By:       getString(m, "by"),
				Summary:  getString(m, "summary"),
				Resolved: getBool(m, "resolved"),
			})
		}
	}
	if e := getObject(raw, "evaluation"); e != nil {
		fm.Evaluation = &adr.Evaluation{
			RanAt:                 getString(e, "ranAt"),
			EvaluatorVersion:      getString(e, "evaluatorVersion"),
			RubricVersion:         getString(e, "rubricVersion"),
			Confidence:            getFloat(e, "confidence"),
			EscalationReasons:     stringList(e, "escalationReasons"),
			DeterministicFindings: []adr.DeterministicFinding{},
		}
		if v, ok := e.Get("escalate"); ok {
			b, _ := v.(bool)
			fm.Evaluation.Escalate = &b
		}
		if sc := getObject(e, "scores"); sc != nil {
			fm.Evaluation.Scores = []adr.Score{}
			for _, k := range sc.Keys() {
				v, _ := sc.Get(k)
				f, _ := v.(float64)
				fm.Evaluation.Scores = append(fm.Evaluation.Scores, adr.Score{Key: k, Value: f})
			}
		}
		for _, it := range getArray(e, "deterministicFindings") {
			m, _ := it.(*jsvalue.Object)
			fm.Evaluation.DeterministicFindings = append(fm.Evaluation.DeterministicFindings, adr.DeterministicFinding{
				Rule:     getString(m, "rule"),
				Severity: getString(m, "severity"),
				Message:  getString(m, "message"),
				ADR:      getString(m, "adr"),
			})
		}
	}
	for _, it := range getArray(raw, "externalRefs") {
		m, _ := it.(*jsvalue.Object)
		fm.ExternalRefs = append(fm.ExternalRefs, adr.ExternalRef{
			Type:  getString(m, "type"),
			ID:    getString(m, "id"),
			URL:   getString(m, "url"),
			Label: getString(m, "label"),
		})
	}
	return fm
}

// stringList returns a string list as a non-nil slice, so that a
// defaulted [] and an explicit [] read alike.
func stringList(o *jsvalue.Object, key string) []string {
	items := getArray(o, key)
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, _ := it.(string)
		out = append(out, s)
	}
	return out
}

func getBool(o *jsvalue.Object, key string) bool {
	v, _ := o.Get(key)
	b, _ := v.(bool)
	return b
}

func getInt(o *jsvalue.Object, key string) *int64 {
	v, ok := o.Get(key)
	if !ok {
		return nil
	}
	f, _ := v.(float64)
	n := int64(f)
	return &n
}

func getFloat(o *jsvalue.Object, key string) *float64 {
	v, ok := o.Get(key)
	if !ok {
		return nil
	}
	f, _ := v.(float64)
	return &f
}

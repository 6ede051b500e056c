package frontmatter

import (
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/jsvalue"
)

// typed reads the validated, defaulted value into adr.Frontmatter. Every
// type was checked already, so absent or mistyped members cannot occur
// and simply read as zero values.
func typed(raw *jsvalue.Object) *adr.Frontmatter {
	fm := new(adr.Frontmatter)
	typedInto(fm, raw, nil)
	return fm
}

// typer reads strings for typedInto, through str when it is set, and
// hands out the string lists from one backing array.
type typer struct {
	str  func(string) string
	pool []string
}

func (t *typer) s(o *jsvalue.Object, key string) string {
	v := getString(o, key)
	if t.str == nil || v == "" {
		return v
	}
	return t.str(v)
}

// ss returns a string list as a non-nil slice, so that a defaulted []
// and an explicit [] read alike. The items are taken from t.pool while
// it lasts: a record's lists are then one allocation rather than one
// each, and a record kept for long is fewer small objects among the
// garbage its parse left. Each list is capped, so appending to one cannot
// overwrite the next.
func (t *typer) ss(o *jsvalue.Object, key string) []string {
	items := getArray(o, key)
	if len(items) == 0 {
		return []string{}
	}
	var out []string
	if len(items) <= len(t.pool) {
		out = t.pool[:0:len(items)]
		t.pool = t.pool[len(items):]
	} else {
		out = make([]string, 0, len(items))
	}
	for _, it := range items {
		s, _ := it.(string)
		if t.str != nil && s != "" {
			s = t.str(s)
		}
		out = append(out, s)
	}
	return out
}

// stringListItems counts the items of every string list typedInto reads.
func stringListItems(raw *jsvalue.Object) int {
	n := 0
	for _, k := range []string{"deciders", "consulted", "informed", "tags", "supersedes", "relatesTo", "conflictsWith", "complianceControls"} {
		n += len(getArray(raw, k))
	}
	n += len(getArray(getObject(raw, "review"), "approvals"))
	n += len(getArray(getObject(raw, "evaluation"), "escalationReasons"))
	return n
}

// typedInto is typed writing into *fm, with every string passed through
// str (when not nil), which compactRecord uses to make them parts of the
// frozen text.
func typedInto(fm *adr.Frontmatter, raw *jsvalue.Object, str func(string) string) {
	t := &typer{str: str}
	if n := stringListItems(raw); n > 0 {
		t.pool = make([]string, n)
	}
	*fm = adr.Frontmatter{
		SchemaVersion:      t.s(raw, "schemaVersion"),
		ID:                 t.s(raw, "id"),
		Title:              t.s(raw, "title"),
		Status:             adr.Status(t.s(raw, "status")),
		Date:               t.s(raw, "date"),
		Created:            t.s(raw, "created"),
		Deciders:           t.ss(raw, "deciders"),
		Consulted:          t.ss(raw, "consulted"),
		Informed:           t.ss(raw, "informed"),
		Tags:               t.ss(raw, "tags"),
		Scope:              adr.Scope(t.s(raw, "scope")),
		Domain:             t.s(raw, "domain"),
		Reversibility:      t.s(raw, "reversibility"),
		BlastRadius:        t.s(raw, "blastRadius"),
		Supersedes:         t.ss(raw, "supersedes"),
		SupersededBy:       t.s(raw, "supersededBy"),
		RelatesTo:          t.ss(raw, "relatesTo"),
		ConflictsWith:      t.ss(raw, "conflictsWith"),
		ComplianceControls: t.ss(raw, "complianceControls"),
		ReviewBy:           t.s(raw, "reviewBy"),
		Raw:                raw,
		Affects:            make([]adr.Matcher, 0, len(getArray(raw, "affects"))),
		Assertions:         make([]adr.Assertion, 0, len(getArray(raw, "assertions"))),
		ExternalRefs:       make([]adr.ExternalRef, 0, len(getArray(raw, "externalRefs"))),
	}
	for _, it := range getArray(raw, "affects") {
		m, _ := it.(*jsvalue.Object)
		fm.Affects = append(fm.Affects, adr.Matcher{
			Type:    adr.MatcherType(t.s(m, "type")),
			Pattern: t.s(m, "pattern"),
			Repo:    t.s(m, "repo"),
			Negate:  getBool(m, "negate"),
			Note:    t.s(m, "note"),
		})
	}
	for _, it := range getArray(raw, "assertions") {
		m, _ := it.(*jsvalue.Object)
		fm.Assertions = append(fm.Assertions, adr.Assertion{
			ID:             t.s(m, "id"),
			Description:    t.s(m, "description"),
			Engine:         t.s(m, "engine"),
			Expression:     t.s(m, "expression"),
			ExpressionFile: t.s(m, "expressionFile"),
			Input:          t.s(m, "input"),
			Severity:       t.s(m, "severity"),
		})
	}
	if p := getObject(raw, "provenance"); p != nil {
		fm.Provenance = &adr.Provenance{
			AuthoredBy:     t.s(p, "authoredBy"),
			RatifiedBy:     t.s(p, "ratifiedBy"),
			SourceArtifact: t.s(p, "sourceArtifact"),
		}
		if a := getObject(p, "agent"); a != nil {
			fm.Provenance.Agent = &adr.Agent{
				Name:    t.s(a, "name"),
				Model:   t.s(a, "model"),
				Harness: t.s(a, "harness"),
				RunID:   t.s(a, "runId"),
			}
		}
		if im := getObject(p, "importedFrom"); im != nil {
			fm.Provenance.ImportedFrom = &adr.ImportedFrom{
				SourceKind:  t.s(im, "sourceKind"),
				SourceRef:   t.s(im, "sourceRef"),
				Fingerprint: t.s(im, "fingerprint"),
				ImportedAt:  t.s(im, "importedAt"),
			}
		}
	}
	if r := getObject(raw, "review"); r != nil {
		fm.Review = &adr.Review{
			Tier:        t.s(r, "tier"),
			TierReason:  t.s(r, "tierReason"),
			QueuedAt:    t.s(r, "queuedAt"),
			SLADays:     getInt(r, "slaDays"),
			EscalatedAt: t.s(r, "escalatedAt"),
			DecidedAt:   t.s(r, "decidedAt"),
			Quorum:      getInt(r, "quorum"),
			Approvals:   t.ss(r, "approvals"),
			Objections:  []adr.Objection{},
		}
		for _, it := range getArray(r, "objections") {
			m, _ := it.(*jsvalue.Object)
			fm.Review.Objections = append(fm.Review.Objections, adr.Objection{
				By:       t.s(m, "by"),
				Summary:  t.s(m, "summary"),
				Resolved: getBool(m, "resolved"),
			})
		}
	}
	if e := getObject(raw, "evaluation"); e != nil {
		fm.Evaluation = &adr.Evaluation{
			RanAt:                 t.s(e, "ranAt"),
			EvaluatorVersion:      t.s(e, "evaluatorVersion"),
			RubricVersion:         t.s(e, "rubricVersion"),
			Confidence:            getFloat(e, "confidence"),
			EscalationReasons:     t.ss(e, "escalationReasons"),
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
				key := k
				if t.str != nil {
					key = t.str(k)
				}
				fm.Evaluation.Scores = append(fm.Evaluation.Scores, adr.Score{Key: key, Value: f})
			}
		}
		for _, it := range getArray(e, "deterministicFindings") {
			m, _ := it.(*jsvalue.Object)
			fm.Evaluation.DeterministicFindings = append(fm.Evaluation.DeterministicFindings, adr.DeterministicFinding{
				Rule:     t.s(m, "rule"),
				Severity: t.s(m, "severity"),
				Message:  t.s(m, "message"),
				ADR:      t.s(m, "adr"),
			})
		}
	}
	for _, it := range getArray(raw, "externalRefs") {
		m, _ := it.(*jsvalue.Object)
		fm.ExternalRefs = append(fm.ExternalRefs, adr.ExternalRef{
			Type:  t.s(m, "type"),
			ID:    t.s(m, "id"),
			URL:   t.s(m, "url"),
			Label: t.s(m, "label"),
		})
	}
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

package frontmatter

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

type schemaCase struct {
	name string
	// in is a whole document (root != "") or an override of baseDoc.
	in   string
	root bool
	want []string // "rule field" in issue order; nil = valid
}

// schemaCases covers corpus.md §7: the observed examples of §7.6, and every
// type, enum, format, size, uniqueness, strictness and cross-field rule at
// the top level and in each nested object, with the §7.5 gating.
var schemaCases = []schemaCase{
	// §7.6 observed examples.
	{name: "empty mapping", root: true, in: `{}`, want: []string{
		"required-field id", "required-field title", "invalid-enum-value status", "required-field date"}},
	{name: "id not matching", in: `{"id":"abc"}`, want: []string{"invalid-format id"}},
	{name: "id unquoted number", in: `{"id":12}`, want: []string{"invalid-type id"}},
	{name: "title too short", in: `{"title":"ab"}`, want: []string{"invalid-size title"}},
	{name: "identities", in: `{"deciders":["@a-b","team:platform","a@b.c","team:Plat","@a_b"]}`,
		want: []string{"invalid-format deciders.3", "invalid-format deciders.4"}},
	{name: "refs", in: `{"supersedes":["Payments:0002","pay_x:0001","payments:0002","-a:0001",":0001"]}`,
		want: []string{"invalid-format supersedes.0", "invalid-format supersedes.1", "invalid-format supersedes.3", "invalid-format supersedes.4"}},
	{name: "superseded and short title", in: `{"status":"superseded","title":"ab"}`,
		want: []string{"invalid-size title", "superseded-requires-supersededBy supersededBy"}},
	{name: "superseded and unknown key", in: `{"status":"superseded","foo":1}`, want: []string{"strict-unknown-key foo"}},
	{name: "matcher without pattern", in: `{"affects":[{"type":"path"}]}`, want: []string{"required-field affects.0.pattern"}},
	{name: "slaDays fraction", in: `{"review":{"slaDays":1.5}}`, want: []string{"invalid-type review.slaDays"}},
	{name: "slaDays negative", in: `{"review":{"slaDays":-1}}`, want: []string{"invalid-size review.slaDays"}},
	{name: "queuedAt without zone", in: `{"review":{"queuedAt":"2026-01-01T00:00:00"}}`, want: []string{"invalid-format review.queuedAt"}},

	// Root shapes.
	{name: "root null", root: true, in: `null`, want: []string{"invalid-type -"}},
	{name: "root list", root: true, in: `[1]`, want: []string{"invalid-type -"}},
	{name: "root string", root: true, in: `"x"`, want: []string{"invalid-type -"}},
	{name: "root number", root: true, in: `7`, want: []string{"invalid-type -"}},
	{name: "root boolean", root: true, in: `true`, want: []string{"invalid-type -"}},
	{name: "valid minimal", in: ``},

	// Top-level fields: types, formats, enums, null.
	{name: "schemaVersion number", in: `{"schemaVersion":1}`, want: []string{"invalid-type schemaVersion"}},
	{name: "schemaVersion two parts", in: `{"schemaVersion":"1.0"}`, want: []string{"invalid-format schemaVersion"}},
	{name: "schemaVersion other", in: `{"schemaVersion":"12.0.7"}`},
	{name: "id null", in: `{"id":null}`, want: []string{"invalid-type id"}},
	{name: "id missing", in: `{"id":"«absent»"}`, want: []string{"required-field id"}},
	{name: "id three digits", in: `{"id":"113"}`, want: []string{"invalid-format id"}},
	{name: "id ulid lower", in: `{"id":"01j9z3k4m5n6p7q8r9s0t1v2w3"}`},
	{name: "id ulid with I", in: `{"id":"01I9Z3K4M5N6P7Q8R9S0T1V2W3"}`, want: []string{"invalid-format id"}},
	{name: "title list", in: `{"title":["a","b","c"]}`, want: []string{"invalid-type title"}},
	{name: "title 120", in: `{"title":"` + strings.Repeat("x", 120) + `"}`},
	{name: "title 121", in: `{"title":"` + strings.Repeat("x", 121) + `"}`, want: []string{"invalid-size title"}},
	{name: "title astral counts two", in: `{"title":"😀a"}`},
	{name: "title astral only", in: `{"title":"😀"}`, want: []string{"invalid-size title"}},
	{name: "title 119 astral", in: `{"title":"` + strings.Repeat("😀", 60) + `"}`},
	{name: "title lone surrogate counts one", in: `{"title":"«lone-surrogate»"}`},
	{name: "title 61 astral", in: `{"title":"` + strings.Repeat("😀", 61) + `"}`, want: []string{"invalid-size title"}},
	{name: "status missing", in: `{"status":"«absent»"}`, want: []string{"invalid-enum-value status"}},
	{name: "status approved", in: `{"status":"approved"}`, want: []string{"invalid-enum-value status"}},
	{name: "status number", in: `{"status":1}`, want: []string{"invalid-enum-value status"}},
	{name: "status case", in: `{"status":"Draft"}`, want: []string{"invalid-enum-value status"}},
	{name: "date missing", in: `{"date":"«absent»"}`, want: []string{"required-field date"}},
	{name: "date impossible", in: `{"date":"2026-02-31"}`, want: []string{"invalid-format date"}},
	{name: "created bad", in: `{"created":"2026-13-01"}`, want: []string{"invalid-format created"}},
	{name: "created null", in: `{"created":null}`, want: []string{"invalid-type created"}},
	{name: "deciders string", in: `{"deciders":"@a"}`, want: []string{"invalid-type deciders"}},
	{name: "deciders null", in: `{"deciders":null}`, want: []string{"invalid-type deciders"}},
	{name: "consulted bad", in: `{"consulted":["x"]}`, want: []string{"invalid-format consulted.0"}},
	{name: "informed bad", in: `{"informed":[true]}`, want: []string{"invalid-type informed.0"}},
	{name: "identity email with nbsp", in: `{"deciders":["a\u00a0b@c.d"]}`, want: []string{"invalid-format deciders.0"}},
	{name: "identity email with feff", in: `{"deciders":["ab@c\ufeff.d"]}`, want: []string{"invalid-format deciders.0"}},
	{name: "identity email with nel", in: `{"deciders":["a\u0085b@c.d"]}`},
	{name: "identity email two at", in: `{"deciders":["a@b@c.d"]}`, want: []string{"invalid-format deciders.0"}},
	{name: "identity team upper", in: `{"deciders":["team:A"]}`, want: []string{"invalid-format deciders.0"}},
	{name: "tags string", in: `{"tags":"storage"}`, want: []string{"invalid-type tags"}},
	{name: "tags slug", in: `{"tags":["Bad Tag"]}`, want: []string{"invalid-format tags.0"}},
	{name: "tags leading hyphen", in: `{"tags":["-a"]}`, want: []string{"invalid-format tags.0"}},
	{name: "scope bad", in: `{"scope":"team"}`, want: []string{"invalid-enum-value scope"}},
	{name: "scope null", in: `{"scope":null}`, want: []string{"invalid-enum-value scope"}},
	{name: "domain number", in: `{"domain":5}`, want: []string{"invalid-type domain"}},
	{name: "reversibility bad", in: `{"reversibility":"maybe"}`, want: []string{"invalid-enum-value reversibility"}},
	{name: "blastRadius bad", in: `{"blastRadius":"planet"}`, want: []string{"invalid-enum-value blastRadius"}},
	{name: "supersededBy bad", in: `{"status":"superseded","supersededBy":"x"}`, want: []string{"invalid-format supersededBy"}},
	{name: "supersededBy empty", in: `{"status":"superseded","supersededBy":""}`,
		want: []string{"invalid-format supersededBy", "superseded-requires-supersededBy supersededBy"}},
	{name: "supersededBy federated", in: `{"status":"superseded","supersededBy":"payments:0002"}`},
	{name: "relatesTo bad", in: `{"relatesTo":["42"]}`, want: []string{"invalid-format relatesTo.0"}},
	{name: "conflictsWith bad", in: `{"conflictsWith":[42]}`, want: []string{"invalid-type conflictsWith.0"}},
	{name: "complianceControls number", in: `{"complianceControls":[1]}`, want: []string{"invalid-type complianceControls.0"}},
	{name: "complianceControls any text", in: `{"complianceControls":["SOC 2 CC6.1",""]}`},
	{name: "reviewBy bad", in: `{"reviewBy":"soon"}`, want: []string{"invalid-format reviewBy"}},
	{name: "externalRefs object", in: `{"externalRefs":{}}`, want: []string{"invalid-type externalRefs"}},

	// Uniqueness and its gating.
	{name: "tags duplicate", in: `{"tags":["cache","cache"]}`, want: []string{"unique-items tags"}},
	{name: "tags duplicate numbers", in: `{"tags":[1,1]}`, want: []string{"invalid-type tags.0", "invalid-type tags.1"}},
	{name: "tags duplicate bad slugs", in: `{"tags":["Bad","Bad"]}`,
		want: []string{"invalid-format tags.0", "invalid-format tags.1", "unique-items tags"}},
	{name: "tags duplicate with one aborting item", in: `{"tags":["a","a",null]}`, want: []string{"invalid-type tags.2"}},
	{name: "tags many duplicates", in: `{"tags":["a","b","a","b","a"]}`, want: []string{"unique-items tags"}},
	{name: "supersedes duplicate", in: `{"supersedes":["0002","0002"]}`, want: []string{"unique-items supersedes"}},
	{name: "relatesTo duplicate", in: `{"relatesTo":["0002","0002"]}`, want: []string{"unique-items relatesTo"}},
	{name: "conflictsWith duplicate allowed", in: `{"conflictsWith":["0002","0002"]}`},
	{name: "complianceControls duplicate", in: `{"complianceControls":["x","x"]}`, want: []string{"unique-items complianceControls"}},
	{name: "deciders duplicate allowed", in: `{"deciders":["@a","@a"]}`},

	// Strictness: one issue per key, after the object's properties, keys
	// in JavaScript own-property order.
	{name: "unknown keys order", in: `{"b":1,"2":1,"a":1,"1":1,"01":1,"title":"ab"}`, want: []string{
		"invalid-size title", "strict-unknown-key 1", "strict-unknown-key 2", "strict-unknown-key b",
		"strict-unknown-key a", "strict-unknown-key 01"}},
	{name: "merge key is unknown", in: `{"<<":{"x":1}}`, want: []string{"strict-unknown-key <<"}},
	{name: "proto key is unknown", in: `{"__proto__":{}}`, want: []string{"strict-unknown-key __proto__"}},
	{name: "nested unknown keys", in: `{"owner":"@alice","review":{"tier":"async","colour":"blue"}}`,
		want: []string{"strict-unknown-key review.colour", "strict-unknown-key owner"}},

	// affects.
	{name: "affects not list", in: `{"affects":{"type":"path"}}`, want: []string{"invalid-type affects"}},
	{name: "affects item not mapping", in: `{"affects":["src/**"]}`, want: []string{"invalid-type affects.0"}},
	{name: "affects all wrong", in: `{"affects":[{"type":"file","pattern":"","repo":1,"negate":"yes","note":2,"glob":"x"}]}`,
		want: []string{"invalid-enum-value affects.0.type", "invalid-size affects.0.pattern", "invalid-type affects.0.repo",
			"invalid-type affects.0.negate", "invalid-type affects.0.note", "strict-unknown-key affects.0.glob"}},
	{name: "affects missing both", in: `{"affects":[{}]}`,
		want: []string{"invalid-enum-value affects.0.type", "required-field affects.0.pattern"}},
	{name: "affects second item", in: `{"affects":[{"type":"path","pattern":"a"},{"type":"api"}]}`,
		want: []string{"required-field affects.1.pattern"}},

	// assertions.
	{name: "assertion empty", in: `{"assertions":[{}]}`, want: []string{
		"required-field assertions.0.id", "invalid-enum-value assertions.0.engine", "invalid-enum-value assertions.0.severity"}},
	{name: "assertion all wrong", in: `{"assertions":[{"id":"Bad","description":1,"engine":"sql","expression":1,"expressionFile":1,"input":"db","severity":"fatal","x":1}]}`,
		want: []string{"invalid-format assertions.0.id", "invalid-type assertions.0.description", "invalid-enum-value assertions.0.engine",
			"invalid-type assertions.0.expression", "invalid-type assertions.0.expressionFile", "invalid-enum-value assertions.0.input",
			"invalid-enum-value assertions.0.severity", "strict-unknown-key assertions.0.x"}},
	{name: "assertion valid", in: `{"assertions":[{"id":"no-mysql","engine":"grep","severity":"warn"}]}`},

	// provenance.
	{name: "provenance null", in: `{"provenance":null}`, want: []string{"invalid-type provenance"}},
	{name: "provenance list", in: `{"provenance":[]}`, want: []string{"invalid-type provenance"}},
	{name: "provenance cyclic mapping", in: `{"provenance":{"agent":"«exotic:object»"}}`, want: []string{"invalid-type provenance.agent"}},
	{name: "affects cyclic list item", in: `{"affects":["«exotic:array»"]}`, want: []string{"invalid-type affects.0"}},
	{name: "tags cyclic list item", in: `{"tags":["«exotic:array»"]}`, want: []string{"invalid-type tags.0"}},
	{name: "provenance all wrong", in: `{"provenance":{"authoredBy":"robot","agent":{"name":1,"model":2,"harness":3,"runId":4,"x":5},"ratifiedBy":"bob","sourceArtifact":6,"importedFrom":{"y":1},"z":1}}`,
		want: []string{"invalid-enum-value provenance.authoredBy", "invalid-type provenance.agent.name", "invalid-type provenance.agent.model",
			"invalid-type provenance.agent.harness", "invalid-type provenance.agent.runId", "strict-unknown-key provenance.agent.x",
			"invalid-format provenance.ratifiedBy", "invalid-type provenance.sourceArtifact",
			"invalid-enum-value provenance.importedFrom.sourceKind", "required-field provenance.importedFrom.sourceRef",
			"required-field provenance.importedFrom.fingerprint", "strict-unknown-key provenance.importedFrom.y",
			"strict-unknown-key provenance.z"}},
	{name: "importedAt bad", in: `{"provenance":{"importedFrom":{"sourceKind":"madr","sourceRef":"r","fingerprint":"f","importedAt":"2026-01-01"}}}`,
		want: []string{"invalid-format provenance.importedFrom.importedAt"}},
	{name: "agent not mapping", in: `{"provenance":{"agent":"bot"}}`, want: []string{"invalid-type provenance.agent"}},

	// review.
	{name: "review all wrong", in: `{"review":{"tier":"fast","tierReason":1,"queuedAt":"x","slaDays":"3","escalatedAt":"2026-01-01T00:00:00z","decidedAt":"2026-01-01T00:00:00+0530","quorum":0,"approvals":["bob"],"objections":[{"summary":1,"resolved":"no","w":1}],"v":1}}`,
		want: []string{"invalid-enum-value review.tier", "invalid-type review.tierReason", "invalid-format review.queuedAt",
			"invalid-type review.slaDays", "invalid-format review.escalatedAt", "invalid-format review.decidedAt",
			"invalid-size review.quorum", "invalid-format review.approvals.0", "required-field review.objections.0.by",
			"invalid-type review.objections.0.summary", "invalid-type review.objections.0.resolved",
			"strict-unknown-key review.objections.0.w", "strict-unknown-key review.v"}},
	{name: "review objections not list", in: `{"review":{"objections":{}}}`, want: []string{"invalid-type review.objections"}},
	{name: "review approvals null", in: `{"review":{"approvals":null}}`, want: []string{"invalid-type review.approvals"}},

	// evaluation.
	{name: "evaluation all wrong", in: `{"evaluation":{"ranAt":"now","evaluatorVersion":1,"rubricVersion":2,"scores":{"a":9,"b":"x","c":-1},"confidence":2,"escalate":"y","escalationReasons":["nope"],"deterministicFindings":[{"rule":1,"severity":"fatal","message":2,"adr":"bad","q":1}],"u":1}}`,
		want: []string{"invalid-format evaluation.ranAt", "invalid-type evaluation.evaluatorVersion", "invalid-type evaluation.rubricVersion",
			"invalid-size evaluation.scores.a", "invalid-type evaluation.scores.b", "invalid-size evaluation.scores.c",
			"invalid-size evaluation.confidence", "invalid-type evaluation.escalate", "invalid-enum-value evaluation.escalationReasons.0",
			"invalid-type evaluation.deterministicFindings.0.rule", "invalid-enum-value evaluation.deterministicFindings.0.severity",
			"invalid-type evaluation.deterministicFindings.0.message", "invalid-format evaluation.deterministicFindings.0.adr",
			"strict-unknown-key evaluation.deterministicFindings.0.q", "strict-unknown-key evaluation.u"}},
	{name: "scores list", in: `{"evaluation":{"scores":[1]}}`, want: []string{"invalid-type evaluation.scores"}},
	{name: "scores integer keys first", in: `{"evaluation":{"scores":{"z":9,"1":9}}}`,
		want: []string{"invalid-size evaluation.scores.1", "invalid-size evaluation.scores.z"}},
	{name: "scores proto key skipped", in: `{"evaluation":{"scores":{"__proto__":9}}}`},
	{name: "deterministic finding empty", in: `{"evaluation":{"deterministicFindings":[{}]}}`,
		want: []string{"required-field evaluation.deterministicFindings.0.rule", "invalid-enum-value evaluation.deterministicFindings.0.severity"}},

	// externalRefs.
	{name: "external ref empty", in: `{"externalRefs":[{}]}`,
		want: []string{"invalid-enum-value externalRefs.0.type", "required-field externalRefs.0.url"}},
	{name: "external ref all wrong", in: `{"externalRefs":[{"type":"ticket","id":1,"url":"example.com","label":2,"k":1}]}`,
		want: []string{"invalid-enum-value externalRefs.0.type", "invalid-type externalRefs.0.id", "invalid-format externalRefs.0.url",
			"invalid-type externalRefs.0.label", "strict-unknown-key externalRefs.0.k"}},
	{name: "external ref url number", in: `{"externalRefs":[{"type":"doc","url":1}]}`, want: []string{"invalid-type externalRefs.0.url"}},
	{name: "external ref url punycode", in: `{"externalRefs":[{"type":"doc","url":"https://xn--a.com"}]}`,
		want: []string{"invalid-format externalRefs.0.url"}},

	// Numbers.
	{name: "integer written as float", in: `{"review":{"slaDays":1.0,"quorum":3}}`},
	{name: "negative zero meets minimum zero", in: `{"review":{"slaDays":"«-0»"}}`},
	{name: "largest safe integer", in: `{"review":{"quorum":9007199254740991}}`},
	{name: "two to the 53", in: `{"review":{"quorum":9007199254740992}}`, want: []string{"invalid-size review.quorum"}},
	{name: "huge integer", in: `{"review":{"slaDays":1e300}}`, want: []string{"invalid-size review.slaDays"}},
	{name: "huge negative integer fails both bounds", in: `{"review":{"slaDays":-1e300}}`,
		want: []string{"invalid-size review.slaDays", "invalid-size review.slaDays"}},
	{name: "quorum zero", in: `{"review":{"quorum":0}}`, want: []string{"invalid-size review.quorum"}},
	{name: "quorum fraction below minimum", in: `{"review":{"quorum":0.5}}`, want: []string{"invalid-type review.quorum"}},
	{name: "slaDays NaN", in: `{"review":{"slaDays":"«NaN»"}}`, want: []string{"invalid-type review.slaDays"}},
	{name: "slaDays infinity", in: `{"review":{"slaDays":"«Inf»"}}`, want: []string{"invalid-type review.slaDays"}},
	{name: "confidence bounds", in: `{"evaluation":{"confidence":1,"scores":{"a":0,"b":4,"c":"«-0»"}}}`},
	{name: "confidence negative", in: `{"evaluation":{"confidence":-0.1}}`, want: []string{"invalid-size evaluation.confidence"}},
	{name: "confidence NaN", in: `{"evaluation":{"confidence":"«NaN»"}}`, want: []string{"invalid-type evaluation.confidence"}},
	{name: "score infinity", in: `{"evaluation":{"scores":{"a":"«-Inf»"}}}`, want: []string{"invalid-type evaluation.scores.a"}},
	{name: "score just above four", in: `{"evaluation":{"scores":{"a":4.0000001}}}`, want: []string{"invalid-size evaluation.scores.a"}},

	// Dates and date-times.
	{name: "leap day 2024", in: `{"date":"2024-02-29"}`},
	{name: "leap day 2000", in: `{"date":"2000-02-29"}`},
	{name: "leap day year 0", in: `{"date":"0000-02-29"}`},
	{name: "leap day 2023", in: `{"date":"2023-02-29"}`, want: []string{"invalid-format date"}},
	{name: "leap day 1900", in: `{"date":"1900-02-29"}`, want: []string{"invalid-format date"}},
	{name: "february 30", in: `{"date":"2026-02-30"}`, want: []string{"invalid-format date"}},
	{name: "april 31", in: `{"date":"2026-04-31"}`, want: []string{"invalid-format date"}},
	{name: "december 31", in: `{"date":"2026-12-31"}`},
	{name: "short date", in: `{"date":"2026-1-1"}`, want: []string{"invalid-format date"}},
	{name: "date with time", in: `{"date":"2026-01-01T00:00:00Z"}`, want: []string{"invalid-format date"}},
	{name: "date with newline", in: `{"date":"2026-01-01\n"}`, want: []string{"invalid-format date"}},
	{name: "date-time minutes", in: `{"review":{"queuedAt":"2026-01-01T00:00Z"}}`},
	{name: "date-time fraction offset", in: `{"review":{"queuedAt":"2026-01-01T00:00:00.123456+05:30"}}`},
	{name: "date-time leap day", in: `{"review":{"decidedAt":"2024-02-29T23:59:59-12:00"}}`},
	{name: "date-time hour 24", in: `{"review":{"queuedAt":"2026-01-01T24:00Z"}}`, want: []string{"invalid-format review.queuedAt"}},
	{name: "date-time fraction without seconds", in: `{"review":{"queuedAt":"2026-01-01T00:00.5Z"}}`, want: []string{"invalid-format review.queuedAt"}},
	{name: "date-time date only", in: `{"review":{"queuedAt":"2026-01-01"}}`, want: []string{"invalid-format review.queuedAt"}},

	// Cross-field rules (§7.5) and their gating.
	{name: "rule 1", in: `{"status":"superseded"}`, want: []string{"superseded-requires-supersededBy supersededBy"}},
	{name: "rule 2", in: `{"supersededBy":"0002"}`, want: []string{"supersededBy-requires-superseded-status status"}},
	{name: "rule 3", in: `{"status":"accepted"}`, want: []string{"accepted-requires-decider-unless-imported deciders"}},
	{name: "rule 3 imported", in: `{"status":"accepted","provenance":{"importedFrom":{"sourceKind":"madr","sourceRef":"r","fingerprint":"f"}}}`},
	{name: "rule 4 agent", in: `{"status":"accepted","deciders":["@a"],"provenance":{"authoredBy":"agent"}}`,
		want: []string{"agent-accepted-requires-ratifier provenance.ratifiedBy"}},
	{name: "rule 4 agent-drafted", in: `{"status":"accepted","deciders":["@a"],"provenance":{"authoredBy":"agent-drafted"}}`,
		want: []string{"agent-accepted-requires-ratifier provenance.ratifiedBy"}},
	{name: "rule 4 ratified", in: `{"status":"accepted","deciders":["@a"],"provenance":{"authoredBy":"agent","ratifiedBy":"@b"}}`},
	{name: "rule 4 proposed", in: `{"status":"proposed","provenance":{"authoredBy":"agent"}}`},
	{name: "rule 5", in: `{"reversibility":"one-way-door","review":{"tier":"auto"}}`, want: []string{"one-way-door-disallows-auto review.tier"}},
	{name: "rule 5 async", in: `{"reversibility":"one-way-door","review":{"tier":"async"}}`},
	{name: "rules 2 to 5 together", in: `{"status":"accepted","supersededBy":"0002","reversibility":"one-way-door","provenance":{"authoredBy":"agent"},"review":{"tier":"auto"}}`,
		want: []string{"supersededBy-requires-superseded-status status", "accepted-requires-decider-unless-imported deciders",
			"agent-accepted-requires-ratifier provenance.ratifiedBy", "one-way-door-disallows-auto review.tier"}},
	{name: "continuable issue keeps rules", in: `{"status":"accepted","tags":["Bad"]}`,
		want: []string{"invalid-format tags.0", "accepted-requires-decider-unless-imported deciders"}},
	{name: "unique issue keeps rules", in: `{"status":"accepted","tags":["a","a"]}`,
		want: []string{"unique-items tags", "accepted-requires-decider-unless-imported deciders"}},
	{name: "size issue deep keeps rules", in: `{"status":"superseded","review":{"quorum":0}}`,
		want: []string{"invalid-size review.quorum", "superseded-requires-supersededBy supersededBy"}},
	{name: "bad enum suppresses rules", in: `{"status":"accepted","scope":"galaxy"}`, want: []string{"invalid-enum-value scope"}},
	{name: "bad status suppresses rule 2", in: `{"status":"approved","supersededBy":"0002"}`, want: []string{"invalid-enum-value status"}},
	{name: "deep type issue suppresses rules", in: `{"status":"superseded","affects":[{"type":"path","pattern":1}]}`,
		want: []string{"invalid-type affects.0.pattern"}},
	{name: "deep unknown key suppresses rules", in: `{"status":"superseded","affects":[{"type":"path","pattern":"x","glob":"y"}]}`,
		want: []string{"strict-unknown-key affects.0.glob"}},
	{name: "non-integer suppresses rules", in: `{"status":"superseded","review":{"slaDays":0.5}}`,
		want: []string{"invalid-type review.slaDays"}},
}

func TestValidateIssues(t *testing.T) {
	var golden strings.Builder
	for _, tc := range schemaCases {
		t.Run(tc.name, func(t *testing.T) {
			var in any
			if tc.root {
				in = tree(t, tc.in)
			} else {
				in = doc(t, tc.in)
			}
			fm, issues := Validate(in)
			got := summary(issues)
			if !slices.Equal(got, tc.want) {
				t.Errorf("issues:\n got %q\nwant %q", got, tc.want)
			}
			if (fm == nil) != (len(tc.want) > 0) {
				t.Errorf("frontmatter = %v with %d issues", fm != nil, len(issues))
			}
			for _, is := range issues {
				if is.Field != strings.Join(is.Path, ".") {
					t.Errorf("Field %q does not match Path %q", is.Field, is.Path)
				}
				if is.Message == "" || strings.Contains(is.Message, "\n") {
					t.Errorf("bad message %q", is.Message)
				}
			}
			// Validation is deterministic.
			_, again := Validate(in)
			if !slices.Equal(summary(again), got) {
				t.Errorf("second run differs: %q", summary(again))
			}
		})
		_, issues := Validate(func() any {
			if tc.root {
				return tree(t, tc.in)
			}
			return doc(t, tc.in)
		}())
		if len(issues) > 0 {
			fmt.Fprintf(&golden, "== %s\n", tc.name)
			for _, is := range issues {
				fmt.Fprintf(&golden, "%s %s: %s\n", is.Rule, is.Field, is.Message)
			}
		}
	}
	goldie.New(t).Assert(t, "validate_messages", []byte(golden.String()))
}

// TestValidateRawMinimal pins defaults and the schema key order of the
// parsed value.
func TestValidateRawMinimal(t *testing.T) {
	want := `{"schemaVersion":"0.1.0","id":"0001","title":"A decision","status":"draft","date":"2026-01-01","deciders":[],"consulted":[],"informed":[],"tags":[],"scope":"component","reversibility":"unknown","blastRadius":"component","supersedes":[],"relatesTo":[],"conflictsWith":[],"affects":[],"assertions":[],"externalRefs":[],"complianceControls":[]}`
	if got := validJSON(t, doc(t, "")); got != want {
		t.Errorf("raw:\n got %s\nwant %s", got, want)
	}
}

// TestValidateStatusCorpus0001 is the example of corpus.md §7.8 and
// mcp-server.md §3.8: YAML order differs from schema order (relatesTo and
// supersedes after affects), defaults fill the rest.
func TestValidateStatusCorpus0001(t *testing.T) {
	in := tree(t, `{"id":"0001","title":"Adopt PostgreSQL for the index","status":"accepted","date":"2026-01-01","deciders":["@maintainer"],"tags":["database","storage"],"affects":[{"type":"path","pattern":"src/**"}],"relatesTo":[],"supersedes":[]}`)
	want := `{"schemaVersion":"0.1.0","id":"0001","title":"Adopt PostgreSQL for the index","status":"accepted","date":"2026-01-01","deciders":["@maintainer"],"consulted":[],"informed":[],"tags":["database","storage"],"scope":"component","reversibility":"unknown","blastRadius":"component","supersedes":[],"relatesTo":[],"conflictsWith":[],"affects":[{"type":"path","pattern":"src/**","negate":false}],"assertions":[],"externalRefs":[],"complianceControls":[]}`
	if got := validJSON(t, in); got != want {
		t.Errorf("raw:\n got %s\nwant %s", got, want)
	}
}

// TestValidateRawFull feeds every field, each nested object's keys
// reversed, and pins the output order, defaults, URL trimming, integers,
// and the JavaScript order of scores.
func TestValidateRawFull(t *testing.T) {
	in := tree(t, `{
		"reviewBy":"2026-06-30",
		"complianceControls":["SOC2-CC6.1"],
		"externalRefs":[{"label":"Tracker","url":"  https://Example.com/a b\u3000","type":"issue","id":"ENG-1"},{"url":"urn:x","type":"rfc"}],
		"evaluation":{"deterministicFindings":[{"adr":"payments:0002","message":"m","severity":"warn","rule":"r"},{"severity":"info","rule":"s"}],
			"escalationReasons":["one-way-door"],"escalate":false,"confidence":-0.0,"scores":{"D2":1,"1":3,"a":0.5,"0":4,"4294967295":1,"4294967294":2,"01":0},
			"rubricVersion":"r1","evaluatorVersion":"e1","ranAt":"2026-01-01T00:00Z"},
		"review":{"objections":[{"resolved":true,"summary":"s","by":"@c"},{"by":"team:x"}],"approvals":["@d"],"quorum":2.0,"decidedAt":"2026-01-03T00:00Z",
			"escalatedAt":"2026-01-02T00:00Z","slaDays":"«-0»","queuedAt":"2026-01-01T00:00Z","tierReason":"why","tier":"arb"},
		"provenance":{"importedFrom":{"importedAt":"2026-01-01T00:00:00Z","fingerprint":"f","sourceRef":"r","sourceKind":"other"},"sourceArtifact":"plan.md",
			"ratifiedBy":"@e","agent":{"runId":"1","harness":"h","model":"m","name":"n"},"authoredBy":"agent"},
		"assertions":[{"severity":"error","input":"sbom","expressionFile":"f.rego","expression":"x","engine":"rego","description":"d","id":"a-1"},{"id":"b","engine":"grep","severity":"info"}],
		"affects":[{"note":"n","negate":true,"repo":"payments","pattern":"p","type":"entity"}],
		"conflictsWith":["0003","0003"],
		"relatesTo":["0004"],
		"supersededBy":"0005",
		"supersedes":["0006"],
		"blastRadius":"org",
		"reversibility":"two-way-door",
		"domain":"payments",
		"scope":"domain",
		"tags":["a"],
		"informed":["i@x.io"],
		"consulted":["@c"],
		"deciders":["@d"],
		"created":"2025-12-31",
		"date":"2026-01-01",
		"status":"superseded",
		"title":"All the fields",
		"id":"0007",
		"schemaVersion":"0.2.0"
	}`)
	fm, issues := Validate(in)
	if len(issues) > 0 {
		t.Fatalf("issues: %q", summary(issues))
	}
	goldie.New(t).Assert(t, "validate_raw_full", []byte(validJSON(t, in)+"\n"))

	if fm.Review.SLADays == nil || *fm.Review.SLADays != 0 || fm.Review.Quorum == nil || *fm.Review.Quorum != 2 {
		t.Errorf("review integers: %v %v", fm.Review.SLADays, fm.Review.Quorum)
	}
	if fm.ExternalRefs[0].URL != "https://Example.com/a b" {
		t.Errorf("url not trimmed: %q", fm.ExternalRefs[0].URL)
	}
	var keys []string
	for _, s := range fm.Evaluation.Scores {
		keys = append(keys, s.Key)
	}
	if want := []string{"0", "1", "4294967294", "D2", "a", "4294967295", "01"}; !slices.Equal(keys, want) {
		t.Errorf("score keys %q, want %q", keys, want)
	}
	if fm.Provenance.Agent.RunID != "1" || fm.Provenance.ImportedFrom.SourceKind != "other" || !fm.Review.Objections[0].Resolved ||
		fm.Affects[0].Repo != "payments" || !fm.Affects[0].Negate || fm.Assertions[1].Input != "source" ||
		fm.Evaluation.Escalate == nil || *fm.Evaluation.Escalate || fm.Evaluation.Confidence == nil || *fm.Evaluation.Confidence != 0 ||
		fm.Evaluation.DeterministicFindings[0].ADR != "payments:0002" || fm.SupersededBy != "0005" || fm.Scope != "domain" {
		t.Errorf("typed frontmatter does not mirror Raw: %+v", fm)
	}
}

// TestValidateScoresOrder pins the two observed scores orders.
func TestValidateScoresOrder(t *testing.T) {
	tests := []struct{ scores, want string }{
		{`{"D2":1,"1":3,"a":0.5}`, `{"1":3,"D2":1,"a":0.5}`},
		{`{"b":1,"2":3.5,"a":0.1,"1":4}`, `{"1":4,"2":3.5,"b":1,"a":0.1}`},
		{`{}`, `{}`},
	}
	for _, tt := range tests {
		v, issues := validate(doc(t, `{"evaluation":{"scores":`+tt.scores+`}}`))
		if len(issues) > 0 {
			t.Fatalf("issues: %q", summary(issues))
		}
		ev, _ := v.Get("evaluation")
		sc, _ := ev.(*jsvalue.Object).Get("scores")
		if got := string(jsvalue.AppendJSON(nil, sc)); got != tt.want {
			t.Errorf("scores %s -> %s, want %s", tt.scores, got, tt.want)
		}
	}
}

// TestValidateNumbersSerialise checks that accepted numbers serialise as
// JavaScript would: 1.0 as 1 and -0 as 0.
func TestValidateNumbersSerialise(t *testing.T) {
	got := validJSON(t, doc(t, `{"review":{"slaDays":"«-0»","quorum":1.0},"evaluation":{"confidence":0.25}}`))
	for _, want := range []string{`"review":{"slaDays":0,"quorum":1,"approvals":[],"objections":[]}`, `"evaluation":{"confidence":0.25,"escalationReasons":[],"deterministicFindings":[]}`} {
		if !strings.Contains(got, want) {
			t.Errorf("raw %s lacks %s", got, want)
		}
	}
}

// validJSON validates v and returns the value as JSON text, failing t on
// issues.
func validJSON(t *testing.T, v any) string {
	t.Helper()
	raw, issues := validate(v)
	if len(issues) > 0 {
		t.Fatalf("issues: %q", summary(issues))
	}
	return string(jsvalue.AppendJSON(nil, raw))
}

// Validate is validate with the typed view the tests compare: the typed
// frontmatter when there are no issues, otherwise nil and every issue.
func Validate(v any) (*adr.Frontmatter, []Issue) {
	out, issues := validate(v)
	if len(issues) > 0 {
		return nil, issues
	}
	return typed(out), nil
}

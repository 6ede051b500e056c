package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
	"github.com/adrkit/adrkit-go/domain/js/yaml12"
)

// obj builds an object from alternating keys and values, in that order.
func obj(kv ...any) *jsvalue.Object {
	o := jsvalue.NewObject(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

// TestFingerprintReferenceVectors checks the canonical writer against the
// reference's published vectors (corpus.md §12). The projections are built
// by hand, with the reference's own message text where a vector holds a
// finding: product messages are ours, so only hand-built values can
// reproduce these digests.
func TestFingerprintReferenceVectors(t *testing.T) {
	// The worked example's frontmatter, in schema order (not sorted), so
	// that the writer's key sorting is exercised.
	sameDecision := obj(
		"schemaVersion", "0.1.0", "id", "0001", "title", "Same decision", "status", "accepted",
		"date", "2026-01-01", "deciders", []string{"@maintainer"}, "consulted", []string{},
		"informed", []string{}, "tags", []string{"alpha", "beta"}, "scope", "component",
		"reversibility", "unknown", "blastRadius", "component", "supersedes", []string{},
		"relatesTo", []string{}, "conflictsWith", []string{}, "affects", []any{},
		"assertions", []any{}, "externalRefs", []any{}, "complianceControls", []string{},
	)
	tests := []struct {
		name      string
		records   []*adr.Record
		findings  []adr.Finding
		rc, ec    int
		canonical string
		want      string
	}{
		{
			name: "worked example",
			records: []*adr.Record{{
				SourcePath:  "docs/adr/0001-same-decision.md",
				Frontmatter: withValue(&adr.Frontmatter{ID: "0001"}, sameDecision),
				Body:        "\n# Same decision\n\nBody text stays byte-for-byte.\n",
			}},
			findings: []adr.Finding{{
				Rule: "record-too-large", Severity: adr.SeverityError, Path: "docs/adr/0002-too-big.md",
				Message: "ADR source exceeds the 64 KiB maximum and was excluded from this response",
			}},
			rc: 1, ec: 1,
			canonical: `{"corpusFindings":[{"message":"ADR source exceeds the 64 KiB maximum and was excluded from this response","path":"docs/adr/0002-too-big.md","rule":"record-too-large","severity":"error"}],"corpusHealth":{"excludedCount":1,"recordCount":1},"records":[{"body":"\n# Same decision\n\nBody text stays byte-for-byte.\n","frontmatter":{"affects":[],"assertions":[],"blastRadius":"component","complianceControls":[],"conflictsWith":[],"consulted":[],"date":"2026-01-01","deciders":["@maintainer"],"externalRefs":[],"id":"0001","informed":[],"relatesTo":[],"reversibility":"unknown","schemaVersion":"0.1.0","scope":"component","status":"accepted","supersedes":[],"tags":["alpha","beta"],"title":"Same decision"},"sourcePath":"docs/adr/0001-same-decision.md"}]}`,
			want:      "6153296fd3698e3989886843eaf223d9bfc3fde96aefe730c3176428c8a3954f",
		},
		{
			name:      "empty corpus",
			canonical: `{"corpusFindings":[],"corpusHealth":{"excludedCount":0,"recordCount":0},"records":[]}`,
			want:      "7cb8d007928a8c1081c21bff1197bc5a1d650604776bd986113daa610d407061",
		},
		{
			name: "unit vector",
			records: []*adr.Record{{
				SourcePath: "docs/adr/0001-x.md",
				Frontmatter: withValue(&adr.Frontmatter{ID: "0001"}, obj(
					"title", "X", "id", "0001", "status", "proposed", "slaDays", 14.0, "deciders", []string{"@alice"},
				)),
				Body: "Body text.",
			}},
			findings: []adr.Finding{{
				Rule: "demo-rule", Severity: adr.SeverityInfo, Message: "demo message", Path: "docs/adr/0001-x.md",
			}},
			rc: 1, ec: 0,
			canonical: `{"corpusFindings":[{"message":"demo message","path":"docs/adr/0001-x.md","rule":"demo-rule","severity":"info"}],"corpusHealth":{"excludedCount":0,"recordCount":1},"records":[{"body":"Body text.","frontmatter":{"deciders":["@alice"],"id":"0001","slaDays":14,"status":"proposed","title":"X"},"sourcePath":"docs/adr/0001-x.md"}]}`,
			want:      "8a2752a34b09379f12886f252aebb02fd446054957ff00149e6f0939a29d4fcf",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The published canonical text hashes to the published digest...
			sum := sha256.Sum256([]byte(tc.canonical))
			if got := hex.EncodeToString(sum[:]); got != tc.want {
				t.Fatalf("vector text hashes to %s, want %s", got, tc.want)
			}
			// ...and the streaming writer produces exactly that text.
			if got := fingerprint(tc.records, tc.findings, tc.rc, tc.ec); got != tc.want {
				t.Errorf("fingerprint = %s, want %s", got, tc.want)
			}
			if got := genericCanonical(tc.records, tc.findings, tc.rc, tc.ec); got != tc.canonical {
				t.Errorf("generic canonical =\n%s\nwant\n%s", got, tc.canonical)
			}
		})
	}
}

// genericCanonical builds the projection as jsvalue values and serialises
// it with the generic canonical writer: an independent route to the same
// bytes the streaming writer hashes.
func genericCanonical(records []*adr.Record, findings []adr.Finding, rc, ec int) string {
	recs := make([]any, len(records))
	for i, r := range records {
		v, err := yaml12.ParseValue(r.Frontmatter.Canonical) // JSON is YAML 1.2
		if err != nil {
			panic(err)
		}
		recs[i] = obj("sourcePath", r.SourcePath, "frontmatter", v, "body", r.Body)
	}
	fs := make([]any, len(findings))
	for i, f := range findings {
		o := obj("rule", f.Rule, "severity", string(f.Severity), "message", f.Message)
		for _, m := range [][2]string{{"path", f.Path}, {"id", f.ID}, {"field", f.Field}, {"pattern", f.Pattern}} {
			if m[1] != "" {
				o.Set(m[0], m[1])
			}
		}
		fs[i] = o
	}
	return string(jsvalue.AppendCanonical(nil, obj(
		"records", recs,
		"corpusFindings", fs,
		"corpusHealth", obj("recordCount", rc, "excludedCount", ec),
	)))
}

// TestFingerprintWriterMatchesGeneric covers the members the vectors do
// not (id, field, pattern, escapes) and bodies large enough to cross the
// writer's flush threshold.
func TestFingerprintWriterMatchesGeneric(t *testing.T) {
	big := strings.Repeat("line with \"quotes\", a tab\t and é😀\n", 4000)
	records := []*adr.Record{
		{SourcePath: "docs/adr/0001-a.md", Frontmatter: withValue(&adr.Frontmatter{}, obj("id", "0001", "nested", obj("z", 1, "a", []any{obj("y", true, "b", nil)}))), Body: big},
		{SourcePath: "docs/adr/0002-b.md", Frontmatter: withValue(&adr.Frontmatter{}, obj("id", "0002")), Body: "\r\n\u2028</x>"},
		{SourcePath: "docs/adr/0003-c.md", Frontmatter: withValue(&adr.Frontmatter{}, obj("id", "0003")), Body: big + big},
	}
	findings := []adr.Finding{
		{Rule: "affects-bad-pattern", Severity: adr.SeverityWarn, Message: "m\x01", Path: "p", ID: "0001", Field: "affects.path", Pattern: "/abs/**"},
		{Rule: "unique-id", Severity: adr.SeverityError, Message: "two", Path: "q", ID: "0002", Field: "id"},
		{Rule: "file-read", Severity: adr.SeverityError, Message: "no path"},
	}
	want := genericCanonical(records, findings, 3, 7)
	sum := sha256.Sum256([]byte(want))
	if got := fingerprint(records, findings, 3, 7); got != hex.EncodeToString(sum[:]) {
		t.Errorf("streaming writer disagrees with the generic canonical form")
	}
}

// withValue gives fm the validated value raw, as the pipeline keeps it.
func withValue(fm *adr.Frontmatter, raw *jsvalue.Object) *adr.Frontmatter {
	setValue(fm, raw)
	return fm
}

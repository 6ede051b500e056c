package app

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
)

// edgeProjection is a hand-built projection in the spirit of the
// reference's edge corpus: a duplicated id, every supersession state, a
// draft, a rejected record with another scope, unicode text, and the
// corpus findings such a corpus would carry (already in canonical order).
func edgeProjection() *corpus.Projection {
	findings := []adr.Finding{
		{Rule: "dangling-supersededBy", Severity: adr.SeverityError, Message: "m", Path: "docs/adr/0012-x.md", ID: "0012", Field: "supersededBy"},
		{Rule: "dangling-supersededBy", Severity: adr.SeverityError, Message: "m", Path: "docs/adr/0013-x.md", ID: "0013", Field: "supersededBy"},
		{Rule: "unique-id", Severity: adr.SeverityError, Message: "m", Path: "docs/adr/0010-first-duplicate.md", ID: "0010", Field: "id"},
		{Rule: "unique-id", Severity: adr.SeverityError, Message: "m", Path: "docs/adr/0010-second-duplicate.md", ID: "0010", Field: "id"},
	}
	src := []adr.Matcher{{Type: adr.MatcherPath, Pattern: "src/**"}}
	return projection(findings,
		rec{id: "0001", title: "Adopt PostgreSQL for the index", status: adr.StatusAccepted, tags: []string{"database", "storage"},
			body: "\n# Adopt PostgreSQL for the index\n\nWe add pgvector. ΟΔΟΣ ΣΑΣ\n", affects: src},
		rec{id: "0002", title: "Reject MongoDB", status: adr.StatusRejected, scope: adr.ScopeOrg, tags: []string{"database"},
			body: "\n# Reject MongoDB\n\nThe document store lost.\n", affects: src},
		rec{id: "0003", title: "Draft an event bus", status: adr.StatusDraft, tags: []string{"ＢＵＳ"},
			body: "\nNothing yet.\n", affects: []adr.Matcher{{Type: adr.MatcherPath, Pattern: "src/events/**"}}},
		rec{id: "0010", title: "Cache in Redis", status: adr.StatusAccepted, path: "docs/adr/0010-first-duplicate.md",
			tags: []string{"dup", "cache"}, body: "\n# DUP one\n"},
		rec{id: "0010", title: "Cache in Memcached", status: adr.StatusProposed, path: "docs/adr/0010-second-duplicate.md",
			tags: []string{"dup"}, body: "\n# dup two\n"},
		rec{id: "0011", title: "Cache in process", status: adr.StatusSuperseded, supersededBy: "0010", affects: src},
		rec{id: "0012", title: "Shared NFS volume", status: adr.StatusSuperseded, supersededBy: "0099"},
		rec{id: "0013", title: "TLS at each service", status: adr.StatusSuperseded, supersededBy: "payments:0020"},
		rec{id: "0014", title: "Single VM", status: adr.StatusSuperseded, supersededBy: "0015", supersedes: []string{"0011"}},
		rec{id: "0015", title: "Cluster", status: adr.StatusAccepted, supersedes: []string{"0014"},
			affects: []adr.Matcher{{Type: adr.MatcherPackage, Pattern: "left-pad@^1"}, {Type: adr.MatcherEntity, Pattern: "svc:x"},
				{Type: adr.MatcherPath, Pattern: "src/**", Repo: "other"}}},
	)
}

// render is what the MCP adapter would send: the summary line, then the
// structured content as compact-key-order JSON, indented for reading.
func render(t *testing.T, res Result) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(res.Text)
	b.WriteString("\n")
	if res.IsError {
		b.WriteString("isError\n")
	}
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res.Structured); err != nil {
		t.Fatalf("marshal structured: %v", err)
	}
	return b.Bytes()
}

// tree decodes the structured answer for navigation.
func tree(t *testing.T, res Result) map[string]any {
	t.Helper()
	raw, err := json.Marshal(res.Structured)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return m
}

func result(t *testing.T, res Result) map[string]any {
	t.Helper()
	m, ok := tree(t, res)["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result object in %s", render(t, res))
	}
	return m
}

// nextCursor returns the primary (or findings) cursor of an answer, "" for
// null.
func nextCursor(t *testing.T, res Result, findings bool) string {
	t.Helper()
	r := result(t, res)
	if findings {
		r = r["findings"].(map[string]any)
	}
	c, _ := r["cursor"].(string)
	return c
}

// ids lists the id of every object of an array member.
func ids(t *testing.T, v any) []string {
	t.Helper()
	arr, _ := v.([]any)
	out := []string{}
	for _, e := range arr {
		out = append(out, e.(map[string]any)["id"].(string))
	}
	return out
}

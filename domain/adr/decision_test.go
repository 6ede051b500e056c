package adr

import (
	"strings"
	"testing"
)

func TestDecisionSentence(t *testing.T) {
	long := "We " + strings.Repeat("really ", 60) + "decide."
	cases := []struct {
		name, body, want string
	}{
		{"none", "# Title\n\nSome context.\n", ""},
		{"first sentence", "## Decision\n\nWe use PostgreSQL. It is boring.\n", "We use PostgreSQL."},
		{"wrapped paragraph", "## Decision\n\nWe use\nPostgreSQL for sessions\n\nMore.\n", "We use PostgreSQL for sessions"},
		{"madr outcome", "## Decision Outcome\n\nChosen option: \"net/http\", because it is standard. Later.\n", "Chosen option: \"net/http\", because it is standard."},
		{"colon heading", "### Decision: use Go\n\nGo for every service!\n", "Go for every service!"},
		{"case and trailing hashes", "## DECISION ##\n\n**We** do __this__.\n", "We do this."},
		{"list item", "## Decision\n\n- Log JSON lines. Always.\n- Use snake_case.\n", "Log JSON lines."},
		{"numbered item", "## Decision\n\n1. First rule\n2. Second\n", "First rule"},
		{"abbreviation", "## Decision\n\nWe cache, e.g. sessions, in memory. Then more.\n", "We cache, e.g. sessions, in memory."},
		{"code fence skipped", "## Decision\n\n```go\nx := 1. y\n```\n\nAfter the code.\n", "After the code."},
		{"heading inside fence ignored", "```\n## Decision\n```\n\nNot this.\n", ""},
		{"only a subheading", "## Decision\n\n### Details\n\nText.\n", ""},
		{"other headings first", "## Context\n\nWhy.\n\n## Decision\n\nWhat.\n\n## Consequences\n\nThen.\n", "What."},
		{"decisions is not decision", "## Decisions made elsewhere\n\nNo.\n", ""},
		{"crlf", "## Decision\r\n\r\nWe use CRLF.\r\n", "We use CRLF."},
		{"capped", "## Decision\n\n" + long + "\n", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := DecisionSentence(tc.body)
			if tc.name == "capped" {
				if len(got) > DecisionSentenceMax || !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, "We really") {
					t.Fatalf("capped sentence %q (%d bytes)", got, len(got))
				}
				return
			}
			if got != tc.want {
				t.Fatalf("DecisionSentence = %q, want %q", got, tc.want)
			}
		})
	}
}

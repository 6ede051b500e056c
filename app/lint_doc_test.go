package app

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestSchemaDocListsEveryRule keeps docs/schema.md's lint rules and the
// code in step: one section per rule Lint can emit, in any order, each
// naming the rule's severity and showing a bad and a fixed example, and
// no section for a rule that does not exist.
func TestSchemaDocListsEveryRule(t *testing.T) {
	b, err := os.ReadFile("../docs/schema.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rules, ok := strings.Cut(string(b), "\n## Lint rules\n")
	if !ok {
		t.Fatal("docs/schema.md has no Lint rules section")
	}
	heading := regexp.MustCompile("(?m)^### `([^`]+)`\n")
	locs := heading.FindAllStringSubmatchIndex(rules, -1)
	documented := map[string]string{}
	for i, l := range locs {
		end := len(rules)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		documented[rules[l[2]:l[3]]] = rules[l[1]:end]
	}
	for _, r := range LintRules() {
		body, ok := documented[r.ID]
		if !ok {
			t.Errorf("docs/schema.md does not document %s", r.ID)
			continue
		}
		delete(documented, r.ID)
		if !strings.HasPrefix(strings.TrimSpace(body), string(r.Severity)+".") {
			t.Errorf("%s: the section does not start with its severity %q", r.ID, r.Severity)
		}
		if !strings.Contains(body, "Bad") || !strings.Contains(body, "Fixed") {
			t.Errorf("%s: the section has no bad and fixed example", r.ID)
		}
	}
	for id := range documented {
		t.Errorf("docs/schema.md documents %s, which lint does not emit", id)
	}
}

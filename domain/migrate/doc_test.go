package migrate

import (
	"os"
	"strings"
	"testing"
)

// TestSchemaDocStatusTable keeps the status table of docs/schema.md and
// StatusWords in step: every word is in its status's row, and the rows
// hold no other words.
func TestSchemaDocStatusTable(t *testing.T) {
	b, err := os.ReadFile("../../docs/schema.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(b), "## Statuses from other formats")
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]string{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[2]), "`") {
			continue
		}
		status := strings.Trim(strings.Fields(cells[2])[0], "`")
		rows[status] = cells[1]
	}
	counted := 0
	for word, st := range StatusWords {
		if !strings.Contains(rows[string(st)], "`"+word+"`") {
			t.Errorf("%q (%s) is not in the %s row of docs/schema.md", word, st, st)
		}
	}
	for _, row := range rows {
		counted += strings.Count(row, "`") / 2
	}
	if counted != len(StatusWords) {
		t.Errorf("docs/schema.md lists %d status words, StatusWords has %d", counted, len(StatusWords))
	}
	if !strings.Contains(section, "**`"+string(DefaultStatus)+"`**") {
		t.Errorf("docs/schema.md does not name the default status %s", DefaultStatus)
	}
}

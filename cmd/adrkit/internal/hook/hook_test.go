package hook

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/internal/gittest"
)

// TestRun calls the hook's run with options of the test's own: the
// event on In, the corpus located by the test, no state kept.
func TestRun(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "repo")
	gittest.MakeRoot(t, repo, map[string]string{
		"docs/adr/0001-store-orders.md": "---\nid: \"0001\"\ntitle: Store orders in PostgreSQL\nstatus: accepted\n" +
			"date: 2026-03-02\ndeciders: [\"@dana\"]\naffects:\n  - type: path\n    pattern: \"services/**\"\n---\n\n# Store orders\n",
	})
	state := t.TempDir()
	cases := []struct {
		name, file string
		want       string
	}{
		{"governed", "services/api.go", "0001"},
		{"ungoverned", "web/app.js", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			event := `{"hook_event_name":"PreToolUse","session_id":"` + tc.name + `","tool_name":"Write","tool_input":{"file_path":"` + tc.file + `"}}`
			err := run(context.Background(), &Options{
				In: strings.NewReader(event), Out: &out, Host: agenthost.Claude, StateDir: state,
				Getwd: func() (string, error) { return repo, nil },
				Locate: func(getwd func() (string, error)) entry.Location {
					wd, _ := getwd()
					return entry.Location{Root: wd, Dir: "docs/adr", WD: wd}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := out.String(); (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("answer %q, want one naming %q", got, tc.want)
			}
		})
	}
}

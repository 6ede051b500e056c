package main

import (
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestCheckCommentGoldens pins check --format comment on the gate corpus:
// governing decisions, proposals and history with the pattern or marker
// that matched, a hold, a changed record with an error, a file nothing
// covers, and the same change passing. Regenerate with
// go test ./cmd/adrkit -run TestCheckCommentGoldens -update.
func TestCheckCommentGoldens(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"check-comment", []string{"check", "services/api/server.go", "services/queue/worker.go", "lib/util.go", "gone.go", "--format", "comment"}},
		{"check-comment-changed-record", []string{"check", "docs/adr/0006-broken.md", "lib/util.go", "--format", "comment"}},
		{"check-comment-nothing", []string{"check", "--format", "comment"}},
		{"check-comment-bad-format", []string{"check", "--format", "comments"}},
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, root := repoRunner(t, "gate")
			g.Assert(t, tc.name, []byte(r.run(append([]string{"--cwd", root}, tc.args...)...).String()))
		})
	}
}

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestQueueGoldens pins adrkit queue in its three formats on the queue
// corpus (a record in every SLA state, every item finding, a record that
// is not valid, one whose one-way door takes the auto tier, one nested
// where it is never read), the default date (the test clock's), the
// empty queue, and the usage mistakes. Regenerate with
// go test ./cmd/adrkit -run TestQueueGoldens -update.
func TestQueueGoldens(t *testing.T) {
	cases := []struct {
		name, corpus string
		args         []string
	}{
		{"queue-text", "queue", []string{"queue", "--as-of", "2026-01-08"}},
		{"queue-markdown", "queue", []string{"queue", "--as-of", "2026-01-08", "--format", "markdown"}},
		{"queue-json", "queue", []string{"queue", "--as-of", "2026-01-08", "--format", "json"}},
		{"queue-today", "queue", []string{"queue", "--format", "json"}},
		{"queue-empty", "clean", []string{"queue"}},
		{"queue-empty-markdown", "clean", []string{"queue", "--format", "markdown"}},
		{"queue-color", "queue", []string{"--color", "always", "queue", "--as-of", "2026-01-08"}},
		{"queue-zoneless", "queue", []string{"queue", "--as-of", "2026-01-08T09:00:00"}},
		{"queue-no-such-day", "queue", []string{"queue", "--as-of", "2026-02-30"}},
		{"queue-bad-format", "queue", []string{"queue", "--format", "yaml"}},
		{"queue-argument", "queue", []string{"queue", "0001"}},
		{"queue-dir-not-found", "queue", []string{"--dir", "decisions", "queue"}},
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, root := repoRunner(t, tc.corpus)
			g.Assert(t, tc.name, []byte(r.run(append([]string{"--cwd", root}, tc.args...)...).String()))
		})
	}
	// On a terminal 80 columns wide the tables wrap between words.
	t.Run("queue-terminal-80", func(t *testing.T) {
		r, root := repoRunner(t, "queue")
		r.terminal, r.env["COLUMNS"] = true, "80"
		g.Assert(t, "queue-terminal-80", []byte(r.run("--cwd", root, "--color", "never", "queue", "--as-of", "2026-01-08").String()))
	})
	t.Run("help-queue", func(t *testing.T) {
		g.Assert(t, "help-queue", []byte(newRunner(t).run("queue", "--help").String()))
	})
}

// TestQueueAsOf: every form --as-of takes resolves to the UTC date the
// report names, and every form it refuses is a usage mistake (status 2)
// before the corpus is read.
func TestQueueAsOf(t *testing.T) {
	r, root := repoRunner(t, "queue")
	for _, tc := range []struct {
		asOf, want string
		code       int
	}{
		{"2026-01-08", "2026-01-08", 1},
		{"2024-02-29", "2024-02-29", 1},
		{"2026-01-08T00:00:00Z", "2026-01-08", 1},
		{"2026-01-08T22:00:00-05:00", "2026-01-09", 1},
		{"2026-01-08T01:00:00+0200", "2026-01-07", 1},
		{"2026-01-08T10:00Z", "2026-01-08", 1},
		{"2026-01-08T10:00:00", "", 2},
		{"2023-02-29", "", 2},
		{"2026-02-30T00:00:00Z", "", 2},
		{"08/01/2026", "", 2},
		{"", "", 2},
	} {
		out := r.run("--cwd", root, "queue", "--format", "json", "--as-of", tc.asOf)
		if out.code != tc.code {
			t.Errorf("--as-of %q: status %d, want %d (%s)", tc.asOf, out.code, tc.code, out.stderr)
			continue
		}
		if tc.code == 2 {
			if out.stdout != "" || !strings.Contains(out.stderr, "--as-of") {
				t.Errorf("--as-of %q: stdout %q stderr %q", tc.asOf, out.stdout, out.stderr)
			}
			continue
		}
		var rep struct{ AsOf string }
		if err := json.Unmarshal([]byte(out.stdout), &rep); err != nil || rep.AsOf != tc.want {
			t.Errorf("--as-of %q: asOf %q, want %q (%v)", tc.asOf, rep.AsOf, tc.want, err)
		}
	}
}

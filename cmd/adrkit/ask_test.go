package main

import (
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestGoldenAsk pins adrkit ask on the chains corpus: each outcome,
// human and --json, and the refusals. Each question is asked twice with
// one state directory: the second answer, from the kept index, must be
// the first's.
func TestGoldenAsk(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"ask-found", []string{"ask", "do", "we", "run", "durable", "workflows?"}},
		{"ask-replaced", []string{"ask", "do we run scheduled work as cron jobs?"}},
		{"ask-rejected", []string{"ask", "should we split the monolith by team?"}},
		{"ask-proposal", []string{"ask", "should scheduled work use serverless timers?", "--limit", "2"}},
		{"ask-no-record", []string{"ask", "what is the coffee budget?"}},
		{"ask-json", []string{"ask", "do we run scheduled work as cron jobs?", "--json", "--limit", "2"}},
		{"ask-empty", []string{"ask", " "}},
		{"ask-no-question", []string{"ask"}},
		{"ask-limit-zero", []string{"ask", "cron", "--limit", "0"}},
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, root := repoRunner(t, "chains")
			r.env["ADRKIT_HOOK_STATE_DIR"] = t.TempDir()
			first := r.run(append([]string{"--cwd", root}, tc.args...)...).String()
			if again := r.run(append([]string{"--cwd", root}, tc.args...)...).String(); again != first {
				t.Errorf("asked again:\n%s\nfirst:\n%s", again, first)
			}
			g.Assert(t, tc.name, []byte(first))
		})
	}
	t.Run("help-ask", func(t *testing.T) {
		g.Assert(t, "help-ask", []byte(newRunner(t).run("ask", "--help").String()))
	})
}

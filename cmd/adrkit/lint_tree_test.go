package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

// TestLintAffectsMatchesNothing: in a repository's working tree, lint
// warns of a live decision's pattern that matches no file git tracks and
// names the nearest that would; --strict fails on it; read at a revision
// (--rev) the working tree is not lint's business and nothing is said.
func TestLintAffectsMatchesNothing(t *testing.T) {
	w := gittest.NewWorktree(t, filepath.Join(t.TempDir(), "repo"))
	w.Write("services/orders/db.go", "package orders\n")
	w.Write("docs/adr/0001-orders.md", "---\nid: \"0001\"\ntitle: Orders in PostgreSQL\nstatus: accepted\ndate: 2026-01-02\n"+
		"deciders: [\"@ana\"]\naffects:\n  - type: path\n    pattern: \"servics/**\"\n  - type: path\n    pattern: \"Services/Orders/*.go\"\n"+
		"  - type: path\n    pattern: \"services/orders/*.go\"\n---\n\nOrders live in PostgreSQL.\n")
	w.Commit("orders")
	r := newRunner(t)
	r.hide = append(r.hide, filepath.Dir(w.Root()))
	r.wd = w.Root()

	got := r.run("lint", "--as-of", "2026-06-15")
	for _, want := range []string{
		`line 9   warn  affects-matches-nothing  affects.path  affects pattern "servics/**" matches no file git tracks, so the decision governs nothing there; did you mean "services/**"?`,
		`line 11  warn  affects-matches-nothing  affects.path  affects pattern "Services/Orders/*.go" matches no file git tracks, so the decision governs nothing there; did you mean "services/orders/*.go"?`,
	} {
		if !strings.Contains(got.stdout, want) {
			t.Errorf("lint lacks %q:\n%s", want, got)
		}
	}
	if got.code != 0 || strings.Contains(got.stdout, `"services/orders/*.go" matches no file`) {
		t.Errorf("lint: %s", got)
	}
	if got := r.run("lint", "--strict", "--as-of", "2026-06-15"); got.code != 1 {
		t.Errorf("lint --strict: %s", got)
	}
	if got := r.run("--rev", "HEAD", "lint", "--as-of", "2026-06-15"); got.code != 0 || strings.Contains(got.stdout, "affects-matches-nothing") {
		t.Errorf("lint --rev HEAD: %s", got)
	}
}

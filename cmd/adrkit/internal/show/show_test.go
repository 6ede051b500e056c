package show

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/toolcmd"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/internal/gittest"
)

// TestRun calls the run with options of the test's own: a person sees the
// record in the style asked for; --json prints the tool's answer and
// never asks for a style.
func TestRun(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "repo")
	gittest.MakeRoot(t, repo, map[string]string{
		"docs/adr/0001-store-orders.md": "---\nid: \"0001\"\ntitle: Store orders in PostgreSQL\nstatus: accepted\n" +
			"date: 2026-03-02\ndeciders: [\"@dana\"]\n---\n\n# Store orders\n\nOrders go to PostgreSQL.\n",
	})
	where := entry.Location{Root: repo, Dir: "docs/adr"}
	cases := []struct {
		name, ref string
		json      bool
		code      int
		want      string
	}{
		{"person", "0001", false, factory.ExitOK, "Orders go to PostgreSQL."},
		{"json", "0001", true, factory.ExitOK, `"outcome": "found"`},
		{"missing", "0404", false, factory.ExitFailure, "0404"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			styled := false
			err := run(context.Background(), &Options{Ref: tc.ref, Options: toolcmd.Options{
				Out: &out, Command: "adrkit show", JSON: tc.json,
				Corpus: func(ctx context.Context) (*factory.Corpus, error) {
					svc, err := where.Open(ctx, entry.Surface{})
					return &factory.Corpus{Where: where, Service: svc}, err
				},
				Style: func() (render.Style, error) { styled = true; return render.NewStyle(false), nil },
			}})
			code := factory.ExitOK
			if exit := (factory.ExitError{}); errors.As(err, &exit) {
				code = exit.Code
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || !strings.Contains(out.String(), tc.want) {
				t.Errorf("status %d, want %d; output:\n%s", code, tc.code, out.String())
			}
			if styled == tc.json {
				t.Errorf("style asked for: %v, with --json %v", styled, tc.json)
			}
		})
	}
}

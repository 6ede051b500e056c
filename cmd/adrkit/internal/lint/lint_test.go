package lint

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/ports"
)

type fixedClock struct{}

func (fixedClock) Now() time.Time { return time.Date(2026, 6, 15, 12, 0, 0, 0, time.UTC) }

// TestNewCmdLintReadsOptions intercepts the run: the command line becomes
// the options, and nothing is built before the run asks for it.
func TestNewCmdLintReadsOptions(t *testing.T) {
	f := factory.New(factory.Env{Stdout: &bytes.Buffer{}})
	var got *Options
	cmd := NewCmdLint(f, func(_ context.Context, o *Options) error { got = o; return nil })
	cmd.Flags = append(cmd.Flags, &cli.StringFlag{Name: "color", Value: "auto"})
	if err := cmd.Run(context.Background(), []string{"lint", "--format", "json", "--strict", "--as-of", "2026-01-01", "docs/adr/0001-a.md"}); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Format != render.LintJSON || !got.Strict || got.AsOf != "2026-01-01" || !slices.Equal(got.Paths, []string{"docs/adr/0001-a.md"}) {
		t.Fatalf("options: %+v", got)
	}
	if b := f.Built(); len(b) != 0 {
		t.Errorf("built %q before the run", b)
	}
}

// TestRun calls the run with options of a test's own: the corpus a
// Location opens, the plain style, a fixed clock.
func TestRun(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "repo")
	gittest.MakeRoot(t, repo, map[string]string{
		"docs/adr/0001-a.md": "---\nid: \"0001\"\ntitle: Alpha\nstatus: accepted\ndate: 2026-03-02\ndeciders: [\"@dana\"]\n---\n\n# A\n",
		"docs/adr/0002-b.md": "---\nid: \"0002\"\ntitle: Bravo\nstatus: accepted\ndate: 2026-03-02\n---\n\n# B\n",
	})
	where := entry.Location{Root: repo, Dir: "docs/adr"}
	svc, err := where.Open(context.Background(), entry.Surface{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		paths []string
		code  int
		want  string
	}{
		{"whole corpus", nil, factory.ExitFailure, "docs/adr/0002-b.md"},
		{"a clean record", []string{filepath.Join(repo, "docs/adr/0001-a.md")}, factory.ExitOK, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(context.Background(), &Options{
				Out: &out, Command: "adrkit lint", Paths: tc.paths, Format: render.LintText,
				Corpus: func(context.Context) (*factory.Corpus, error) {
					return &factory.Corpus{Where: where, Source: render.NewSource(repo, "docs/adr", ""), Service: svc}, nil
				},
				Style: func() (render.Style, error) { return render.NewStyle(false), nil },
				Clock: func() ports.Clock { return fixedClock{} },
			})
			code := factory.ExitOK
			if exit := (factory.ExitError{}); errors.As(err, &exit) {
				code = exit.Code
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || !strings.Contains(out.String(), tc.want) {
				t.Errorf("status %d, want %d; output:\n%s", code, tc.code, out.String())
			}
		})
	}
}

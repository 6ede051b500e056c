package sitecli

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/site"
)

// The point of this package and of adrkit-site (ADR 0035): adrkit links
// no Markdown renderer, whose package initialisation every adrkit process
// would pay at start-up; adrkit-site does.
func TestOnlyAdrkitSiteLinksGoldmark(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	deps := func(pkg string) []string {
		cmd := exec.Command(goTool, "list", "-deps", pkg)
		cmd.Dir = filepath.Join("..", "..", "..")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	for _, pkg := range []string{"./cmd/adrkit", "./cmd/adrkit-mcp"} {
		for _, dep := range deps(pkg) {
			if strings.Contains(dep, "goldmark") || dep == "github.com/adrkit/adrkit-go/adapters/site" {
				t.Errorf("%s links %s", pkg, dep)
			}
		}
	}
	if !slices.ContainsFunc(deps("./cmd/adrkit-site"), func(d string) bool { return strings.HasPrefix(d, "github.com/yuin/goldmark") }) {
		t.Error("adrkit-site does not link goldmark: the guard above would pass for the wrong reason")
	}
}

// The help's default title is the builder's.
func TestDefaultTitle(t *testing.T) {
	if DefaultTitle != site.DefaultTitle {
		t.Errorf("DefaultTitle = %q, adapters/site's is %q", DefaultTitle, site.DefaultTitle)
	}
}

// parse runs Parse on a command line of the site command's options.
func parse(t *testing.T, args ...string) (Request, error) {
	t.Helper()
	var req Request
	var perr error
	cmd := &cli.Command{Name: "site", Flags: Flags(), Action: func(_ context.Context, cmd *cli.Command) error {
		req, perr = Parse(cmd)
		return nil
	}}
	if err := cmd.Run(context.Background(), append([]string{"site"}, args...)); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return req, perr
}

// Args gives adrkit-site the request it was given, and only what was
// given: an empty or dash-led value stays a value, OUTDIR stays an
// argument.
func TestArgsRoundTrip(t *testing.T) {
	cases := [][]string{
		{"out"},
		{"--title", "", "out"},
		{"--title", "-x", "--as-of", "2026-01-02", "--base-url", "https://example.org/adr/", "--", "-out"},
		{"--serve", "127.0.0.1:0"},
		{"--serve", "localhost:8000", "--title", "T"},
	}
	for _, args := range cases {
		want, err := parse(t, args...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		got, err := parse(t, want.Args()...)
		if err != nil {
			t.Fatalf("%q → %q: %v", args, want.Args(), err)
		}
		if !equal(got, want) {
			t.Errorf("%q → %q gave %+v, want %+v", args, want.Args(), got, want)
		}
	}
	if got := mustParse(t, "out").Args(); !slices.Equal(got, []string{"--", "out"}) {
		t.Errorf("options not given were passed on: %q", got)
	}
}

func mustParse(t *testing.T, args ...string) Request {
	t.Helper()
	r, err := parse(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func equal(a, b Request) bool {
	if a.OutDir != b.OutDir || a.Serve != b.Serve || a.Title != b.Title || a.BaseURL != b.BaseURL || a.AsOf != b.AsOf {
		return false
	}
	for k, v := range a.set {
		if b.set[k] != v {
			return false
		}
	}
	return true
}

// Package sitecli is the command line of the decision browser, shared by
// the two programs that take it: adrkit, whose `site` command checks a
// command line and hands it to adrkit-site, and adrkit-site, which builds
// the site (ADR 0035). It holds the help, the options, the checks made
// before anything is read and the words of the program's diagnostics,
// so that both say the same.
//
// It must never link a Markdown renderer (adapters/site and goldmark):
// adrkit imports it, and goldmark's package initialisation would cost
// every adrkit process, every hook event included.
package sitecli

import (
	"context"
	"fmt"
	"net"
	"net/url"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/app"
)

// Name is the command the diagnostics point at for help, whichever
// program prints them: `adrkit site` is the documented command.
const Name = "adrkit site"

// Program is the site builder's program name (plus ".exe" on Windows).
const Program = "adrkit-site"

// DefaultTitle is the title of a site built without --title: the same as
// adapters/site.DefaultTitle (a test holds them equal), spelled here so
// that adrkit's help does not link the builder.
const DefaultTitle = "Architecture decisions"

// Usage is the command's one-line summary.
const Usage = "build a browsable static site of the decisions, or preview it on a loopback address"

// UsageText is the command's synopsis.
const UsageText = "adrkit site (OUTDIR | --serve ADDR) [--title TEXT] [--base-url URL] [--as-of YYYY-MM-DD]"

// Description is the command's help text.
const Description = "Writes a static site of the decisions to OUTDIR for people: an index with filters, a page\n" +
	"per decision (its body, frontmatter, relations both ways, supersession chain and verdict,\n" +
	"affects patterns), the relation graph as SVG, a \"what governs this path?\" box that follows\n" +
	"explain's rules, the lint findings and the changes from git history. It needs no server:\n" +
	"open OUTDIR/index.html, or publish OUTDIR on any static host. The same corpus gives the\n" +
	"same bytes (on the same day, or with --as-of: lint's reviewBy check reads the date). OUTDIR\n" +
	"must be new, empty or an earlier site (whose stale pages are removed). Exits 0 once the\n" +
	"site is written, whatever the corpus's findings: the site shows them.\n" +
	"With --serve ADDR (a loopback address such as 127.0.0.1:8000) the site is served from\n" +
	"memory instead, and built again when a record changes. See docs/site.md.\n\n" +
	"Examples:\n" +
	"  adrkit site public/adr --title \"Payments decisions\"\n" +
	"  adrkit site _site --base-url https://example.org/adr/\n" +
	"  adrkit site --serve 127.0.0.1:8000"

// Flags are the command's own options (the corpus options are the
// programs' global ones).
func Flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "title", Usage: "the site's title (default \"" + DefaultTitle + "\")"},
		&cli.StringFlag{Name: "base-url", Usage: "the absolute http(s) URL the site is published at: adds canonical links and a sitemap.xml"},
		&cli.StringFlag{Name: "serve", Usage: "serve the site on this loopback host:port instead of writing it, rebuilding when a record changes"},
		&cli.StringFlag{Name: "as-of", Usage: "compare reviewBy dates with this day (YYYY-MM-DD) instead of today (UTC), as lint does"},
	}
}

// Request is one checked command line of the site command.
type Request struct {
	// OutDir is where the site is written, as given; "" with Serve.
	OutDir string
	// Serve is the loopback address of the preview; "" to write OutDir.
	Serve string
	// Title and BaseURL are the site's options as given ("" when not).
	Title, BaseURL string
	// AsOf is the day reviewBy dates are compared with; "" for today.
	AsOf string

	set map[string]bool // the options given, so that Args repeats only those
}

// Parse checks the command line of cmd, whose flags include Flags: one
// OUTDIR or --serve with a loopback host:port, an absolute http(s)
// --base-url, a real --as-of day. Its error is a command-line mistake's
// words (the caller's usage error, status 2). The address is only
// checked here, not listened on (Listen does that).
func Parse(cmd *cli.Command) (Request, error) {
	serve := cmd.IsSet("serve")
	args := cmd.Args().Slice()
	switch {
	case serve && len(args) > 0:
		return Request{}, fmt.Errorf("--serve serves from memory; give it no OUTDIR")
	case !serve && len(args) != 1:
		return Request{}, fmt.Errorf("site needs exactly one OUTDIR (or --serve ADDR), e.g. adrkit site public/adr")
	case !serve && args[0] == "":
		return Request{}, fmt.Errorf("OUTDIR must not be empty")
	}
	r := Request{Title: cmd.String("title"), set: map[string]bool{}}
	for _, name := range []string{"title", "base-url", "serve", "as-of"} {
		r.set[name] = cmd.IsSet(name)
	}
	if !serve {
		r.OutDir = args[0]
	}
	if base := cmd.String("base-url"); base != "" {
		u, err := url.Parse(base)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Request{}, fmt.Errorf("--base-url must be an absolute http or https URL, got %q", base)
		}
		r.BaseURL = base
	}
	r.AsOf = cmd.String("as-of")
	if cmd.IsSet("as-of") {
		if err := app.ValidateDate(r.AsOf); err != nil {
			return Request{}, fmt.Errorf("--as-of: %w", err)
		}
	}
	if serve {
		r.Serve = cmd.String("serve")
		if err := checkLoopback(r.Serve); err != nil {
			return Request{}, err
		}
	}
	return r, nil
}

// Args is the command line (without the corpus options) that gives
// adrkit-site the same request: only the options that were given, each
// as --name=value so that an empty value or one starting with "-" stays
// a value, and OUTDIR after "--" so that it is never taken for an option.
func (r Request) Args() []string {
	var out []string
	add := func(name, value string) {
		if r.set[name] {
			out = append(out, "--"+name+"="+value)
		}
	}
	add("title", r.Title)
	add("base-url", r.BaseURL)
	add("as-of", r.AsOf)
	add("serve", r.Serve)
	if r.OutDir != "" {
		out = append(out, "--", r.OutDir)
	}
	return out
}

// checkLoopback refuses an address that is not host:port with a loopback
// host: the preview is for the person at this machine, never for a
// network.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--serve must be host:port, got %q", addr)
	}
	if host != "localhost" {
		ip := net.ParseIP(host)
		if ip == nil || !ip.IsLoopback() {
			return fmt.Errorf("--serve must be a loopback address (127.0.0.1, [::1] or localhost), got %q", addr)
		}
	}
	return nil
}

// Listen listens on the loopback address addr (checked as Parse checks
// it). Its error is a command-line mistake's words, as the address's
// are: the address is the user's choice.
func Listen(ctx context.Context, addr string) (net.Listener, error) {
	if err := checkLoopback(addr); err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--serve %s: %w", addr, err)
	}
	return ln, nil
}

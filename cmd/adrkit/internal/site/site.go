// Package site is adrkit site: a browsable static site of the decisions,
// written to a directory or previewed on a loopback address. The Markdown
// renderer it links (goldmark v2) costs the other commands nothing at
// start-up (ADR 0036).
package site

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/site"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/ports"
)

// sitePoll is how often site --serve looks for a changed corpus: one
// projection, which rereads and rehashes the record files but parses only
// the changed ones (the Service's parse cache), so a poll of a
// thousand-record corpus costs milliseconds.
const sitePoll = 500 * time.Millisecond

// Options is one run of adrkit site.
type Options struct {
	Out io.Writer
	// Command is the full name, for usage errors.
	Command string
	// OutDir is where the site is written, relative to the directory
	// adrkit was started in ("" with Serve).
	OutDir string
	// Serve serves the site on the loopback address Addr instead of
	// writing OutDir.
	Serve bool
	Addr  string
	Site  site.Options
	AsOf  string
	// Getwd is the directory adrkit was started in.
	Getwd func() (string, error)

	Corpus func(context.Context) (*factory.Corpus, error)
	Clock  func() ports.Clock
}

// NewCmdSite is adrkit site; runF, when set, is called instead of the
// run (tests intercept the options with it).
func NewCmdSite(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "site",
		Usage:     "build a browsable static site of the decisions, or preview it on a loopback address",
		UsageText: "adrkit site (OUTDIR | --serve ADDR) [--title TEXT] [--base-url URL] [--as-of YYYY-MM-DD]",
		Description: "Writes a static site of the decisions to OUTDIR for people: an index with filters, a page\n" +
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
			"  adrkit site --serve 127.0.0.1:8000",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "title", Usage: "the site's title (default \"" + site.DefaultTitle + "\")"},
			&cli.StringFlag{Name: "base-url", Usage: "the absolute http(s) URL the site is published at: adds canonical links and a sitemap.xml"},
			&cli.StringFlag{Name: "serve", Usage: "serve the site on this loopback host:port instead of writing it, rebuilding when a record changes"},
			&cli.StringFlag{Name: "as-of", Usage: "compare reviewBy dates with this day (YYYY-MM-DD) instead of today (UTC), as lint does"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			usage := func(msg string) error { return factory.UsageError{Command: cmd.FullName(), Msg: msg} }
			serve := cmd.IsSet("serve")
			args := cmd.Args().Slice()
			switch {
			case serve && len(args) > 0:
				return usage("--serve serves from memory; give it no OUTDIR")
			case !serve && len(args) != 1:
				return usage("site needs exactly one OUTDIR (or --serve ADDR), e.g. adrkit site public/adr")
			case !serve && args[0] == "":
				return usage("OUTDIR must not be empty")
			}
			opts := &Options{
				Out: f.Out, Command: cmd.FullName(), Site: site.Options{Title: cmd.String("title")}, AsOf: cmd.String("as-of"), Getwd: f.Getwd,
				Corpus: func(ctx context.Context) (*factory.Corpus, error) { return f.Corpus(ctx, cmd) },
				Clock:  f.Clock,
			}
			if opts.Serve, opts.Addr = serve, cmd.String("serve"); !serve {
				opts.OutDir = args[0]
			}
			if base := cmd.String("base-url"); base != "" {
				u, err := url.Parse(base)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					return usage(fmt.Sprintf("--base-url must be an absolute http or https URL, got %q", base))
				}
				opts.Site.BaseURL = base
			}
			if cmd.IsSet("as-of") {
				if err := app.ValidateDate(opts.AsOf); err != nil {
					return usage("--as-of: " + err.Error())
				}
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run builds the site and writes it, or serves it until ctx ends.
func run(ctx context.Context, opts *Options) error {
	var ln net.Listener
	if opts.Serve {
		var err error
		if ln, err = listenLoopback(ctx, opts.Addr); err != nil {
			return factory.UsageError{Command: opts.Command, Msg: err.Error()}
		}
		defer ln.Close()
	}
	c, err := opts.Corpus(ctx)
	if err != nil {
		return err
	}
	o := opts.Site
	o.Source = c.Source.String()
	c.Service = c.Service.WithHistory(c.Where.History())
	build := func() (site.Files, string, error) {
		data, err := c.Service.Site(ctx, app.SiteInput{AsOf: opts.AsOf, Clock: opts.Clock(), Changes: true})
		if err != nil {
			return nil, "", c.Failure(err)
		}
		files, err := site.Build(data, o)
		if err != nil {
			return nil, "", factory.ExitError{Code: factory.ExitFailure, Msg: err.Error()}
		}
		return files, data.Projection.Fingerprint, nil
	}
	if opts.Serve {
		return serveSite(ctx, ln, c, build, opts.Out)
	}
	files, _, err := build()
	if err != nil {
		return err
	}
	if err := site.WriteDir(outDir(opts.Getwd, opts.OutDir), files); err != nil {
		if errors.Is(err, site.ErrNotASite) {
			return factory.ExitError{Code: factory.ExitFailure, Msg: fmt.Sprintf("%s %v", opts.OutDir, err)}
		}
		return factory.ExitError{Code: factory.ExitFailure, Msg: err.Error()}
	}
	_, err = fmt.Fprintf(opts.Out, "Wrote %d files to %s (open %s).\n", len(files), opts.OutDir, "index.html")
	return err
}

// outDir is OUTDIR as given, relative to the directory adrkit was
// started in (getwd, which tests choose), whatever --cwd says.
func outDir(getwd func() (string, error), dir string) string {
	if filepath.IsAbs(dir) {
		return dir
	}
	wd, err := getwd()
	if err != nil {
		return dir
	}
	return filepath.Join(wd, dir)
}

// listenLoopback listens on addr, which must name a loopback host: the
// preview is for the person at this machine, never for a network.
func listenLoopback(ctx context.Context, addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--serve must be host:port, got %q", addr)
	}
	if host != "localhost" {
		ip := net.ParseIP(host)
		if ip == nil || !ip.IsLoopback() {
			return nil, fmt.Errorf("--serve must be a loopback address (127.0.0.1, [::1] or localhost), got %q", addr)
		}
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--serve %s: %w", addr, err)
	}
	return ln, nil
}

// serveSite serves the site on ln until ctx ends, building it again when
// the corpus fingerprint changes. A build that fails while serving keeps
// the last good one and says why on stdout.
func serveSite(ctx context.Context, ln net.Listener, c *factory.Corpus, build func() (site.Files, string, error), stdout io.Writer) error {
	files, fp, err := build()
	if err != nil {
		return err
	}
	var h site.Handler
	h.Set(files)
	srv := &http.Server{Handler: &h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	if _, err := fmt.Fprintf(stdout, "Serving the decisions at http://%s/ (Ctrl-C stops)\n", ln.Addr()); err != nil {
		_ = srv.Close()
		return err
	}
	tick := time.NewTicker(sitePoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_ = srv.Shutdown(shut)
			return nil
		case err := <-done:
			return factory.ExitError{Code: factory.ExitFailure, Msg: "serving the site: " + err.Error()}
		case <-tick.C:
			p, err := c.Service.Project(ctx)
			if err != nil || p.Fingerprint == fp {
				continue
			}
			next, nfp, err := build()
			if err != nil {
				_, _ = fmt.Fprintf(stdout, "Rebuilding failed, still serving the previous build: %v\n", err)
				continue
			}
			h.Set(next)
			fp = nfp
			_, _ = fmt.Fprintf(stdout, "Rebuilt: %d records.\n", len(p.Records))
		}
	}
}

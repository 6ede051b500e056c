package main

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
)

// The site command: everything of `adrkit site` is in this file, so that
// it moves as one piece. The Markdown renderer it links (goldmark v2)
// costs the other commands nothing at start-up (ADR 0036).

// sitePoll is how often site --serve looks for a changed corpus: one
// projection, which rereads and rehashes the record files but parses only
// the changed ones (the Service's parse cache), so a poll of a
// thousand-record corpus costs milliseconds.
const sitePoll = 500 * time.Millisecond

func siteCommand(stdout io.Writer, env environment) *cli.Command {
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
			serve := cmd.IsSet("serve")
			args := cmd.Args().Slice()
			switch {
			case serve && len(args) > 0:
				return usageError{Command: cmd.FullName(), Msg: "--serve serves from memory; give it no OUTDIR"}
			case !serve && len(args) != 1:
				return usageError{Command: cmd.FullName(), Msg: "site needs exactly one OUTDIR (or --serve ADDR), e.g. adrkit site public/adr"}
			case !serve && args[0] == "":
				return usageError{Command: cmd.FullName(), Msg: "OUTDIR must not be empty"}
			}
			o := site.Options{Title: cmd.String("title")}
			if base := cmd.String("base-url"); base != "" {
				u, err := url.Parse(base)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					return usageError{Command: cmd.FullName(), Msg: fmt.Sprintf("--base-url must be an absolute http or https URL, got %q", base)}
				}
				o.BaseURL = base
			}
			asOf := cmd.String("as-of")
			if cmd.IsSet("as-of") {
				if err := app.ValidateDate(asOf); err != nil {
					return usageError{Command: cmd.FullName(), Msg: "--as-of: " + err.Error()}
				}
			}
			var ln net.Listener
			if serve {
				var err error
				if ln, err = listenLoopback(ctx, cmd.String("serve")); err != nil {
					return usageError{Command: cmd.FullName(), Msg: err.Error()}
				}
				defer ln.Close()
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			o.Source = s.source.String()
			s.service = s.service.WithHistory(s.where.History())
			build := func() (site.Files, string, error) {
				data, err := s.service.Site(ctx, app.SiteInput{AsOf: asOf, Clock: env.Clock, Changes: true})
				if err != nil {
					return nil, "", s.failure(err)
				}
				files, err := site.Build(data, o)
				if err != nil {
					return nil, "", exitError{Code: exitFailure, Msg: err.Error()}
				}
				return files, data.Projection.Fingerprint, nil
			}
			if serve {
				return serveSite(ctx, ln, s, build, stdout)
			}
			files, _, err := build()
			if err != nil {
				return err
			}
			if err := site.WriteDir(outDir(env, args[0]), files); err != nil {
				if errors.Is(err, site.ErrNotASite) {
					return exitError{Code: exitFailure, Msg: fmt.Sprintf("%s %v", args[0], err)}
				}
				return exitError{Code: exitFailure, Msg: err.Error()}
			}
			_, err = fmt.Fprintf(stdout, "Wrote %d files to %s (open %s).\n", len(files), args[0], "index.html")
			return err
		},
	}
}

// outDir is OUTDIR as given, relative to the directory adrkit was
// started in (env.Getwd, which tests choose), whatever --cwd says.
func outDir(env environment, dir string) string {
	if filepath.IsAbs(dir) {
		return dir
	}
	wd, err := env.Getwd()
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
func serveSite(ctx context.Context, ln net.Listener, s *settings, build func() (site.Files, string, error), stdout io.Writer) error {
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
			return exitError{Code: exitFailure, Msg: "serving the site: " + err.Error()}
		case <-tick.C:
			p, err := s.service.Project(ctx)
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

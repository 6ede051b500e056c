package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/adapters/site"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/cmd/internal/sitecli"
)

// sitePoll is how often site --serve looks for a changed corpus: one
// projection, which rereads and rehashes the record files but parses only
// the changed ones (the Service's parse cache), so a poll of a
// thousand-record corpus costs milliseconds.
const sitePoll = 500 * time.Millisecond

// buildSite is the site command once its line is parsed: it checks the
// request, reads the corpus as every adrkit command does
// (cmd/internal/entry) and writes the site to OUTDIR, or serves it.
func buildSite(ctx context.Context, cmd *cli.Command, env environment, stdout io.Writer) error {
	req, err := sitecli.Parse(cmd)
	if err != nil {
		return usageError{Command: sitecli.Name, Msg: err.Error()}
	}
	o := site.Options{Title: req.Title, BaseURL: req.BaseURL}
	var ln net.Listener
	if req.Serve != "" {
		if ln, err = sitecli.Listen(ctx, req.Serve); err != nil {
			return usageError{Command: sitecli.Name, Msg: err.Error()}
		}
		defer ln.Close()
	}
	s, err := settle(ctx, cmd, env)
	if err != nil {
		return err
	}
	o.Source = render.NewSource(s.where.Root, s.where.Dir, s.where.Rev).String()
	build := func() (site.Files, string, error) {
		data, err := s.service.Site(ctx, app.SiteInput{AsOf: req.AsOf, Clock: env.Clock, Changes: true})
		if err != nil {
			return nil, "", s.failure(err)
		}
		files, err := site.Build(data, o)
		if err != nil {
			return nil, "", exitError{Code: exitFailure, Msg: err.Error()}
		}
		return files, data.Projection.Fingerprint, nil
	}
	if ln != nil {
		return serveSite(ctx, ln, s, build, stdout)
	}
	files, _, err := build()
	if err != nil {
		return err
	}
	if err := site.WriteDir(req.OutDir, files); err != nil {
		if errors.Is(err, site.ErrNotASite) {
			return exitError{Code: exitFailure, Msg: fmt.Sprintf("%s %v", req.OutDir, err)}
		}
		return exitError{Code: exitFailure, Msg: err.Error()}
	}
	_, err = fmt.Fprintf(stdout, "Wrote %d files to %s (open %s).\n", len(files), req.OutDir, "index.html")
	return err
}

// settings is the corpus a run reads: where, and the service over it.
type settings struct {
	where   entry.Location
	service *app.Service
}

// settle finds and checks the corpus as adrkit's commands do (flag, then
// ADRKIT_* variable, then the search upward), so that an unusable
// root or directory is reported once, before any work, in the same
// words: an ADR directory an option named that is missing is a usage
// error, any other unusable corpus status 1.
func settle(ctx context.Context, cmd *cli.Command, env environment) (*settings, error) {
	s := &settings{where: entry.Locate(cmd, env.Getwd, entry.CLIEnv)}
	svc, err := s.where.Open(ctx, entry.Surface{})
	if err != nil {
		if s.where.NamedDirMissing(err) {
			return nil, usageError{Command: sitecli.Name, Msg: s.failure(err).Error()}
		}
		return nil, s.failure(err)
	}
	s.service = svc.WithHistory(s.where.History())
	return s, nil
}

// failure turns an error from the app into the exit the command ends
// with: an unusable corpus is status 1 with the worded diagnostic.
func (s *settings) failure(err error) error {
	if msg := s.where.Describe(err); msg != "" {
		return exitError{Code: exitFailure, Msg: msg}
	}
	return exitError{Code: exitFailure, Msg: err.Error()}
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

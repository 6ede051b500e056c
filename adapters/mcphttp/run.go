package mcphttp

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"time"
)

// DefaultShutdownGrace bounds how long Run's shutdown waits for the calls
// in flight: the Kubernetes manifests give a pod 30 s, 5 of which its
// preStop pause takes.
const DefaultShutdownGrace = 20 * time.Second

// DefaultReloadTimeout bounds a reload of the token file: a file of a few
// thousand lines is read in milliseconds, and one that takes longer is on
// a mount that hangs.
const DefaultReloadTimeout = 10 * time.Second

// Reloader reads the accepted tokens again; *Tokens is one.
type Reloader interface {
	// Reload puts the token file's tokens in force, or leaves the
	// previous ones and says why not; once ctx has ended it must leave
	// them.
	Reload(ctx context.Context) error
	// Len is the number of tokens in force.
	Len() int
}

// RunOptions are what Run listens to besides its context.
type RunOptions struct {
	// Reload receives a value for every request to read the token file
	// again (SIGHUP, in the cmd).
	Reload <-chan os.Signal
	// Tokens are read again on each of them; nil when there is no token
	// file, and then a request is only logged.
	Tokens Reloader
	// ReloadTimeout bounds how long a reload may take before it is given
	// up; 0 means DefaultReloadTimeout.
	ReloadTimeout time.Duration
	// Grace bounds the shutdown; 0 means DefaultShutdownGrace.
	Grace time.Duration
	// Log receives the lines about reloading and stopping; nil discards
	// them.
	Log *slog.Logger
}

// ErrServing is what Run returns, wrapped, when serving itself fails.
var ErrServing = errors.New("serving failed")

// Run serves until ctx is done (SIGINT or SIGTERM, in the cmd), reading
// the tokens again on every value of opts.Reload, then shuts down:
// answers the calls in flight within the grace period and returns nil.
// It returns an error only when serving itself fails.
//
// A reload runs beside the loop, never in it: a token file on a mount
// that hangs must not make the process deaf to SIGTERM. It is given up
// after opts.ReloadTimeout (the previous tokens stay in force), and while
// it has not returned further reload requests are logged and ignored.
func (s *Server) Run(ctx context.Context, opts RunOptions) error {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve() }()
	reloaded := make(chan error, 1)
	reloading := false
	var timeout <-chan time.Time
	giveUp := func() {}
	defer func() { giveUp() }()
	for {
		select {
		case <-opts.Reload:
			switch {
			case opts.Tokens == nil:
				log.Info("SIGHUP: no token file to read again")
			case reloading:
				log.Warn("SIGHUP ignored: the previous reload has not returned")
			default:
				reloading = true
				giveUp = startReload(opts.Tokens, reloaded)
				timeout = time.NewTimer(orDefault(opts.ReloadTimeout, DefaultReloadTimeout)).C
			}
		case <-timeout:
			timeout = nil
			giveUp()
			log.Error("token file not reloaded in time; the previous tokens stay in force",
				"timeout", orDefault(opts.ReloadTimeout, DefaultReloadTimeout).String())
		case err := <-reloaded:
			reloading = false
			switch {
			case timeout == nil:
				// Given up already, and said so.
			case err != nil:
				log.Error("token file not reloaded; the previous tokens stay in force", "error", err.Error())
			default:
				log.Info("token file reloaded", "tokens", opts.Tokens.Len())
			}
			timeout = nil
			giveUp()
		case err := <-served:
			// Serve returns early only when serving itself fails.
			log.Error("serving failed", "error", err.Error())
			return errors.Join(ErrServing, err)
		case <-ctx.Done():
			log.Info("shutting down: answering the calls in flight")
			sctx, cancel := context.WithTimeout(context.Background(), orDefault(opts.Grace, DefaultShutdownGrace))
			err := s.Shutdown(sctx)
			cancel()
			if err != nil {
				log.Warn("calls still in flight after the grace period were cut off", "error", err.Error())
			}
			if err := <-served; err != nil {
				log.Error("serving failed", "error", err.Error())
			}
			log.Info("stopped")
			return nil
		}
	}
}

// startReload reloads tokens beside the caller, which receives the outcome
// on done; the function returned gives the reload up.
func startReload(tokens Reloader, done chan<- error) (giveUp func()) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- tokens.Reload(ctx) }()
	return cancel
}

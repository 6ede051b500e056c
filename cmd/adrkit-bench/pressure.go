package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
	"github.com/adrkit/adrkit-go/internal/httpload"
)

// PressureResult is how adrkit-mcp --http bears hostile clients beside a
// token holder (issue 35): two corpora, alpha and beta, each with a token
// of its own, served as deploy/kubernetes serves them (GOMEMLIMIT=200MiB).
type PressureResult struct {
	N int `json:"n"`
	// Silent sockets that send nothing are held open (opened again
	// whenever the server closes one) while alpha's holder makes Calls
	// calls, each on a new connection, a second after the sockets are
	// open and 100 ms apart; SilentCalls are their latencies, SilentShed
	// how many times the server closed a silent socket.
	Silent      int   `json:"silent"`
	Calls       int   `json:"calls"`
	SilentCalls Dist  `json:"silentCalls"`
	SilentShed  int64 `json:"silentShed"`
	// SlowBodies requests to alpha, with alpha's token, announce 1 KiB and
	// send 16 bytes, held the same way, while beta's holder calls beta.
	SlowBodies int   `json:"slowBodies"`
	SlowCalls  Dist  `json:"slowCalls"`
	SlowShed   int64 `json:"slowShed"`
	// Stalled requests to alpha each send all but the last byte of a
	// 1 MiB body, held the same way, while beta's holder calls beta;
	// StalledPeakRSS is the server's VmHWM after them, MemoryLimit the
	// manifest's.
	Stalled        int   `json:"stalled"`
	StalledCalls   Dist  `json:"stalledCalls"`
	StalledShed    int64 `json:"stalledShed"`
	StalledPeakRSS int64 `json:"stalledPeakRssBytes"`
	MemoryLimit    int64 `json:"memoryLimitBytes"`
	// TermClients call alpha in a loop, each on its own kept-alive
	// connection, until SIGTERM: TermAnswered calls were answered,
	// TermRefused could not connect (after the listener closed), and
	// TermDropped were sent and got no answer (a reset). TermExit is the
	// server's exit status.
	TermClients  int `json:"termClients"`
	TermAnswered int `json:"termAnswered"`
	TermRefused  int `json:"termRefused"`
	TermDropped  int `json:"termDropped"`
	TermExit     int `json:"termExit"`
	// Logged counts, for each pressure, the connections the server said
	// it closed, by reason.
	Logged []LoggedCloses `json:"logged"`
}

// LoggedCloses are the "connection closed" records of one pressure run.
type LoggedCloses struct {
	What    string         `json:"what"`
	Reasons map[string]int `json:"reasons"`
}

// manifestMemoryLimit is the memory limit of the server's container in
// deploy/kubernetes/deployment.yaml, and manifestGOMEMLIMIT its GOMEMLIMIT.
const (
	manifestMemoryLimit = 256 << 20
	manifestGOMEMLIMIT  = "200MiB"
)

// Tokens of the two corpora of the pressure runs.
const (
	alphaToken = "bench-alpha-token-0123456789"
	betaToken  = "bench-beta-token-0123456789"
)

// measurePressure runs each pressure against a new server over the
// corpus of n records at root.
func measurePressure(ctx context.Context, cfg Config, bin, root string, n int, logf func(string, ...any)) (PressureResult, error) {
	pr := PressureResult{N: n, Calls: cfg.PressureCalls, Silent: cfg.Silent, SlowBodies: cfg.SlowBodies,
		Stalled: cfg.Stalled, MemoryLimit: manifestMemoryLimit, TermClients: cfg.TermClients}
	config, err := pressureConfig(root)
	if err != nil {
		return pr, err
	}
	call := corpusgen.Workload(n)[0]
	body := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, call.Tool, call.Args))
	holds := []struct {
		what    string
		sockets int
		open    func(alpha httpload.Target) httpload.Opener
		caller  string
		calls   *Dist
		shed    *int64
		peak    *int64
	}{
		{"silent sockets", cfg.Silent, func(httpload.Target) httpload.Opener { return httpload.SendNothing }, "alpha", &pr.SilentCalls, &pr.SilentShed, nil},
		{"slow bodies to alpha", cfg.SlowBodies, func(a httpload.Target) httpload.Opener { return httpload.TrickledBody(a, 1024) }, "beta", &pr.SlowCalls, &pr.SlowShed, nil},
		{"stalled 1 MiB bodies to alpha", cfg.Stalled, func(a httpload.Target) httpload.Opener { return httpload.StalledBody(a, 1<<20) }, "beta", &pr.StalledCalls, &pr.StalledShed, &pr.StalledPeakRSS},
	}
	for _, h := range holds {
		if h.sockets == 0 {
			continue
		}
		logf("%d %s, %d calls to %s meanwhile", h.sockets, h.what, cfg.PressureCalls, h.caller)
		srv, err := startHTTPServer(bin, config)
		if err != nil {
			return pr, err
		}
		alpha := httpload.Target{URL: srv.url + "/mcp/alpha", Token: alphaToken, Header: http.Header{"Mcp-Protocol-Version": {"2025-06-18"}}}
		caller := alpha
		if h.caller == "beta" {
			caller = httpload.Target{URL: srv.url + "/mcp/beta", Token: betaToken, Header: alpha.Header}
		}
		hctx, cancel := context.WithCancel(ctx)
		ready := make(chan struct{})
		var held httpload.Held
		var holdErr error
		holding := make(chan struct{})
		go func() {
			defer close(holding)
			held, holdErr = httpload.Hold(hctx, alpha, h.sockets, h.open(alpha), ready)
		}()
		<-ready
		lat, err := timeCalls(ctx, caller, body, cfg.PressureCalls)
		if h.peak != nil {
			*h.peak = srv.peakRSS()
		}
		cancel()
		<-holding
		*h.calls, *h.shed = distOf(lat), held.Closed
		err = errors.Join(err, holdErr, srv.stop())
		pr.Logged = append(pr.Logged, LoggedCloses{What: h.what, Reasons: srv.closeReasons()})
		if err != nil {
			return pr, fmt.Errorf("%s: %w (the server closed connections: %v)", h.what, err, pr.Logged[len(pr.Logged)-1].Reasons)
		}
	}
	if cfg.TermClients > 0 {
		logf("SIGTERM under %d clients' calls", cfg.TermClients)
		if err := pr.measureTerm(ctx, bin, config, body); err != nil {
			return pr, fmt.Errorf("SIGTERM under load: %w", err)
		}
	}
	return pr, nil
}

// Pressure timing: the calls begin once the pressure has been held for
// pressureSettle, and are pressureEvery apart, so that they meet it in
// every phase (sockets opened, shed and opened again).
const (
	pressureSettle = time.Second
	pressureEvery  = 100 * time.Millisecond
)

// timeCalls makes n calls to t, pressureEvery apart, each on a new
// connection, and times them; every one must be answered 200.
func timeCalls(ctx context.Context, t httpload.Target, body []byte, n int) ([]time.Duration, error) {
	tick := time.NewTicker(pressureEvery)
	defer tick.Stop()
	select {
	case <-time.After(pressureSettle):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var lat []time.Duration
	for i := range n {
		if i > 0 {
			<-tick.C
		}
		began := time.Now()
		a, err := httpload.Send(ctx, t, body)
		lat = append(lat, time.Since(began))
		if err != nil {
			return lat, err
		}
		if a.Status != http.StatusOK {
			return lat, fmt.Errorf("a call answered %d: %.200s", a.Status, a.Body)
		}
	}
	return lat, nil
}

// measureTerm lets TermClients clients call alpha in a loop, sends the
// server SIGTERM once each has been answered a few times, and sorts how
// every client's calls ended.
func (pr *PressureResult) measureTerm(ctx context.Context, bin, config string, body []byte) error {
	srv, err := startHTTPServer(bin, config)
	if err != nil {
		return err
	}
	t := httpload.Target{URL: srv.url + "/mcp/alpha", Token: alphaToken, Header: http.Header{"Mcp-Protocol-Version": {"2025-06-18"}}}
	var answered, refused, dropped atomic.Int64
	var warm sync.WaitGroup
	warm.Add(pr.TermClients)
	var wg sync.WaitGroup
	for range pr.TermClients {
		wg.Go(func() {
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			defer client.CloseIdleConnections()
			once := sync.OnceFunc(warm.Done)
			defer once()
			for calls := 1; ctx.Err() == nil; calls++ {
				status, err := httpload.PostWith(ctx, client, t, body)
				switch {
				case err == nil && status == http.StatusOK:
					answered.Add(1)
				case errors.Is(err, syscall.ECONNREFUSED):
					refused.Add(1)
					return
				default:
					dropped.Add(1)
					return
				}
				if calls == 5 {
					once()
				}
			}
		})
	}
	warm.Wait()
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	wg.Wait()
	_ = srv.cmd.Wait()
	pr.TermAnswered, pr.TermRefused, pr.TermDropped = int(answered.Load()), int(refused.Load()), int(dropped.Load())
	pr.TermExit = srv.cmd.ProcessState.ExitCode()
	return nil
}

// pressureConfig writes the config of the pressure runs beside root:
// alpha and beta, both the corpus at root, each reached by its own token.
func pressureConfig(root string) (string, error) {
	digest := func(token string) string {
		d := sha256.Sum256([]byte(token))
		return hex.EncodeToString(d[:])
	}
	config := fmt.Sprintf("corpora:\n  - {name: alpha, cwd: %q}\n  - {name: beta, cwd: %q}\ntokens:\n"+
		"  - {sha256: %q, corpora: [alpha]}\n  - {sha256: %q, corpora: [beta]}\n", root, root, digest(alphaToken), digest(betaToken))
	path := filepath.Join(filepath.Dir(root), "pressure-config.yaml")
	return path, os.WriteFile(path, []byte(config), 0o644)
}

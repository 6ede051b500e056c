package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
	"github.com/adrkit/adrkit-go/internal/httpload"
	"github.com/adrkit/adrkit-go/internal/rusage"
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

// httpServer is one adrkit-mcp --http process.
type httpServer struct {
	cmd    *exec.Cmd
	url    string
	mu     sync.Mutex
	stderr bytes.Buffer
}

// startHTTPServer starts bin on a free loopback port with config and the
// manifest's GOMEMLIMIT, and waits until it listens.
func startHTTPServer(bin, config string) (*httpServer, error) {
	s := &httpServer{cmd: exec.Command(bin, "--http", "127.0.0.1:0", "--config", config)}
	s.cmd.Env = append(os.Environ(), "GOMEMLIMIT="+manifestGOMEMLIMIT)
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var rec struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Msg == "listening" {
				listening <- rec.Addr
			}
			s.mu.Lock()
			s.stderr.Write(append(sc.Bytes(), '\n'))
			s.mu.Unlock()
		}
		close(listening)
	}()
	addr, ok := <-listening
	if !ok {
		_ = s.cmd.Wait()
		return nil, fmt.Errorf("%s did not start: %.500s", bin, s.log())
	}
	s.url = "http://" + addr
	return s, nil
}

func (s *httpServer) log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

// closeReasons counts the closes of the server's "connections closed"
// records by reason.
func (s *httpServer) closeReasons() map[string]int {
	reasons := map[string]int{}
	for line := range strings.SplitSeq(s.log(), "\n") {
		var rec struct {
			Msg, Reason string
			Count       int
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "connections closed" {
			reasons[rec.Reason] += rec.Count
		}
	}
	return reasons
}

// peakRSS is the server's VmHWM now, 0 where it cannot be read.
func (s *httpServer) peakRSS() int64 {
	peak, _ := rusage.PeakRSS(s.cmd.Process.Pid)
	return peak
}

// stop sends SIGTERM and waits; the server must exit 0.
func (s *httpServer) stop() error {
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	if err := s.cmd.Wait(); err != nil {
		return fmt.Errorf("after SIGTERM: %w (stderr ends %q)", err, lastLines(s.log(), 3))
	}
	return nil
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// targetPressureCallMs bounds a token holder's slowest call during each
// pressure (issue 35).
const targetPressureCallMs = 1000.0

// evaluatePressure adds the targets of the pressure runs.
func (r *Results) evaluatePressure(add func(name, figure string, met *bool)) {
	p := r.Pressure
	if p == nil {
		return
	}
	verdict := func(ok bool) *bool { return &ok }
	calls := []struct {
		what string
		n    int
		d    Dist
	}{
		{"silent sockets", p.Silent, p.SilentCalls},
		{"slow bodies to another corpus", p.SlowBodies, p.SlowCalls},
		{"stalled 1 MiB bodies to another corpus", p.Stalled, p.StalledCalls},
	}
	for _, c := range calls {
		if c.n > 0 {
			add(fmt.Sprintf("a token holder's call during %d %s < %.0f ms (slowest of %d)", c.n, c.what, targetPressureCallMs, c.d.N),
				fmt.Sprintf("%s ms (median %s)", ms(c.d.Max), ms(c.d.Median)), verdict(c.d.Max < targetPressureCallMs))
		}
	}
	if p.Stalled > 0 && p.StalledPeakRSS > 0 {
		add(fmt.Sprintf("peak RSS with %d stalled 1 MiB bodies < the manifest's %d MiB", p.Stalled, p.MemoryLimit>>20),
			fmt.Sprintf("%.1f MiB", mb(p.StalledPeakRSS)), verdict(p.StalledPeakRSS < p.MemoryLimit))
	}
	if p.TermClients > 0 {
		add(fmt.Sprintf("SIGTERM under %d calling clients: no call sent and left unanswered, exit 0", p.TermClients),
			fmt.Sprintf("%d answered, %d refused a connection, %d dropped; exit %d", p.TermAnswered, p.TermRefused, p.TermDropped, p.TermExit),
			verdict(p.TermDropped == 0 && p.TermExit == 0))
	}
}

// pressureMarkdown describes the pressure runs.
func (r *Results) pressureMarkdown() string {
	p := r.Pressure
	if p == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nHTTP under hostile clients (two corpora of %d records, a token each, GOMEMLIMIT=%s; each socket opened again whenever the server closes it):\n\n", p.N, manifestGOMEMLIMIT)
	if p.Silent > 0 {
		fmt.Fprintf(&b, "- %d silent sockets: alpha's calls %s ms median, %s ms slowest; the server closed a silent socket %d times.\n",
			p.Silent, ms(p.SilentCalls.Median), ms(p.SilentCalls.Max), p.SilentShed)
	}
	if p.SlowBodies > 0 {
		fmt.Fprintf(&b, "- %d slow bodies to alpha: beta's calls %s ms median, %s ms slowest; %d slow requests closed.\n",
			p.SlowBodies, ms(p.SlowCalls.Median), ms(p.SlowCalls.Max), p.SlowShed)
	}
	if p.Stalled > 0 {
		fmt.Fprintf(&b, "- %d stalled 1 MiB bodies to alpha: beta's calls %s ms median, %s ms slowest; %d closed; peak RSS %.1f MiB (limit %d MiB).\n",
			p.Stalled, ms(p.StalledCalls.Median), ms(p.StalledCalls.Max), p.StalledShed, mb(p.StalledPeakRSS), p.MemoryLimit>>20)
	}
	if p.TermClients > 0 {
		fmt.Fprintf(&b, "- SIGTERM under %d calling clients: %d calls answered, %d refused a connection, %d dropped; exit %d.\n",
			p.TermClients, p.TermAnswered, p.TermRefused, p.TermDropped, p.TermExit)
	}
	return b.String()
}

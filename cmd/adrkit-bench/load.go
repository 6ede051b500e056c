package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// LoadResult is how the server bears a burst of requests written at
// once, without waiting for any answer (pipelined), as a client with
// many agents, or a misbehaving one, may send them.
type LoadResult struct {
	// N is the corpus served to the burst of calls.
	N int `json:"n"`
	// Calls tools/call requests (the workload's tools in turn) go to a
	// new server; all must be answered, each a tool result with
	// structured content.
	Calls int `json:"calls"`
	// CallsSeconds is the time from the first request written to the
	// last answer read; CallsPeakRSS the server's VmHWM then, in bytes.
	CallsSeconds float64 `json:"callsSeconds"`
	CallsPeakRSS int64   `json:"callsPeakRssBytes"`
	// Requests pings and as many tools/list go to another server, in
	// alternating halves; PingCPU and ListCPU are the server's CPU time
	// for each kind (user and system, ms), ListPingRatio their ratio.
	Requests      int     `json:"requests"`
	PingCPU       float64 `json:"pingCpuMs"`
	ListCPU       float64 `json:"listCpuMs"`
	ListPingRatio float64 `json:"listPingRatio"`
}

// measureLoad runs both bursts: the calls against the corpus of n records
// at root, the pings and lists against the one at small.
func measureLoad(cfg Config, bin, root string, n int, small string, logf func(string, ...any)) (LoadResult, error) {
	lr := LoadResult{N: n, Calls: cfg.Pipelined, Requests: cfg.Lists}
	if cfg.Pipelined > 0 {
		logf("N=%d: %d pipelined tools/call to a new server", n, cfg.Pipelined)
		srv, err := startServer(bin, root)
		if err != nil {
			return lr, err
		}
		if err := srv.initialize(); err != nil {
			return lr, firstErr(err, srv.stop())
		}
		calls := corpusgen.Workload(n)
		t0 := time.Now()
		err = srv.pipeline(cfg.Pipelined, func(id int) any {
			c := calls[id%len(calls)]
			return map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
				"params": map[string]any{"name": c.Tool, "arguments": c.Args}}
		}, checkToolResult)
		lr.CallsSeconds = time.Since(t0).Seconds()
		lr.CallsPeakRSS = srv.peakRSS()
		if err = firstErr(err, srv.stop()); err != nil {
			return lr, fmt.Errorf("pipelined calls: %w", err)
		}
	}
	if cfg.Lists > 0 {
		logf("%d pipelined pings and as many tools/list", cfg.Lists)
		srv, err := startServer(bin, small)
		if err != nil {
			return lr, err
		}
		if err := srv.initialize(); err != nil {
			return lr, firstErr(err, srv.stop())
		}
		// Two rounds of halves, so that a slow patch of the machine
		// weighs on both kinds.
		half := max(cfg.Lists/2, 1)
		for range 2 {
			for _, method := range []string{"ping", "tools/list"} {
				before, err := srv.cpu()
				if err == nil {
					err = srv.pipeline(half, func(id int) any {
						return map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
					}, func(json.RawMessage) error { return nil })
				}
				after, err2 := srv.cpu()
				if err = firstErr(err, err2); err != nil {
					return lr, firstErr(fmt.Errorf("pipelined %s: %w", method, err), srv.stop())
				}
				if method == "ping" {
					lr.PingCPU += after - before
				} else {
					lr.ListCPU += after - before
				}
			}
		}
		lr.ListPingRatio = ratio(lr.ListCPU, lr.PingCPU)
		if err := srv.stop(); err != nil {
			return lr, err
		}
	}
	return lr, nil
}

// pipeline writes n requests (request(id) for ids 0..n-1, offset past the
// ids the server has seen) while reading their answers, and returns once
// every one has come back, each result passed to check.
func (s *server) pipeline(n int, request func(id int) any, check func(json.RawMessage) error) error {
	base := s.nextID + 1
	s.nextID += n
	written := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(s.in, 1<<16)
		var err error
		for i := 0; i < n && err == nil; i++ {
			var b []byte
			if b, err = json.Marshal(request(base + i)); err == nil {
				b = append(b, '\n')
				_, err = w.Write(b)
			}
		}
		if err == nil {
			err = w.Flush()
		}
		written <- err
	}()
	seen := make(map[int]bool, n)
	for len(seen) < n {
		line, err := s.out.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("after %d of %d answers: %w (stderr: %.500s)", len(seen), n, err, s.stderr.String())
		}
		var msg reply
		if err := json.Unmarshal(line, &msg); err != nil {
			return fmt.Errorf("a line that is not JSON: %.200s", line)
		}
		id, err := strconv.Atoi(string(msg.ID))
		if err != nil || id < base || id >= base+n || seen[id] {
			continue // not an answer of this burst
		}
		if len(msg.Error) > 0 {
			return fmt.Errorf("request %d: %s", id, msg.Error)
		}
		if err := check(msg.Result); err != nil {
			return fmt.Errorf("request %d: %w", id, err)
		}
		seen[id] = true
	}
	return <-written
}

// checkToolResult requires a successful tool result with structured
// content.
func checkToolResult(res json.RawMessage) error {
	_, err := toolResult(res)
	return err
}

// firstErr is the first of errs that is not nil.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

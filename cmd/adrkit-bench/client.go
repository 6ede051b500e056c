package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"time"

	"github.com/adrkit/adrkit-go/internal/rusage"
)

// server is one adrkit-mcp process driven over its stdio, the way an
// agent's MCP client drives it: one JSON-RPC message per line.
type server struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	nextID int
	// answeredAt is when the last answer request returned was read off
	// the pipe, before anything was decoded: a round trip ends when the
	// server's answer has arrived, and how fast this client decodes and
	// checks it is not the server's cost.
	answeredAt time.Time
}

// startServer starts bin serving root. The clock for "process start"
// is read just before this call by the caller.
func startServer(bin, root string) (*server, error) {
	s := &server{cmd: exec.Command(bin, "--cwd", root, "--tools", "extended")}
	s.cmd.Stderr = &s.stderr
	in, err := s.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.in, s.out = in, bufio.NewReaderSize(out, 1<<16)
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	return s, nil
}

// initialize runs the 2025-era handshake: initialize, its answer, then
// the initialized notification.
func (s *server) initialize() error {
	res, err := s.request("initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "adrkit-bench", "version": "0"},
	})
	if err != nil {
		return err
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(res, &init); err != nil || init.ProtocolVersion == "" {
		return fmt.Errorf("initialize answered %s", res)
	}
	return s.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
}

// call makes one tools/call round trip and checks the answer is a
// successful tool result with structured content.
func (s *server) call(tool string, args json.RawMessage) error {
	_, err := s.callStructured(tool, args)
	return err
}

// callStructured is call returning the structured content.
func (s *server) callStructured(tool string, args json.RawMessage) (json.RawMessage, error) {
	res, err := s.request("tools/call", map[string]any{"name": tool, "arguments": args})
	if err != nil {
		return nil, err
	}
	structured, err := toolResult(res)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	return structured, nil
}

// toolResult is the structured content of a successful tool result.
func toolResult(res json.RawMessage) (json.RawMessage, error) {
	var r struct {
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return nil, err
	}
	if r.IsError || len(r.StructuredContent) == 0 {
		return nil, fmt.Errorf("not a successful tool result: %.300s", res)
	}
	return r.StructuredContent, nil
}

// reply is a line the server writes: an answer (id, and result or
// error) or anything else, which has no id.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// request sends a request and returns the result of the answer with the
// same id, skipping anything else the server writes meanwhile.
func (s *server) request(method string, params any) (json.RawMessage, error) {
	s.nextID++
	id := s.nextID
	if err := s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	for {
		line, err := s.out.ReadBytes('\n')
		at := time.Now()
		if err != nil {
			return nil, fmt.Errorf("%s: reading the answer: %w (stderr: %.500s)", method, err, s.stderr.String())
		}
		var msg reply
		if err := json.Unmarshal(line, &msg); err != nil {
			return nil, fmt.Errorf("%s: a line that is not JSON: %.200s", method, line)
		}
		if string(msg.ID) != strconv.Itoa(id) {
			continue
		}
		if len(msg.Error) > 0 {
			return nil, fmt.Errorf("%s: %s", method, msg.Error)
		}
		s.answeredAt = at
		return msg.Result, nil
	}
}

func (s *server) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = s.in.Write(append(b, '\n'))
	return err
}

// peakRSS is the process's peak resident set size so far, in bytes, from
// VmHWM in /proc/<pid>/status (0 where /proc is not available). It is
// read while the process runs: once it has exited VmHWM is gone, and
// wait4's ru_maxrss would count this process's own memory at the fork.
func (s *server) peakRSS() int64 {
	n, _ := rusage.PeakRSS(s.cmd.Process.Pid)
	return n
}

// stop closes stdin, which ends the server, and waits for it.
func (s *server) stop() error {
	_ = s.in.Close()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("server exited: %w (stderr: %.500s)", err, s.stderr.String())
		}
		return nil
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
		return errors.New("server did not exit within 10s of stdin closing")
	}
}

// cpu is the CPU time the process has used so far, user and system, in
// milliseconds.
func (s *server) cpu() (float64, error) {
	d, err := rusage.CPU(s.cmd.Process.Pid)
	return float64(d) / float64(time.Millisecond), err
}

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"

	"github.com/adrkit/adrkit-go/internal/rusage"
)

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

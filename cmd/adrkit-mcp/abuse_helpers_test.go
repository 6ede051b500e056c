package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/rusage"
)

// Helpers of the protocol-abuse tests (abuse_*_test.go): they drive the
// built binary (binary(t), built once per test binary) over pipes, the
// way an MCP client does, and observe only what a client can: stdout
// frames, stderr, the exit status and the child's peak resident set
// (VmHWM in /proc/<pid>/status, read while it is still running: wait4's
// ru_maxrss would count the test process's own memory at the fork, which
// the race detector makes large).

// abuseHangGuard bounds one abusive session. Every session here ends in
// seconds; the guard only turns a hang into a failure (after killing the
// child) instead of a stuck test binary. It is no timing assertion.
const abuseHangGuard = 3 * time.Minute

// session is a running adrkit-mcp with its pipes.
type session struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr bytes.Buffer
}

// startSession starts the binary on repo with extra arguments.
func startSession(t *testing.T, repo string, args ...string) *session {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"--cwd", repo}, args...)...)
	// The flags alone configure it: an ADRKIT_MCP_* variable set even to
	// "" would count as given.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ADRKIT_MCP_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	s := &session{t: t, cmd: cmd}
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if s.stdout, err = cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return s
}

// finished is how a session ended.
type finished struct {
	// frames are the stdout lines, each parsed; raw keeps them as read.
	frames []map[string]json.RawMessage
	raw    []string
	// partial is anything after the last newline (must stay empty).
	partial string
	code    int
	stderr  string
	// peakRSS is the child's VmHWM in bytes, read by runMeasured.
	peakRSS int64
}

// run feeds the session with write (then closes stdin), reads stdout to
// its end concurrently and waits for the exit, under the hang guard.
func (s *session) run(write func(w io.Writer) error) finished {
	s.t.Helper()
	return s.serve(write, -1)
}

// runMeasured is run reading the child's peak resident set once all the
// input is written and answers lines have come out: its work is done,
// and it is still running because stdin is still open.
func (s *session) runMeasured(write func(w io.Writer) error, answers int) finished {
	s.t.Helper()
	return s.serve(write, answers)
}

func (s *session) serve(write func(w io.Writer) error, measureAt int) finished {
	s.t.Helper()
	var f finished
	written := make(chan error, 1)
	go func() {
		bw := bufio.NewWriterSize(s.stdin, 1<<20)
		err := write(bw)
		if err == nil {
			err = bw.Flush()
		}
		written <- err
	}()
	lines := make(chan string, 1<<16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.partial = readLinesTo(s.stdout, lines)
		_ = s.cmd.Wait()
	}()
	timer := time.NewTimer(abuseHangGuard)
	defer timer.Stop()
	hang := func() {
		_ = s.cmd.Process.Kill()
		<-done
		s.t.Fatalf("the session did not end: it hangs (stderr %q)", s.stderr.String())
	}
	// Lines are taken as they come (a child blocked on a full stdout would
	// stop reading its input) until the input is written and, to measure,
	// measureAt of them have arrived.
	var writeErr error
	writing := true
	for writing || (measureAt >= 0 && len(f.raw) < measureAt) {
		select {
		case writeErr = <-written:
			writing = false
		case line, ok := <-lines:
			if !ok {
				lines, measureAt = nil, -1 // stdout ended early: the checks will say how
				continue
			}
			f.raw = append(f.raw, line)
		case <-timer.C:
			hang()
		}
	}
	if measureAt >= 0 {
		f.peakRSS = vmHWM(s.t, s.cmd.Process.Pid)
	}
	_ = s.stdin.Close()
	if lines != nil {
		for line := range lines {
			f.raw = append(f.raw, line)
		}
	}
	select {
	case <-done:
	case <-timer.C:
		hang()
	}
	if writeErr != nil && !isBrokenPipe(writeErr) {
		s.t.Fatalf("writing the input: %v", writeErr)
	}
	f.code = s.cmd.ProcessState.ExitCode()
	f.stderr = s.stderr.String()
	for _, line := range f.raw {
		var frame map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &frame); err != nil || frame == nil || string(frame["jsonrpc"]) != `"2.0"` {
			s.t.Fatalf("stdout line is not a JSON-RPC message: %.200q", line)
		}
		f.frames = append(f.frames, frame)
	}
	if f.partial != "" {
		s.t.Fatalf("stdout ends with an incomplete line: %.200q", f.partial)
	}
	return f
}

func isBrokenPipe(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "broken pipe") || strings.Contains(err.Error(), "file already closed"))
}

// vmHWM is the peak resident set of the running process pid, in bytes;
// the test is skipped where the system does not say.
func vmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	n, err := rusage.PeakRSS(pid)
	if errors.Is(err, rusage.ErrUnsupported) {
		t.Skipf("the peak resident set is not observable on %s", runtime.GOOS)
	}
	if err != nil {
		t.Fatalf("reading the peak resident set: %v", err)
	}
	return n
}

// readLinesTo sends the complete lines of r to out (closing it at the
// end) and returns a trailing partial one.
func readLinesTo(r io.Reader, out chan<- string) string {
	defer close(out)
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return line
		}
		out <- strings.TrimSuffix(line, "\n")
	}
}

// readLines reads r to its end and splits it into complete lines and a
// trailing partial one.
func readLines(r io.Reader) ([]string, string) {
	br := bufio.NewReaderSize(r, 1<<16)
	var lines []string
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return lines, line
		}
		lines = append(lines, strings.TrimSuffix(line, "\n"))
	}
}

// answers counts the answers per id (the id's raw JSON).
func (f finished) answers() map[string]int {
	out := map[string]int{}
	for _, fr := range f.frames {
		if id, ok := fr["id"]; ok {
			out[string(id)]++
		}
	}
	return out
}

// answer returns the one frame answering id (raw JSON), or nil.
func (f finished) answer(id string) map[string]json.RawMessage {
	for _, fr := range f.frames {
		if string(fr["id"]) == id {
			return fr
		}
	}
	return nil
}

// diagnostics are the stderr lines.
func (f finished) diagnostics() []string {
	if f.stderr == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(f.stderr, "\n"), "\n")
}

// ping is a ping request line (with its newline) for a raw JSON id.
func ping(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` + "\n" }

// toolCall is a tools/call request line for a raw JSON id.
func toolCall(id, tool, args string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}` + "\n"
}

// writeString is a write function for run.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// abuseRepo is the repository the protocol tests serve: the adapter's
// fixture corpus (records, duplicates, broken files) under a .git root.
func abuseRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	src := filepath.Join("..", "..", "adapters", "mcp", "testdata", "corpus", "docs", "adr")
	dst := filepath.Join(root, "docs", "adr")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// mib is a mebibyte.
const mib = 1 << 20

package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/cmd/internal/entry"
)

// TestAbuseRequestsAfterEndOfFile gives the server a terminal as stdin
// and types a request, ^D, then another request. A terminal's end of file
// is not final (more input can follow it), so this is the one way a
// client can send "after end of file": the server must stop at the first
// end of file, answer what it read before, and exit 0 without reading
// the rest.
func TestAbuseRequestsAfterEndOfFile(t *testing.T) {
	master, slave := openPTY(t)
	cmd := exec.Command(binary(t), "--cwd", abuseRepo(t))
	cmd.Stdin = slave
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	_ = slave.Close()
	typed := ping("1") + toolCall("2", "list_superseded", `{}`) + "\x04" + ping("3") + "\x04"
	if _, err := io.WriteString(master, typed); err != nil {
		t.Fatal(err)
	}
	var lines []string
	var partial string
	done := make(chan struct{})
	go func() {
		defer close(done)
		lines, partial = readLines(stdout)
		_ = cmd.Wait()
	}()
	select {
	case <-done:
	case <-time.After(abuseHangGuard):
		_ = cmd.Process.Kill()
		t.Fatal("the server did not stop at end of file")
	}
	if len(lines) != 2 || partial != "" || !strings.Contains(lines[0]+lines[1], `"id":1,`) || !strings.Contains(lines[0]+lines[1], `"id":2,`) {
		t.Errorf("stdout %q %q, want the answers to 1 and 2 only", lines, partial)
	}
	// Started on a terminal, it says once what it is and how to try it.
	if code := cmd.ProcessState.ExitCode(); code != 0 || stderr.String() != "adrkit-mcp: "+entry.TerminalNotice("adrkit-mcp")+"\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestAbuseCancellation: cancellations of ids that are not in flight
// (unknown, malformed, missing) change nothing: every request is answered
// once and the process exits 0. A call cancelled while in flight gets no
// answer at all; that needs the call held in flight, which only an
// in-process test can do without racing the notification against the
// work (adapters/mcp TestAbuseCancellationInFlight).
func TestAbuseCancellation(t *testing.T) {
	input := ping("1") +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99,"reason":"changed my mind"}}` + "\n" +
		toolCall(`"two"`, "get_decision", `{"ref":"0001"}`) +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled"}` + "\n" +
		toolCall("3", "search_decisions", `{"query":"cache"}`) +
		ping("4")
	f := startSession(t, abuseRepo(t)).run(writeString(input))
	got := f.answers()
	for _, id := range []string{"1", `"two"`, "3", "4"} {
		if got[id] != 1 {
			t.Errorf("id %s answered %d times, want once", id, got[id])
		}
	}
	if len(f.frames) != 4 || f.code != 0 || f.stderr != "" {
		t.Errorf("%d frames, exit %d, stderr %q", len(f.frames), f.code, f.stderr)
	}
}

// TestAbuseClientClosesStdout: the client stops reading in the middle of
// 10,000 pipelined answers and closes its end. The server's next write
// fails with EPIPE: one diagnostic, exit status 1, no hang, even though
// stdin is still open and requests keep coming.
func TestAbuseClientClosesStdout(t *testing.T) {
	s := startSession(t, abuseRepo(t))
	writerDone := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(s.stdin)
		var err error
		for i := 0; i < 10000 && err == nil; i++ {
			_, err = io.WriteString(w, toolCall(fmt.Sprint(i), "list_superseded", `{}`))
		}
		if err == nil {
			err = w.Flush()
		}
		writerDone <- err // stdin stays open until the server is gone
	}()
	br := bufio.NewReader(s.stdout)
	for i := 0; i < 10; i++ {
		if _, err := br.ReadString('\n'); err != nil {
			t.Fatalf("reading answer %d: %v", i, err)
		}
	}
	_ = s.stdout.Close()
	exited := make(chan struct{})
	go func() {
		_ = s.cmd.Wait()
		close(exited)
	}()
	select {
	case <-exited:
	case <-time.After(abuseHangGuard):
		_ = s.cmd.Process.Kill()
		t.Fatal("the server did not end after its stdout was closed")
	}
	_ = s.stdin.Close()
	if err := <-writerDone; err != nil && !isBrokenPipe(err) {
		t.Errorf("writing requests: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(s.stderr.String(), "\n"), "\n")
	if code := s.cmd.ProcessState.ExitCode(); code != 1 || len(lines) != 1 ||
		!strings.HasPrefix(lines[0], "adrkit-mcp: transport error: ") || !strings.Contains(lines[0], "broken pipe") {
		t.Errorf("exit %d, stderr %q; want 1 and one EPIPE diagnostic", code, s.stderr.String())
	}
}

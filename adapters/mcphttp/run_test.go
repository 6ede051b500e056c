package mcphttp

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stuckTokens is a token reload that does not return until released, as
// a read of a token file on a hung mount would.
type stuckTokens struct {
	entered, release chan struct{}
}

func (s *stuckTokens) Reload(context.Context) error {
	s.entered <- struct{}{}
	<-s.release
	return nil
}

func (s *stuckTokens) Len() int { return 1 }

// A reload that hangs holds neither the other reloads nor the shutdown:
// it is given up after its timeout, later requests are refused while it
// runs, and SIGTERM stops the server at once. Before, the reload ran in
// the loop that also waits for SIGTERM, and a hung one made the process
// deaf to both.
func TestRunReloadNeverBlocksShutdown(t *testing.T) {
	logs := &logBuffer{}
	front, err := New(Options{Endpoints: echoCorpora("payments"), Clock: &stepClock{}})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Listen("127.0.0.1:0", front, ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stuck := &stuckTokens{entered: make(chan struct{}, 1), release: make(chan struct{})}
	defer close(stuck.release)
	hup := make(chan os.Signal, 1)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ran := make(chan error, 1)
	go func() {
		ran <- srv.Run(ctx, RunOptions{Reload: hup, Tokens: stuck, ReloadTimeout: time.Millisecond, Log: logs.logger()})
	}()
	hup <- syscall.SIGHUP
	<-stuck.entered
	awaitLog(t, logs, "token file not reloaded in time; the previous tokens stay in force")
	hup <- syscall.SIGHUP
	awaitLog(t, logs, "SIGHUP ignored: the previous reload has not returned")
	if got := post(t, "http://"+srv.Addr().String()+"/mcp/payments", callEcho(1, "x"), nil); echoText(string(got.Body)) != "payments: x" {
		t.Errorf("a call during the reload: %d %s", got.Status, string(got.Body))
	}
	stop()
	guard := time.NewTimer(30 * time.Second) // a hang guard only
	defer guard.Stop()
	select {
	case err := <-ran:
		if err != nil {
			t.Errorf("Run = %v", err)
		}
	case <-guard.C:
		t.Fatalf("Run did not return after its context ended, with a reload hung:\n%s", logs.String())
	}
}

// awaitLog waits until the log holds msg, guarded against a hang.
func awaitLog(t *testing.T, logs *logBuffer, msg string) {
	t.Helper()
	guard := time.NewTimer(30 * time.Second) // a hang guard only
	defer guard.Stop()
	for {
		written := logs.next()
		if strings.Contains(logs.String(), `"msg":"`+msg+`"`) {
			return
		}
		select {
		case <-written:
		case <-guard.C:
			t.Fatalf("the log never said %q:\n%s", msg, logs.String())
		}
	}
}

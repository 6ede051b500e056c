package probe

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestRun: output, exit status and start failures come back as the
// doctor reads them, and the hook state directory goes with Close. The
// test re-runs its own binary as the command.
func TestRun(t *testing.T) {
	if os.Getenv("ADRKIT_PROBE_CHILD") != "" {
		return
	}
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ADRKIT_PROBE_CHILD", "1")
	res, err := p.Run(context.Background(), []string{self, "-test.run=TestChild", "-test.v"}, t.TempDir(), []byte("hello"))
	if err != nil || res.Code != 3 || !strings.Contains(string(res.Stdout), "read hello") ||
		!strings.Contains(string(res.Stdout), "state "+p.stateDir) {
		t.Errorf("run: %v %+v", err, res)
	}
	if _, err := p.Run(context.Background(), []string{"/no/such/adrkit"}, t.TempDir(), nil); err == nil {
		t.Error("a missing command started")
	}
	if _, err := p.LookPath("/no/such/adrkit"); err == nil {
		t.Error("a missing command was found")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.stateDir); !os.IsNotExist(err) {
		t.Errorf("the state directory is still there: %v", err)
	}
}

// TestChild is the command TestRun starts: it echoes stdin and the state
// directory, then exits 3.
func TestChild(t *testing.T) {
	if os.Getenv("ADRKIT_PROBE_CHILD") == "" {
		t.Skip("started by TestRun only")
	}
	b := make([]byte, 5)
	n, _ := os.Stdin.Read(b)
	os.Stdout.WriteString("read " + string(b[:n]) + "\nstate " + os.Getenv("ADRKIT_HOOK_STATE_DIR") + "\n")
	os.Exit(3)
}

// Package probe starts the commands an agent host's configuration names,
// as the host would start them, for "adrkit doctor": looked up on PATH,
// run in the repository root with a deadline, their output bounded. A
// hook run by the doctor keeps its session memory in a directory of its
// own, removed on Close, so that checking never changes what a real
// session is told.
package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/adrkit/adrkit-go/ports"
)

// Timeout bounds one command.
const Timeout = 15 * time.Second

// maxOutput bounds what is kept of a command's stdout and stderr each.
const maxOutput = 1 << 20

// Prober is the real ports.Processes.
type Prober struct {
	stateDir string
}

// New returns a prober with a fresh hook state directory.
func New() (*Prober, error) {
	dir, err := os.MkdirTemp("", "adrkit-doctor-")
	if err != nil {
		return nil, fmt.Errorf("making the hook state directory: %w", err)
	}
	return &Prober{stateDir: dir}, nil
}

// Close removes the hook state directory.
func (p *Prober) Close() error { return os.RemoveAll(p.stateDir) }

// LookPath finds name as exec does.
func (p *Prober) LookPath(name string) (string, error) { return exec.LookPath(name) }

// Run runs argv in dir with stdin.
func (p *Prober) Run(ctx context.Context, argv []string, dir string, stdin []byte) (ports.ProcessResult, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(os.Environ(), "ADRKIT_HOOK_STATE_DIR="+p.stateDir)
	var out, errOut capped
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	res := ports.ProcessResult{Stdout: out.b.Bytes(), Stderr: errOut.b.Bytes()}
	if ctx.Err() != nil {
		return res, fmt.Errorf("did not finish within %s", Timeout)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		res.Code = exit.ExitCode()
		return res, nil
	}
	if err != nil {
		return res, fmt.Errorf("could not start: %w", err)
	}
	return res, nil
}

// capped keeps the first maxOutput bytes written to it.
type capped struct{ b bytes.Buffer }

// Write keeps what fits and reports everything written, so that the
// command never blocks on a full pipe.
func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

package release

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The signal tests find the binary's process in /proc, so they are
// Linux's; the launcher's code is the same everywhere.

// TestNPXPassesSignalsOn: SIGTERM to the launcher reaches the binary,
// which ends cleanly (status 0, passed back); SIGTERM to npx, whose shell
// dies without passing it on, still ends the binary, because the
// launcher notices it was orphaned.
func TestNPXPassesSignalsOn(t *testing.T) {
	project, binary := npmInstall(t)
	root := repo(t)
	launcher := filepath.Join(project, "node_modules", ".bin", "adrkit-mcp")
	for _, tc := range []struct {
		name string
		cmd  *exec.Cmd
		// wantCode is the status of the signalled process, or -1 when it
		// is npm's own business.
		wantCode int
	}{
		{"SIGTERM to the launcher", exec.Command("node", launcher, "--cwd", root), 0},
		{"SIGTERM to npx", npx(project, "--cwd", root), -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Our own pipe, held open to the end: Wait would close one
			// made by StdinPipe, and the end of input alone ends the
			// binary, hiding whether the signal did.
			stdinR, stdin, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			tc.cmd.Stdin = stdinR
			stdout, err := tc.cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.cmd.Start(); err != nil {
				t.Fatal(err)
			}
			stdinR.Close()
			// Once initialize is answered, the binary is up.
			first := strings.SplitAfter(conversation, "\n")[0]
			if _, err := io.WriteString(stdin, first); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(stdout).ReadString('\n')
			if err != nil || !strings.Contains(line, `"id":1`) {
				t.Fatalf("initialize: %q, %v", line, err)
			}
			pids := processesOf(t, binary)
			if len(pids) != 1 {
				t.Fatalf("processes running %s: %v, want one", binary, pids)
			}
			if err := tc.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			err = tc.cmd.Wait()
			if tc.wantCode >= 0 && tc.cmd.ProcessState.ExitCode() != tc.wantCode {
				t.Errorf("%s ended with %v, want status %d", tc.cmd.Path, err, tc.wantCode)
			}
			// The binary ends too, however it learns of it. Waiting on
			// its end is a hang guard, not a timing assertion.
			if !gone(pids[0]) {
				t.Errorf("the binary (pid %d) is still running after %s", pids[0], tc.name)
				_ = syscall.Kill(pids[0], syscall.SIGKILL)
			}
		})
	}
}

// processesOf lists the processes whose executable is path, from /proc.
// A binary of another architecture run through binfmt_misc (qemu-user,
// as when the tests of another GOARCH run on this machine) has the
// emulator as its executable and path as its first argument after it.
func processesOf(t *testing.T, path string) []int {
	t.Helper()
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil {
			continue
		}
		if exe == real || strings.HasPrefix(filepath.Base(exe), "qemu-") && emulates(pid, real) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// emulates reports whether process pid, an emulator, runs the program at
// real: its command line is the emulator, then the program's path.
func emulates(pid int, real string) bool {
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	args := strings.Split(string(cmdline), "\x00")
	if len(args) < 2 {
		return false
	}
	prog, err := filepath.EvalSymlinks(args[1])
	return err == nil && prog == real
}

// gone waits up to ten seconds for pid to end (or become a zombie, which
// its parent reaps) and reports whether it did.
func gone(pid int) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		// The state follows the command name in parentheses.
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

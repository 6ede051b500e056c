// Command relay puts adrkit-mcp's HTTP server behind a stdio face, so
// that a harness written for stdio servers (the recorded conformance
// conversations of ../shared/conformance, driven by mcpcall.py) replays
// its conversations over streamable HTTP unchanged:
//
//	relay ADRKIT-MCP [SERVER ARGS...]
//
// starts ADRKIT-MCP --http 127.0.0.1:0 SERVER ARGS..., learns the address
// from its "listening" log record, and POSTs every line of stdin to /mcp
// (httpload.Relay: the headers of each message's era), writing every
// JSON answer to stdout as one line. At the end of stdin it sends the
// server SIGTERM and exits with the server's status. The server's log
// goes to stderr. A server that ends before it listens ends the relay
// with status 1.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"

	"github.com/adrkit/adrkit-go/internal/httpload"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: relay ADRKIT-MCP [SERVER ARGS...]")
		os.Exit(2)
	}
	os.Exit(run(os.Args[1], os.Args[2:]))
}

func run(bin string, args []string) int {
	cmd := exec.Command(bin, append([]string{"--http", "127.0.0.1:0"}, args...)...)
	logs, err := cmd.StderrPipe()
	if err != nil {
		return fail(err)
	}
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	addr := make(chan string, 1)
	go func() {
		// Pass the log on, and pick the address out of it.
		sc := bufio.NewScanner(logs)
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		for sc.Scan() {
			var rec struct {
				Msg  string `json:"msg"`
				Addr string `json:"addr"`
			}
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Msg == "listening" {
				addr <- rec.Addr
			}
			fmt.Fprintf(os.Stderr, "%s\n", sc.Bytes())
		}
		close(addr)
	}()
	a, ok := <-addr
	if !ok {
		_ = cmd.Wait()
		return fail(fmt.Errorf("%s ended before it listened (status %d)", bin, cmd.ProcessState.ExitCode()))
	}
	relayErr := httpload.Relay(context.Background(), httpload.Target{URL: "http://" + a + "/mcp"}, os.Stdin, os.Stdout)
	if relayErr != nil {
		fmt.Fprintf(os.Stderr, "relay: %v\n", relayErr)
		_, _ = io.Copy(io.Discard, os.Stdin)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	_ = cmd.Wait()
	if relayErr != nil {
		return 1
	}
	return cmd.ProcessState.ExitCode()
}

func fail(err error) int {
	fmt.Fprintf(os.Stderr, "relay: %v\n", err)
	return 1
}

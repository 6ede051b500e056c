//go:build unix

package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/adrkit/adrkit-go/internal/fifotest"
)

// A FIFO put at the token file's path is refused at SIGHUP without being
// opened, the tokens in force stay, and SIGTERM still stops the server
// (issue 25: it used to hang the reload, and then SIGTERM).
func TestHTTPTokenFileBecomesAFIFO(t *testing.T) {
	tokens := writeTokens(t, tokenAll)
	s := startHTTP(t, "--http", "127.0.0.1:0", "--cwd", newRepo(t), "--token-file", tokens)
	if err := os.Remove(tokens); err != nil {
		t.Fatal(err)
	}
	fifotest.Make(t, tokens)
	t.Cleanup(func() {
		// Should anything have opened it, a writer lets it go.
		if f, err := os.OpenFile(tokens, os.O_RDWR, 0); err == nil {
			f.Close()
		}
	})
	s.signal(syscall.SIGHUP)
	if rec := s.awaitMsg("token file not reloaded; the previous tokens stay in force", 1); !strings.Contains(fmt.Sprint(rec["error"]), "not a regular file") {
		t.Errorf("reload failure logged as %v", rec)
	}
	call := toolCallHTTP(1, "list_superseded", `{}`, false)
	if got := s.call("/mcp", call, map[string]string{"Authorization": "Bearer " + tokenAll}); got.status != 200 {
		t.Errorf("the token in force after the refused reload: %d", got.status)
	}
	if code := s.stop(); code != 0 {
		t.Errorf("exit %d after SIGTERM", code)
	}
}

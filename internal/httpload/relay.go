package httpload

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// maxRelayLine bounds one input line of Relay.
const maxRelayLine = 16 << 20

// Relay carries a stdio conversation over HTTP: every line of in (one
// JSON-RPC message, as a stdio client writes it) is POSTed to t, one after
// the other, and every JSON answer is written to out as one line, so that
// a stdio transcript (the golden scenarios, the recorded conformance
// conversations) can be replayed against the HTTP server and compared
// with the same expectations.
//
// It sends what an HTTP client of each era sends: a request that carries
// a 2026-07-28 envelope (params._meta["io.modelcontextprotocol/
// protocolVersion"]) gets that revision in its MCP-Protocol-Version
// header, with the method (and tool) repeated in Mcp-Method (and
// Mcp-Name); any other gets the revision the last initialize answer
// negotiated, or no header before one. An answer of 202 (to a
// notification) writes nothing. Any answer whose body is not JSON is an
// error: the transports would differ there, and the caller must see it.
// Blank lines are skipped.
func Relay(ctx context.Context, t Target, in io.Reader, out io.Writer) error {
	client := &http.Client{}
	defer client.CloseIdleConnections()
	negotiated := ""
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), maxRelayLine)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		target := t
		target.Header = t.Header.Clone()
		if target.Header == nil {
			target.Header = http.Header{}
		}
		msg := peekMessage(line)
		if msg.envelope == "" && negotiated != "" {
			target.Header.Set("MCP-Protocol-Version", negotiated)
		}
		req, err := target.request(ctx, line)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("line %d: reading the answer: %w", n, err)
		}
		if resp.StatusCode == http.StatusAccepted && len(bytes.TrimSpace(body)) == 0 {
			continue
		}
		if !json.Valid(body) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			return fmt.Errorf("line %d: status %d with a body that is not a JSON answer: %q", n, resp.StatusCode, truncate(body, 200))
		}
		if msg.method == "initialize" {
			var answer struct {
				Result struct {
					ProtocolVersion string `json:"protocolVersion"`
				} `json:"result"`
			}
			if json.Unmarshal(body, &answer) == nil && answer.Result.ProtocolVersion != "" {
				negotiated = answer.Result.ProtocolVersion
			}
		}
		if _, err := out.Write(append(bytes.TrimRight(body, "\n"), '\n')); err != nil {
			return err
		}
	}
	return sc.Err()
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

package mcphttp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/httpload"
)

// A stdio transcript of both eras, relayed over HTTP, gets one answer line
// per request and none for notifications.
func TestRelay(t *testing.T) {
	s := serve(t, Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}}, ServerOptions{})
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	transcript := strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		``,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"legacy"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"modern"},` + meta + `}}`,
	}, "\n") + "\n"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := httpload.Relay(ctx, httpload.Target{URL: s.url + "/mcp"}, strings.NewReader(transcript), &out); err != nil {
		t.Fatal(err)
	}
	lines := nonEmptyLines(out.String())
	if len(lines) != 4 {
		t.Fatalf("%d answer lines, want 4:\n%s", len(lines), out.String())
	}
	var init struct {
		ID     int `json:"id"`
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &init); err != nil || init.Result.ProtocolVersion != "2025-06-18" {
		t.Errorf("initialize answer %s", lines[0])
	}
	if got := echoText(lines[1]); got != "only: legacy" {
		t.Errorf("legacy call: %s", lines[1])
	}
	if !strings.Contains(lines[2], `"supportedVersions"`) {
		t.Errorf("discover answer: %s", lines[2])
	}
	if got := echoText(lines[3]); got != "only: modern" || !strings.Contains(lines[3], `"resultType":"complete"`) {
		t.Errorf("modern call: %s", lines[3])
	}

	// A refusal that is not a JSON answer stops the relay with an error.
	err := httpload.Relay(ctx, httpload.Target{URL: s.url + "/mcp/nope"}, strings.NewReader(transcript), &out)
	if err == nil || !strings.Contains(err.Error(), "status 404") {
		t.Errorf("relay to an unknown path = %v, want a 404 error", err)
	}
}

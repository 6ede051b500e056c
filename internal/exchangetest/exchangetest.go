// Package exchangetest is the HTTP exchange of the MCP tests: one POST of
// a JSON-RPC body, as a streamable HTTP client sends it, and its whole
// answer. The tests of adapters/mcp's handler and of the team front
// (adapters/mcphttp) share it.
package exchangetest

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// Exchange is one POST and its answer.
type Exchange struct {
	Status int
	Header http.Header
	Body   string
}

// Post sends body to url with the Content-Type and Accept every
// streamable HTTP client sends, then the headers of each of hdrs in turn:
// "Host" sets the request's host, an empty value removes the header. A
// failure to send or to read the answer ends the test.
func Post(t testing.TB, url, body string, hdrs ...map[string]string) Exchange {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for _, hdr := range hdrs {
		for k, v := range hdr {
			switch {
			case k == "Host":
				req.Host = v
			case v == "":
				req.Header.Del(k)
			default:
				req.Header.Set(k, v)
			}
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return Exchange{Status: resp.StatusCode, Header: resp.Header, Body: string(data)}
}

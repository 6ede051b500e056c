package mcphttp

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// listenHandler streams for a subscriptions/listen body until the
// request's context ends, as go-sdk's handler does, and answers anything
// else at once.
func listenHandler(opened chan<- struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), `"subscriptions/listen"`) {
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
			return
		}
		if !w.(interface{ NoteDispatch(string, string) bool }).NoteDispatch("subscriptions/listen", "") {
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_ = http.NewResponseController(w).Flush()
		opened <- struct{}{}
		<-r.Context().Done()
	})
}

const listenBody = `{"jsonrpc":"2.0","id":"sub","method":"subscriptions/listen","params":{}}`

// A subscriptions/listen stream ends after StreamLife, and no more than
// MaxStreams are open at once: the next one gets 503 with Retry-After.
// Before, a stream lasted as long as its client and their number was
// bounded only by the connection cap.
func TestListenStreamsBounded(t *testing.T) {
	opened := make(chan struct{}, 4)
	s := serve(t, Options{Endpoints: []Endpoint{{Handler: listenHandler(opened)}}, MaxStreams: 1, StreamLife: time.Hour}, ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang guard only
	defer cancel()
	first := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.url+"/mcp", strings.NewReader(listenBody))
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		first <- err
	}()
	<-opened
	second, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.url+"/mcp", strings.NewReader(listenBody))
	if resp, err := http.DefaultClient.Do(second); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a second stream beside the first, with MaxStreams 1: %d", resp.StatusCode)
	}
	if got := post(t, s.url+"/mcp", callEcho(1, "x"), nil); got.Status != http.StatusOK {
		t.Errorf("a call beside the stream: %d %s", got.Status, string(got.Body))
	}
	cancel()
	<-first

	short := serve(t, Options{Endpoints: []Endpoint{{Handler: listenHandler(opened)}}, StreamLife: 20 * time.Millisecond}, ServerOptions{})
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Second) // a hang guard only
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, short.url+"/mcp", strings.NewReader(listenBody))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Errorf("the stream did not end by itself after StreamLife: %v", err)
	}
	if !strings.Contains(short.logs.String(), `"method":"subscriptions/listen"`) {
		t.Errorf("log: %s", short.logs.String())
	}
}

// Package httpload drives an MCP server over HTTP the way a team's agents
// and a few hostile clients do: many concurrent clients making many calls
// (Run), a body far over the limit followed by a request on the same
// connection (Oversize), and clients that send their headers or their
// body too slowly (SlowHeaders, SlowBody), and many sockets held open
// however the server sheds them (Hold: silent, trickling or stalled
// bodies). It knows nothing of the server
// it is pointed at beyond its URL, so the same checks run against a test
// server in-process and against the adrkit-mcp binary.
//
// Every loop is bounded in count or by the caller's context, and every
// wait by the caller's context; it only ever connects to the URL it is
// given.
package httpload

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Target is the MCP endpoint under test.
type Target struct {
	// URL is the endpoint, http://127.0.0.1:PORT/mcp or …/mcp/<name>.
	URL string
	// Token, when set, is sent as the bearer token.
	Token string
	// Header holds extra request headers (MCP-Protocol-Version for the
	// 2025 era, say). A body with a 2026-07-28 envelope gets that
	// revision in MCP-Protocol-Version, and Mcp-Method and Mcp-Name, by
	// itself, unless AsGiven is set.
	Header http.Header
	// AsGiven sends Header as it is, deriving no header from the body:
	// what a test of missing or contradicting headers needs.
	AsGiven bool
	// Host, when set, is the request's Host (a test of the Host check).
	Host string
}

// request builds a JSON POST of body to the target.
func (t Target) request(ctx context.Context, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, vs := range t.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if t.Token != "" {
		req.Header.Set("Authorization", "Bearer "+t.Token)
	}
	if t.Host != "" {
		req.Host = t.Host
	}
	if t.AsGiven {
		return req, nil
	}
	msg := peekMessage(body)
	if msg.envelope != "" {
		// A request of the 2026 era names its revision in its envelope
		// and in the header alike.
		req.Header.Set("MCP-Protocol-Version", msg.envelope)
	}
	if req.Header.Get("MCP-Protocol-Version") >= modernRevision {
		// Revision 2026-07-28 repeats the method, and the tool's name, in
		// headers; the server refuses a request without them.
		if msg.method != "" {
			req.Header.Set("Mcp-Method", msg.method)
		}
		if msg.method == "tools/call" && msg.name != "" {
			req.Header.Set("Mcp-Name", msg.name)
		}
	}
	return req, nil
}

// modernRevision is the first protocol revision whose HTTP requests carry
// the Mcp-Method and Mcp-Name headers.
const modernRevision = "2026-07-28"

// message is what a client needs to know of a message it sends.
type message struct {
	method, name, envelope string
}

// peekMessage reads the method, the tool name and the revision of the
// _meta envelope of a JSON-RPC request; a malformed body gives zeros (it
// is sent as it is).
func peekMessage(body []byte) message {
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name string                     `json:"name"`
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	_ = json.Unmarshal(body, &msg)
	m := message{method: msg.Method, name: msg.Params.Name}
	if raw, ok := msg.Params.Meta["io.modelcontextprotocol/protocolVersion"]; ok {
		_ = json.Unmarshal(raw, &m.envelope)
	}
	return m
}

// Load is a load run: Clients goroutines, each making Calls calls one
// after the other on its own keep-alive connection.
type Load struct {
	Clients, Calls int
	// Body is the JSON-RPC body of a client's call.
	Body func(client, call int) []byte
	// Check judges an answer; nil accepts any 200.
	Check func(client, call, status int, body []byte) error
}

// Result is what a load run measured.
type Result struct {
	// Latencies of every call, sorted.
	Latencies []time.Duration
	// Wall is the time the whole run took.
	Wall time.Duration
}

// Quantile is the latency at q (0.5 for the median) of the run.
func (r Result) Quantile(q float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	i := min(len(r.Latencies)-1, int(q*float64(len(r.Latencies))))
	return r.Latencies[i]
}

// Run makes the calls of l against t. Every answer is checked; the error
// joins the first failures (at most 10) and counts the rest.
func Run(ctx context.Context, t Target, l Load) (Result, error) {
	var (
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, l.Clients*l.Calls)
		failures  []error
		failed    int
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		failed++
		if len(failures) < 10 {
			failures = append(failures, err)
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	for c := range l.Clients {
		wg.Go(func() {
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}}
			defer client.CloseIdleConnections()
			mine := make([]time.Duration, 0, l.Calls)
			for n := range l.Calls {
				if ctx.Err() != nil {
					fail(ctx.Err())
					return
				}
				began := time.Now()
				status, body, err := post(ctx, client, t, l.Body(c, n))
				mine = append(mine, time.Since(began))
				switch {
				case err != nil:
					fail(fmt.Errorf("client %d call %d: %w", c, n, err))
				case l.Check != nil:
					if err := l.Check(c, n, status, body); err != nil {
						fail(fmt.Errorf("client %d call %d: %w", c, n, err))
					}
				case status != http.StatusOK:
					fail(fmt.Errorf("client %d call %d: status %d: %s", c, n, status, body))
				}
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	res := Result{Latencies: latencies, Wall: time.Since(start)}
	slices.Sort(res.Latencies)
	if failed > 0 {
		return res, fmt.Errorf("%d of %d calls failed: %w", failed, l.Clients*l.Calls, errors.Join(failures...))
	}
	return res, nil
}

// PostWith sends one body to t with client (its kept-alive connections)
// and reads the whole answer; it returns the status.
func PostWith(ctx context.Context, client *http.Client, t Target, body []byte) (int, error) {
	status, _, err := post(ctx, client, t, body)
	return status, err
}

// post sends one body and reads the whole answer.
func post(ctx context.Context, client *http.Client, t Target, body []byte) (int, []byte, error) {
	req, err := t.request(ctx, body)
	if err != nil {
		return 0, nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, err
}

// Post sends one body to t and returns the status and the answer.
func Post(ctx context.Context, t Target, body []byte) (int, []byte, error) {
	a, err := Send(ctx, t, body)
	return a.Status, a.Body, err
}

// Answer is the answer to one request.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Send sends one body to t, on a connection of its own, and returns the
// whole answer.
func Send(ctx context.Context, t Target, body []byte) (Answer, error) {
	req, err := t.request(ctx, body)
	if err != nil {
		return Answer{}, err
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		return Answer{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return Answer{Status: resp.StatusCode, Header: resp.Header, Body: data}, err
}

// OversizeResult is what happened to an oversized body and the request
// after it.
type OversizeResult struct {
	// Status is the answer to the oversized body (413 expected).
	Status int
	// Closed says the server closed the connection after that answer.
	Closed bool
	// NextStatus and NextBody are the answer to the next request, sent
	// on the same connection unless it was closed.
	NextStatus int
	NextBody   []byte
}

// Oversize sends a body of size bytes (a JSON string of that length, so
// that only its size is wrong) on one connection and reads the answer;
// then it sends next, on the same connection if the server kept it open,
// on a new one otherwise, and reads that answer too.
//
// A server that answers and closes before reading all of a body makes its
// kernel reset the connection, and a reset discards an answer the client
// has received but not yet read: on a loaded machine the reading goroutine
// can lose that race although the server answered. Such a lost answer is
// tried again, up to three times; any answer that arrives is checked.
func Oversize(ctx context.Context, t Target, size int, next []byte) (OversizeResult, error) {
	var err error
	for range 3 {
		var res OversizeResult
		if res, err = oversize(ctx, t, size, next); !errors.Is(err, errAnswerLost) {
			return res, err
		}
	}
	return OversizeResult{}, err
}

// errAnswerLost marks an answer the connection's reset took away.
var errAnswerLost = errors.New("the connection was reset before its answer was read")

// oversize is one attempt of Oversize.
func oversize(ctx context.Context, t Target, size int, next []byte) (OversizeResult, error) {
	var res OversizeResult
	big := make([]byte, size)
	for i := range big {
		big[i] = 'x'
	}
	big[0], big[size-1] = '"', '"'
	// The request is built before the connection is opened: a server
	// closes a connection that stays silent too long.
	req, err := t.request(ctx, big)
	if err != nil {
		return res, err
	}
	conn, br, err := dial(ctx, t.URL)
	if err != nil {
		return res, err
	}
	defer func() { conn.Close() }()
	// The body is written while the answer is awaited: a server that
	// answers before reading it all must not deadlock the test.
	written := make(chan error, 1)
	go func() { written <- req.Write(conn) }()
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
			err = fmt.Errorf("%w: %w", errAnswerLost, err)
		}
		return res, fmt.Errorf("reading the answer to %d bytes: %w", size, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	res.Status, res.Closed = resp.StatusCode, resp.Close
	if werr := <-written; werr != nil {
		res.Closed = true // the server stopped reading and closed
	}

	if res.Closed {
		conn.Close()
		if conn, br, err = dial(ctx, t.URL); err != nil {
			return res, err
		}
	}
	req, err = t.request(ctx, next)
	if err != nil {
		return res, err
	}
	if err := req.Write(conn); err != nil {
		return res, fmt.Errorf("sending the next request: %w", err)
	}
	resp, err = http.ReadResponse(br, req)
	if err != nil {
		return res, fmt.Errorf("reading the answer to the next request: %w", err)
	}
	defer resp.Body.Close()
	res.NextStatus = resp.StatusCode
	res.NextBody, err = io.ReadAll(resp.Body)
	return res, err
}

// SlowHeaders opens a connection, sends the start of a request's headers
// and then nothing, and waits for the server to close the connection.
// It returns how long that took; an error if ctx ended first.
func SlowHeaders(ctx context.Context, t Target) (time.Duration, error) {
	conn, _, err := dial(ctx, t.URL)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	u, _ := url.Parse(t.URL)
	start := time.Now()
	if _, err := fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n", u.RequestURI(), u.Host); err != nil {
		return 0, err
	}
	if err := awaitClose(ctx, conn); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// SlowBody sends complete headers announcing a body of 1 KiB, sends 16
// bytes of it and then nothing. It returns the status the server answered
// with before closing (0 if it closed without one) and how long it took.
func SlowBody(ctx context.Context, t Target) (int, time.Duration, error) {
	conn, br, err := dial(ctx, t.URL)
	if err != nil {
		return 0, 0, err
	}
	defer conn.Close()
	u, _ := url.Parse(t.URL)
	var head bytes.Buffer
	fmt.Fprintf(&head, "POST %s HTTP/1.1\r\nHost: %s\r\n", u.RequestURI(), u.Host)
	head.WriteString("Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n")
	if t.Token != "" {
		head.WriteString("Authorization: Bearer " + t.Token + "\r\n")
	}
	head.WriteString("Content-Length: " + strconv.Itoa(1024) + "\r\n\r\n")
	head.WriteString(`{"jsonrpc":"2.0",`)
	start := time.Now()
	if _, err := conn.Write(head.Bytes()); err != nil {
		return 0, 0, err
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return 0, time.Since(start), nil
		}
		return 0, 0, fmt.Errorf("waiting for the server to give up: %w", err)
	}
	resp.Body.Close()
	if err := awaitClose(ctx, conn); err != nil {
		return resp.StatusCode, 0, err
	}
	return resp.StatusCode, time.Since(start), nil
}

// dial connects to the host of rawURL, with ctx's deadline on every read
// and write of the connection.
func dial(ctx context.Context, rawURL string) (net.Conn, *bufio.Reader, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, nil, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, nil, err
	}
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	return conn, bufio.NewReader(conn), nil
}

// awaitClose reads until the server closes the connection.
func awaitClose(ctx context.Context, conn net.Conn) error {
	buf := make([]byte, 512)
	for {
		if _, err := conn.Read(buf); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return fmt.Errorf("the server kept the connection open: %w", context.Cause(ctx))
			}
			return nil
		}
	}
}

package mcphttp

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// A body still being sent holds no place in flight: the body is read,
// bounded and under the server's read timeout, before a place is taken.
// Before, slow bodies sent with corpus A's token took every place and
// every call to corpus B answered 503.
func TestSlowBodiesHoldNoPlace(t *testing.T) {
	file := t.TempDir() + "/tokens"
	writeFile(t, file, alphaToken+"\n")
	tokens, err := LoadTokens(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	front, err := New(Options{Endpoints: echoCorpora("a", "b"), Tokens: tokens, MaxInFlight: 2, InFlightWait: -1, Clock: &stepClock{}})
	if err != nil {
		t.Fatal(err)
	}
	reading := make(chan struct{}, 8)
	front.reading = func() {
		select {
		case reading <- struct{}{}:
		default:
		}
	}
	srv, err := Listen("127.0.0.1:0", front, ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve() }()
	defer srv.srv.Close()
	for range 2 {
		conn, err := net.Dial("tcp", srv.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		// 100 bytes announced, 10 sent, the rest never.
		fmt.Fprintf(conn, "POST /mcp/a HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
			"Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"", alphaToken)
	}
	<-reading
	<-reading
	if got := post(t, "http://"+srv.Addr().String()+"/mcp/b", callEcho(1, "x"), bearer(alphaToken)); got.Status != http.StatusOK {
		t.Errorf("a call to b while two bodies to a trickle in: %d %s", got.Status, string(got.Body))
	}
}

// One corpus, or one token, cannot take every place in flight: each may
// hold at most three quarters of them when there are several. Before,
// four slow calls to corpus a (or with one token) took all four places.
func TestPlacesAreShared(t *testing.T) {
	tests := []struct {
		name        string
		corpora     []string
		tokenFile   string
		hogURL, hog string
		otherURL    string
		other       string
	}{
		// One token: its share does not count, the corpus's does.
		{"one corpus", []string{"a", "b"}, alphaToken, "/mcp/a", alphaToken, "/mcp/b", alphaToken},
		// One corpus: its share does not count, the token's does.
		{"one token", []string{"a"}, alphaToken + "\n" + betaToken, "/mcp/a", alphaToken, "/mcp/a", betaToken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := t.TempDir() + "/tokens"
			writeFile(t, file, tt.tokenFile+"\n")
			tokens, err := LoadTokens(file, nil)
			if err != nil {
				t.Fatal(err)
			}
			entered, release := make(chan struct{}, 8), make(chan struct{})
			blocking := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Authorization") == "Bearer "+tt.hog && r.URL.Path == tt.hogURL {
					entered <- struct{}{}
					<-release
				}
				_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
			})
			var corpora []Endpoint
			for _, c := range tt.corpora {
				corpora = append(corpora, Endpoint{Name: c, Handler: blocking})
			}
			s := serve(t, Options{Endpoints: corpora, Tokens: tokens, MaxInFlight: 4, InFlightWait: -1}, ServerOptions{})
			answered := make(chan int, 8)
			for i := range 4 {
				go func() {
					got := post(t, s.url+tt.hogURL, callEcho(i, "hog"), bearer(tt.hog))
					answered <- got.Status
				}()
			}
			// Three calls get a place and one is refused at once (before:
			// all four got one).
			ins, outs := 0, 0
			guard := time.NewTimer(30 * time.Second) // a hang guard only
			defer guard.Stop()
			for ins+outs < 4 {
				select {
				case <-entered:
					ins++
				case status := <-answered:
					if status != http.StatusServiceUnavailable {
						t.Errorf("a refused hog call: %d", status)
					}
					outs++
				case <-guard.C:
					t.Fatalf("%d calls in, %d refused", ins, outs)
				}
			}
			got := post(t, s.url+tt.otherURL, callEcho(9, "other"), bearer(tt.other))
			close(release)
			if got.Status != http.StatusOK {
				t.Errorf("the other call, with %d hog calls in flight: %d %s", ins, got.Status, string(got.Body))
			}
			if ins != 3 || outs != 1 {
				t.Errorf("%d hog calls got a place and %d were refused, want 3 and 1", ins, outs)
			}
			for range ins {
				if status := <-answered; status != http.StatusOK {
					t.Errorf("a hog call in flight ended with %d", status)
				}
			}
		})
	}
}

// Slow bodies take at most their share of the bodies held at once
// (MaxBodies, three quarters of it per corpus when there are several);
// the requests beyond it are refused at once and their connections
// closed, so a call to another corpus is not kept waiting, and the bytes
// held in bodies stay within MaxBodies × MaxBodyBytes. Before, 8 bodies
// trickling to a filled the 8 connections, and the call to b waited for
// the read timeout (an hour here; 30 s by default).
func TestSlowBodiesTakeTheirShare(t *testing.T) {
	tests := []struct {
		name    string
		corpora []string
		path    string
		reading int
		other   string // a corpus served beside; "" for none
	}{
		{"two corpora", []string{"a", "b"}, "/mcp/a", 3, "/mcp/b"},
		{"one corpus", []string{""}, "/mcp", 4, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var corpora []Endpoint
			for _, c := range tt.corpora {
				corpora = append(corpora, Endpoint{Name: c, Handler: echoHandler(c)})
			}
			front, err := New(Options{Endpoints: corpora, Tokens: alphaTokens(t), MaxBodies: 4, Clock: &stepClock{}})
			if err != nil {
				t.Fatal(err)
			}
			reading := make(chan struct{}, 8)
			front.reading = func() { reading <- struct{}{} }
			srv, err := Listen("127.0.0.1:0", front, ServerOptions{MaxConns: 8, ReadTimeout: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			go func() { _ = srv.Serve() }()
			defer srv.srv.Close()
			refused := make(chan *http.Response, 8)
			for range 8 {
				conn := dialSilent(t, srv.Addr().String())
				// 100 bytes announced, 10 sent, the rest never.
				fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
					"Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"", tt.path, alphaToken)
				go func() {
					br := bufio.NewReader(conn)
					resp, err := http.ReadResponse(br, nil)
					if err != nil {
						return
					}
					// The refused connection closes soon, its body unsent: a
					// read ends, and not at the 30 s guard.
					if _, err := io.Copy(io.Discard, br); isTimeout(err) {
						t.Errorf("a refused connection stayed open: %v", err)
					}
					refused <- resp
				}()
			}
			guard := time.NewTimer(30 * time.Second) // a hang guard only
			defer guard.Stop()
			for in, out := 0, 0; in+out < 8; {
				select {
				case <-reading:
					in++
				case resp := <-refused:
					out++
					if resp.StatusCode != http.StatusServiceUnavailable || !resp.Close || resp.Header.Get("Retry-After") == "" {
						t.Errorf("a body beyond the share: %d, close %v, Retry-After %q", resp.StatusCode, resp.Close, resp.Header.Get("Retry-After"))
					}
				case <-guard.C:
					t.Fatalf("%d bodies read, %d refused, want %d and %d", in, out, tt.reading, 8-tt.reading)
				}
				if in > tt.reading {
					t.Fatalf("%d bodies read at once, want at most %d", in, tt.reading)
				}
			}
			if tt.other == "" {
				return
			}
			if got := guardedCall(t, "http://"+srv.Addr().String()+tt.other); got.Status != http.StatusOK {
				t.Errorf("a call to %s beside the slow bodies: %d %s", tt.other, got.Status, got.Body)
			}
		})
	}
}

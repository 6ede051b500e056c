package httpload

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
)

// Opener writes what a held connection sends after it is opened (nothing,
// or the start of a request) and returns.
type Opener func(conn net.Conn) error

// SendNothing is the Opener of a socket that never speaks.
func SendNothing(net.Conn) error { return nil }

// TrickledBody is the Opener of a request to t whose headers announce a body
// of size bytes, of which only the first 16 are sent.
func TrickledBody(t Target, size int) Opener {
	head := requestHead(t, size)
	return func(conn net.Conn) error {
		_, err := conn.Write(append(head, `{"jsonrpc":"2.0",`...))
		return err
	}
}

// StalledBody is the Opener of a request to t announcing a body of size
// bytes, of which all but the last are sent.
func StalledBody(t Target, size int) Opener {
	head := requestHead(t, size)
	body := bytes.Repeat([]byte{' '}, size-1)
	return func(conn net.Conn) error {
		if _, err := conn.Write(head); err != nil {
			return err
		}
		_, err := conn.Write(body)
		return err
	}
}

// requestHead is the request line and headers of a JSON POST of size
// bytes to t, with its token.
func requestHead(t Target, size int) []byte {
	u, _ := url.Parse(t.URL)
	var head bytes.Buffer
	fmt.Fprintf(&head, "POST %s HTTP/1.1\r\nHost: %s\r\n", u.RequestURI(), u.Host)
	head.WriteString("Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n")
	if t.Token != "" {
		head.WriteString("Authorization: Bearer " + t.Token + "\r\n")
	}
	head.WriteString("Content-Length: " + strconv.Itoa(size) + "\r\n\r\n")
	return head.Bytes()
}

// Held is what Hold saw.
type Held struct {
	// Opened counts the connections opened; Closed those the server
	// closed (after an answer or without one).
	Opened, Closed int64
}

// Hold keeps n connections open to t's host until ctx ends, each opened
// and then written to by open, and opened again whenever the server
// closes it: the pressure of a client that holds n sockets however the
// server sheds them. ready is closed once the first n are open. It
// returns when ctx ends, with an error only when a connection could not
// be opened at all.
func Hold(ctx context.Context, t Target, n int, open Opener, ready chan<- struct{}) (Held, error) {
	u, err := url.Parse(t.URL)
	if err != nil {
		return Held{}, err
	}
	var (
		opened, closed atomic.Int64
		first          sync.WaitGroup
		wg             sync.WaitGroup
		failMu         sync.Mutex
		fail           error
	)
	first.Add(n)
	for range n {
		wg.Go(func() {
			once := sync.OnceFunc(first.Done)
			defer once()
			var d net.Dialer
			for ctx.Err() == nil {
				conn, err := d.DialContext(ctx, "tcp", u.Host)
				if err != nil {
					if ctx.Err() == nil {
						failMu.Lock()
						fail = errors.Join(fail, err)
						failMu.Unlock()
					}
					return
				}
				opened.Add(1)
				stop := context.AfterFunc(ctx, func() { conn.Close() })
				err = open(conn)
				once() // opened and written to, or refused while written to
				if err == nil {
					_, _ = io.Copy(io.Discard, conn) // until the server closes it
				}
				if stop() {
					closed.Add(1)
				}
				conn.Close()
			}
		})
	}
	first.Wait()
	close(ready)
	wg.Wait()
	return Held{Opened: opened.Load(), Closed: closed.Load()}, fail
}

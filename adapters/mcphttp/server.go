package mcphttp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// Defaults of ServerOptions.
const (
	DefaultReadHeaderTimeout = 5 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 60 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultMaxHeaderBytes    = 64 << 10
	DefaultMaxConns          = 256
	DefaultMaxNewConns       = 256
	DefaultFirstByteTimeout  = 2 * time.Second
	DefaultShutdownIdle      = time.Second
)

// ServerOptions are the limits of the HTTP server; each zero field takes
// its default.
type ServerOptions struct {
	// ReadHeaderTimeout bounds the reading of a request's headers (a
	// client that trickles them is cut off).
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds the reading of a whole request, body included.
	ReadTimeout time.Duration
	// WriteTimeout bounds the time from the end of the headers to the end
	// of the answer; it must exceed the front's InFlightWait plus the
	// slowest tool call.
	WriteTimeout time.Duration
	// IdleTimeout bounds how long a kept-alive connection waits for its
	// next request.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds the request headers.
	MaxHeaderBytes int
	// MaxConns bounds the connections open at once. At the cap an idle
	// connection is closed to let a new one in; when none is idle, new
	// ones wait in the kernel's backlog. A connection that has carried no
	// authenticated request waits for its next one only ReadHeaderTimeout.
	// Connections that have not sent a request yet are not counted here
	// but against MaxNewConns.
	MaxConns int
	// MaxNewConns bounds the connections that have not yet sent a
	// request's headers. At the bound the oldest of them that has sent
	// nothing is closed to let a new one in; one that has sent bytes is
	// never cut, and while only such are left new ones wait. Sockets that
	// send nothing cost the callers nothing but this allowance.
	MaxNewConns int
	// FirstByteTimeout is how long a new connection may send nothing
	// before it is closed; ReadHeaderTimeout bounds the rest of its
	// headers. On Linux the kernel also holds a connection back that long
	// until its first byte (TCP_DEFER_ACCEPT).
	FirstByteTimeout time.Duration
	// ShutdownIdle is how long, on shutdown, a connection that carries no
	// request stays open for one already on its way (which is answered,
	// and the connection closed after it).
	ShutdownIdle time.Duration

	// acceptSilent, set by tests, has the kernel hand over silent
	// connections at once (no TCP_DEFER_ACCEPT), so that what the server
	// itself does with them is what they see.
	acceptSilent bool
}

// ExposureError is a listen address that reaches beyond this machine
// while no token is required: the server refuses to start (the cmd exits
// with status 2).
type ExposureError struct {
	// Addr is the address as given; Bound is where it would listen (the
	// address it names or resolves to, or every interface) or, when the
	// check after binding caught it, where it was bound.
	Addr, Bound string
}

func (e *ExposureError) Error() string {
	return fmt.Sprintf("refusing to listen on %s (%s) without tokens: only a loopback address may serve without --token-file or tokens in --config", e.Addr, e.Bound)
}

// Server is the listening HTTP server in front of a Front.
type Server struct {
	srv   *http.Server
	ln    *limitListener
	conns *conns
	front *Front
	idle  time.Duration
	// stopping is closed when Shutdown begins, done when it has ended.
	stopping, done     chan struct{}
	stopOnce, doneOnce sync.Once
	// drained, when set (by tests), is called once Shutdown has stopped
	// accepting and given the idle connections their deadline.
	drained func()
}

// Listen opens addr (host:port; port 0 picks one) for front. It refuses,
// with an *ExposureError and before any socket is opened, an address that
// is not loopback when front requires no token: an IP address is judged as
// it is, a name by every address it resolves to, and no host at all
// (":8080") is every interface, so "localhost" passes and ":8080" does
// not. Where the socket was then bound is judged again.
func Listen(addr string, front *Front, opts ServerOptions) (*Server, error) {
	if !front.Authenticates() {
		if err := refuseExposure(addr); err != nil {
			return nil, err
		}
	}
	firstByte := orDefault(opts.FirstByteTimeout, DefaultFirstByteTimeout)
	var lc net.ListenConfig
	if !opts.acceptSilent {
		lc.Control = deferAccept(firstByte)
	}
	ln, err := lc.Listen(context.Background(), "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	if !front.Authenticates() && !isLoopbackAddr(ln.Addr()) {
		bound := ln.Addr().String()
		_ = ln.Close()
		return nil, &ExposureError{Addr: addr, Bound: bound}
	}
	headerTimeout := orDefault(opts.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	writeTimeout := orDefault(opts.WriteTimeout, DefaultWriteTimeout)
	if front.life >= writeTimeout {
		// A stream must end before the write deadline cuts its
		// connection, so that its end reaches the client.
		front.life = writeTimeout - writeTimeout/6
	}
	cs := newConns(orDefault(opts.MaxConns, DefaultMaxConns), orDefault(opts.MaxNewConns, DefaultMaxNewConns),
		firstByte, headerTimeout, front.log)
	s := &Server{
		ln:    &limitListener{Listener: ln, conns: cs, done: make(chan struct{})},
		conns: cs, front: front, idle: orDefault(opts.ShutdownIdle, DefaultShutdownIdle),
		stopping: make(chan struct{}), done: make(chan struct{}),
		srv: &http.Server{
			Handler:           front,
			ConnState:         cs.setState,
			ConnContext:       connContext,
			ReadHeaderTimeout: headerTimeout,
			ReadTimeout:       orDefault(opts.ReadTimeout, DefaultReadTimeout),
			WriteTimeout:      writeTimeout,
			IdleTimeout:       orDefault(opts.IdleTimeout, DefaultIdleTimeout),
			MaxHeaderBytes:    orDefault(opts.MaxHeaderBytes, DefaultMaxHeaderBytes),
			// net/http's own complaints (a TLS handshake on the plain
			// port, a handler's panic) join the JSON log instead of
			// writing unstructured lines to stderr.
			ErrorLog: slog.NewLogLogger(front.log.Handler(), slog.LevelWarn),
		},
	}
	return s, nil
}

// refuseExposure says, before anything is bound, whether addr would
// listen beyond this machine: an *ExposureError if it would, a failure to
// read or resolve it, or nil for loopback addresses only.
func refuseExposure(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	if host == "" {
		return &ExposureError{Addr: addr, Bound: "every interface, port " + port}
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), resolveTimeout)
		defer cancel()
		if ips, err = net.DefaultResolver.LookupNetIP(ctx, "ip", host); err != nil {
			return fmt.Errorf("listening on %s: %w", addr, err)
		}
	}
	for _, ip := range ips {
		if !ip.Unmap().IsLoopback() {
			return &ExposureError{Addr: addr, Bound: net.JoinHostPort(ip.String(), port)}
		}
	}
	return nil
}

// resolveTimeout bounds the resolution of a listen address's name.
const resolveTimeout = 10 * time.Second

// isLoopbackAddr reports whether a bound address is a loopback one.
func isLoopbackAddr(a net.Addr) bool {
	ap, err := netip.ParseAddrPort(a.String())
	return err == nil && ap.Addr().Unmap().IsLoopback()
}

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Serve answers requests until Shutdown; it then returns nil once every
// request in flight has been answered. Any other end is an error.
func (s *Server) Serve() error {
	err := s.srv.Serve(s.ln)
	select {
	case <-s.stopping:
		<-s.done
		return nil
	default:
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting connections first, then ends the corpora's
// listen streams (Endpoint.Drain) and lets the requests in flight finish,
// each answer saying the connection closes after it. A connection that
// carries no request is not cut at once, which would reset a request
// already on its way: it gets ShutdownIdle to bring one, which is
// answered. Shutdown returns once every connection has closed; if ctx
// ends first, the remaining ones are closed and ctx's error returned.
// The cmd calls it on SIGTERM.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopOnce.Do(func() { close(s.stopping) })
	defer s.doneOnce.Do(func() { close(s.done) })
	s.front.draining.Store(true)
	_ = s.ln.Close()
	gone := s.conns.drain(time.Now().Add(s.idle))
	if s.drained != nil {
		s.drained()
	}
	s.front.drainCorpora()
	var err error
	select {
	case <-gone:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err == nil {
		err = s.srv.Shutdown(ctx)
	}
	if err != nil {
		_ = s.srv.Close()
	}
	s.conns.logCloses()
	return err
}

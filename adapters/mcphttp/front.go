package mcphttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/adrkit/adrkit-go/internal/loopback"
	"github.com/adrkit/adrkit-go/ports"
)

// Defaults of Options.
const (
	// DefaultMaxBodyBytes is the largest request body read: the largest
	// request of the tools is a few kilobytes.
	DefaultMaxBodyBytes = 1 << 20
	// DefaultDrainBytes is how much of a refused body is read and thrown
	// away so that the client receives its 413 and the connection stays
	// open for the next request; a longer body closes the connection.
	DefaultDrainBytes = 16 << 20
	// DefaultMaxInFlight is how many MCP requests are served at once.
	DefaultMaxInFlight = 32
	// DefaultMaxBodies is how many MCP requests may hold a body at once,
	// from the start of its reading to the end of the answer: with
	// DefaultMaxBodyBytes, at most 64 MiB of request bodies, which the
	// memory limit of deploy/kubernetes (256 Mi) leaves room for.
	DefaultMaxBodies = 64
	// DefaultInFlightWait is how long a request waits for one of those
	// places before it is refused with 503.
	DefaultInFlightWait = 2 * time.Second
	// DefaultReadyTimeout bounds the corpus checks of one /readyz.
	DefaultReadyTimeout = 5 * time.Second
	// DefaultMaxStreams is how many subscriptions/listen streams are open
	// at once: this server never changes its tool list, so a stream only
	// acknowledges and waits, and a few per client are plenty.
	DefaultMaxStreams = 64
	// DefaultStreamLife is how long a subscriptions/listen stream stays
	// open: less than DefaultWriteTimeout, so that its end is written
	// before the write deadline cuts the connection. A client opens a new
	// one when it wants.
	DefaultStreamLife = 50 * time.Second
)

// bodyServer is an endpoint handler that takes a POST's body as the front
// read it (adapters/mcp's HTTPHandler): reading it again from r.Body
// would hold a second copy of every body the front has already bounded.
type bodyServer interface {
	ServeBody(w http.ResponseWriter, r *http.Request, body []byte)
}

// refusedBodyWait is how long the rest of a refused request's body may
// take to arrive: a client that sent it whole loses nothing, one that
// trickles it is cut off.
const refusedBodyWait = 100 * time.Millisecond

// methodListen opens a stream of change notifications (2026-07-28).
const methodListen = "subscriptions/listen"

// retryAfterSeconds is the Retry-After of a 503 for a full server.
const retryAfterSeconds = 1

// realm is the realm parameter of the bearer challenges (RFC 6750 §3).
const realm = "adrkit-mcp"

// Endpoint is one MCP endpoint of the front, a corpus served at /mcp or
// /mcp/<name>: the MCP handler that answers its requests and the check
// /readyz runs. The composition root (cmd/adrkit-mcp) builds both.
type Endpoint struct {
	// Name is the corpus's path segment, /mcp/<name>; the empty name is
	// the only corpus, served at /mcp.
	Name string
	// Handler serves MCP (streamable HTTP) for this corpus; the front has
	// already checked the caller, bounded the body and counted the call.
	// adapters/mcp's HTTPHandler is the one adrkit-mcp serves.
	Handler http.Handler
	// Ready reports whether the corpus can be read now (the root and the
	// ADR directory, or the revision, resolve); nil means always ready.
	Ready func(context.Context) error
	// Drain, when set, ends the requests of Handler that would otherwise
	// never end (subscriptions/listen streams); the server calls it when
	// it starts to shut down.
	Drain func()
}

// Options configures a Front. Endpoints and Clock are required.
type Options struct {
	// Endpoints are served at /mcp (one with the empty name) or at
	// /mcp/<name> (any number of named ones).
	Endpoints []Endpoint
	// Tokens, when set, are required on every MCP request: a missing or
	// unknown token gets 401, a token that does not cover the corpus 403.
	// Nil serves without authentication, which Listen allows on loopback
	// addresses only.
	Tokens *Tokens
	// AllowedHosts are the names, besides loopback ones on a loopback
	// connection, that a request's Host may carry. Empty allows any Host
	// on a non-loopback connection (where tokens are required) and only
	// loopback names on a loopback one: a DNS-rebinding page cannot reach
	// a server on this machine under its own name.
	AllowedHosts []string
	// AllowedOrigins are browser origins allowed to call across origins;
	// any other cross-origin browser request gets 403 (net/http's
	// CrossOriginProtection judges, from Sec-Fetch-Site or Origin).
	// Clients that are not browsers send no Origin and are not affected.
	AllowedOrigins []string
	// MaxBodyBytes bounds a request body (413 beyond); 0 means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// DrainBytes is how much of a refused body is discarded to keep the
	// connection; 0 means DefaultDrainBytes, negative none.
	DrainBytes int64
	// MaxInFlight bounds the MCP requests served at once; 0 means
	// DefaultMaxInFlight.
	MaxInFlight int
	// MaxBodies bounds the requests that hold a body at once, from the
	// start of its reading to the end of the answer; beyond it, 503 at
	// once, and the connection is closed. The bytes held in request
	// bodies are at most MaxBodies × MaxBodyBytes. When several corpora
	// (or tokens) are served, none holds more than three quarters of
	// them. 0 means DefaultMaxBodies.
	MaxBodies int
	// InFlightWait is how long a request waits for a place before 503;
	// 0 means DefaultInFlightWait, negative not at all.
	InFlightWait time.Duration
	// ReadyTimeout bounds the checks of one /readyz; 0 means
	// DefaultReadyTimeout.
	ReadyTimeout time.Duration
	// MaxStreams bounds the subscriptions/listen streams open at once
	// (503 beyond); 0 means DefaultMaxStreams.
	MaxStreams int
	// StreamLife bounds how long a subscriptions/listen stream stays
	// open; 0 means DefaultStreamLife. Listen shortens it to end before
	// the server's write timeout.
	StreamLife time.Duration
	// Log receives the access log, one record per MCP request, and the
	// failures of readiness checks; nil discards them.
	Log *slog.Logger
	// Clock times the requests for the access log.
	Clock ports.Clock
}

// Front is the HTTP face of the server: routing to the corpora, the
// checks every MCP request passes (Host, Origin, token, corpus, a place
// in flight, body size), the access log and the health endpoints. Create
// it with New; it is an http.Handler.
type Front struct {
	corpora  map[string]Endpoint
	names    []string // sorted
	single   bool
	tokens   *Tokens
	hosts    []string
	origins  *http.CrossOriginProtection
	maxBody  int64
	drain    int64
	places   *places
	bodies   *places
	streams  *places
	life     time.Duration
	wait     time.Duration
	readyFor time.Duration
	log      *slog.Logger
	clock    ports.Clock
	mux      *http.ServeMux
	// draining is set when the server shuts down: every answer then
	// closes its connection.
	draining atomic.Bool

	// queued, when set (by tests), is called when a request starts to
	// wait for a place in flight; reading when it starts to read its body.
	queued, reading func()
}

// New checks opts and builds the Front.
func New(opts Options) (*Front, error) {
	if opts.Clock == nil {
		return nil, errors.New("mcphttp: Options.Clock is required")
	}
	if len(opts.Endpoints) == 0 {
		return nil, errors.New("mcphttp: no corpus to serve")
	}
	f := &Front{
		corpora:  map[string]Endpoint{},
		tokens:   opts.Tokens,
		origins:  http.NewCrossOriginProtection(),
		maxBody:  orDefault(opts.MaxBodyBytes, DefaultMaxBodyBytes),
		drain:    max(orDefault(opts.DrainBytes, DefaultDrainBytes), 0),
		places:   newPlaces(orDefault(opts.MaxInFlight, DefaultMaxInFlight)),
		bodies:   newPlaces(orDefault(opts.MaxBodies, DefaultMaxBodies)),
		streams:  newPlaces(orDefault(opts.MaxStreams, DefaultMaxStreams)),
		life:     orDefault(opts.StreamLife, DefaultStreamLife),
		wait:     max(orDefault(opts.InFlightWait, DefaultInFlightWait), 0),
		readyFor: orDefault(opts.ReadyTimeout, DefaultReadyTimeout),
		log:      opts.Log,
		clock:    opts.Clock,
	}
	if f.log == nil {
		f.log = slog.New(slog.DiscardHandler)
	}
	for _, c := range opts.Endpoints {
		if c.Handler == nil {
			return nil, fmt.Errorf("mcphttp: corpus %q has no handler", c.Name)
		}
		if c.Name == "" {
			f.single = true
		} else if err := CheckName(c.Name); err != nil {
			return nil, fmt.Errorf("mcphttp: %w", err)
		}
		if _, dup := f.corpora[c.Name]; dup {
			return nil, fmt.Errorf("mcphttp: corpus %q is given twice", c.Name)
		}
		f.corpora[c.Name] = c
		f.names = append(f.names, c.Name)
	}
	if f.single && len(f.corpora) > 1 {
		return nil, errors.New("mcphttp: the unnamed corpus (served at /mcp) must be the only one")
	}
	slices.Sort(f.names)
	for _, h := range opts.AllowedHosts {
		if err := checkHostName(h); err != nil {
			return nil, fmt.Errorf("mcphttp: allowed host: %w", err)
		}
		f.hosts = append(f.hosts, normalHost(h))
	}
	for _, o := range opts.AllowedOrigins {
		if err := f.origins.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("mcphttp: allowed origin %q: %w", o, err)
		}
	}
	f.mux = http.NewServeMux()
	f.mux.HandleFunc("GET /healthz", f.healthz)
	f.mux.HandleFunc("GET /readyz", f.readyz)
	if f.single {
		f.mux.HandleFunc("/mcp", f.serveMCP)
	} else {
		f.mux.HandleFunc("/mcp/{corpus}", f.serveMCP)
	}
	return f, nil
}

// orDefault is v, or def when v is zero.
func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// Authenticates reports whether the front requires tokens.
func (f *Front) Authenticates() bool { return f.tokens != nil }

// drainCorpora calls every corpus's Drain.
func (f *Front) drainCorpora() {
	for _, name := range f.names {
		if d := f.corpora[name].Drain; d != nil {
			d()
		}
	}
}

// ServeHTTP routes: /healthz, /readyz, and the MCP endpoint(s).
func (f *Front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.draining.Load() {
		w.Header().Set("Connection", "close")
	}
	f.mux.ServeHTTP(w, r)
}

// healthz answers while the process is up.
func (f *Front) healthz(w http.ResponseWriter, _ *http.Request) {
	writeText(w, http.StatusOK, "ok")
}

// readyz answers 200 when every corpus can be read, 503 otherwise. The
// answer names no corpus and no cause (anyone who reaches the port may
// ask); the log has both.
func (f *Front) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), f.readyFor)
	defer cancel()
	failed := 0
	for _, name := range f.names {
		c := f.corpora[name]
		if c.Ready == nil {
			continue
		}
		if err := c.Ready(ctx); err != nil {
			failed++
			f.log.LogAttrs(ctx, slog.LevelWarn, "corpus not ready", corpusAttr(name), slog.String("error", err.Error()))
		}
	}
	if failed > 0 {
		writeText(w, http.StatusServiceUnavailable, fmt.Sprintf("not ready: %d of %d corpora cannot be read", failed, len(f.names)))
		return
	}
	writeText(w, http.StatusOK, "ready")
}

// serveMCP runs one MCP request through the checks, in the order that
// spends the least on a caller who will be refused: the Host and Origin
// (no secret involved), the token, the corpus, a place in flight, and
// only then the body.
func (f *Front) serveMCP(w http.ResponseWriter, r *http.Request) {
	start := f.clock.Now()
	name := r.PathValue("corpus")
	rec := &recorder{ResponseWriter: w}
	defer func() {
		status := rec.status()
		p := recover()
		if p != nil {
			status = http.StatusInternalServerError
		}
		f.logRequest(r.Context(), r.Method, name, rec.noted, status, f.clock.Now().Sub(start))
		if p != nil {
			panic(p) // net/http ends the connection and reports it
		}
	}()

	// A request refused before its body is read must not wait for that
	// body: net/http reads what is left of a short one before it answers
	// the next request or closes, and a client that trickles it would hold
	// the connection for the whole read timeout.
	bodyRead := false
	defer func() {
		if !bodyRead && r.ContentLength != 0 {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(refusedBodyWait))
		}
	}()
	if err := f.checkHost(r); err != nil {
		writeText(rec, http.StatusForbidden, err.Error())
		return
	}
	if err := f.origins.Check(r); err != nil {
		writeText(rec, http.StatusForbidden, "cross-origin request refused: "+err.Error())
		return
	}
	var keys []placeKey
	if f.tokens != nil {
		a, problem := f.authenticate(r)
		if problem == tokenAccepted && !a.covers(name) {
			problem = tokenOutOfScope
		}
		if problem != tokenAccepted {
			challenge(rec, problem)
			return
		}
		if f.tokens.Len() > 1 {
			keys = append(keys, placeKey{token: true, digest: a.digest})
		}
	}
	markAuthenticated(r.Context())
	corpus, ok := f.corpora[name]
	if !ok {
		writeText(rec, http.StatusNotFound, fmt.Sprintf("no corpus is named %q", name))
		return
	}
	if len(f.corpora) > 1 {
		keys = append(keys, placeKey{corpus: name})
	}
	// A body is held from the start of its reading to the end of the
	// answer, and the bodies held at once are few (MaxBodies) and shared:
	// a corpus whose clients send slowly holds its share, not every
	// connection, and their bytes stay within MaxBodies × MaxBodyBytes.
	// Waiting for one would hold the connection, so a request beyond them
	// is refused at once, and its connection closed.
	if !f.bodies.tryTake(keys) {
		markLeaving(r.Context())
		rec.Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds))
		rec.Header().Set("Connection", "close")
		writeText(rec, http.StatusServiceUnavailable, "too many requests in progress; retry shortly")
		return
	}
	var bodyOnce sync.Once
	releaseBody := func() { f.bodies.release(keys) }
	defer bodyOnce.Do(releaseBody)
	// The body is read before a place is taken: a client that sends it
	// slowly holds its connection (the server's read timeout bounds it),
	// not a place the other calls need.
	if f.reading != nil {
		f.reading()
	}
	bodyRead = true
	body, status, err := f.readBody(r)
	if err != nil {
		writeText(rec, status, err.Error())
		return
	}
	release, ok := f.places.take(r.Context(), keys, f.wait, f.queued)
	if !ok {
		rec.Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds))
		writeText(rec, http.StatusServiceUnavailable, "too many requests in flight; retry shortly")
		return
	}
	var once sync.Once
	defer once.Do(release)

	// A subscriptions/listen stream stays open until its client goes, its
	// life (StreamLife) ends, or the server shuts down (Endpoint.Drain). It
	// gives its place in flight back, so that streams cannot starve the
	// calls, and holds one of MaxStreams places instead, shared as the
	// places in flight are.
	ctx, end := context.WithCancel(r.Context())
	defer end()
	r = r.WithContext(ctx)
	tooManyStreams := false
	rec.onDispatch = func(d dispatched) bool {
		if d.method != methodListen {
			return true
		}
		once.Do(release)
		bodyOnce.Do(releaseBody)
		if !f.streams.tryTake(keys) {
			tooManyStreams = true
			return false
		}
		lifetime := time.AfterFunc(f.life, end)
		context.AfterFunc(ctx, func() {
			lifetime.Stop()
			f.streams.release(keys)
		})
		return true
	}
	if bs, ok := corpus.Handler.(bodyServer); ok && r.Method == http.MethodPost {
		bs.ServeBody(rec, r, body)
	} else {
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength, r.TransferEncoding = int64(len(body)), nil
		corpus.Handler.ServeHTTP(rec, r)
	}
	if tooManyStreams {
		rec.Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds))
		writeText(rec, http.StatusServiceUnavailable, "too many subscription streams open; retry shortly")
	}
}

// checkHost refuses a Host header the server does not answer to: on a
// connection that arrived at a loopback address, anything but a loopback
// name or an allowed host (the DNS-rebinding case: a page whose name now
// resolves to 127.0.0.1 still sends its own name); elsewhere, when hosts
// are listed, any other name.
func (f *Front) checkHost(r *http.Request) error {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = normalHost(host)
	if slices.Contains(f.hosts, host) {
		return nil
	}
	if arrivedOnLoopback(r) {
		if loopback.IsName(host) {
			return nil
		}
	} else if len(f.hosts) == 0 {
		return nil
	}
	return fmt.Errorf("host %q is not served here", r.Host)
}

// arrivedOnLoopback reports whether the request's connection was accepted
// on a loopback address.
func arrivedOnLoopback(r *http.Request) bool {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || addr == nil {
		return false
	}
	ap, err := netip.ParseAddrPort(addr.String())
	return err == nil && ap.Addr().Unmap().IsLoopback()
}

// authProblem is why a request's token is refused: the error codes of
// RFC 6750 §3.1, where one applies.
type authProblem int

const (
	tokenAccepted authProblem = iota
	// tokenMissing: no bearer token at all. The challenge carries no
	// error code, as §3.1 asks.
	tokenMissing
	// tokenInvalid: a bearer token nobody granted ("invalid_token", 401).
	tokenInvalid
	// tokenOutOfScope: a known token that does not reach the corpus
	// ("insufficient_scope", 403).
	tokenOutOfScope
)

// authenticate finds the bearer token of r and what it may read.
func (f *Front) authenticate(r *http.Request) (access, authProblem) {
	scheme, token, found := strings.Cut(r.Header.Get("Authorization"), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return access{}, tokenMissing
	}
	token = strings.TrimLeft(token, " ")
	if !isB64Token(token) {
		return access{}, tokenInvalid
	}
	a, ok := f.tokens.lookup(token)
	if !ok {
		return access{}, tokenInvalid
	}
	return a, tokenAccepted
}

// challenge refuses a request with a bearer challenge (RFC 6750 §3).
func challenge(w http.ResponseWriter, problem authProblem) {
	value, status, text := `Bearer realm="`+realm+`"`, http.StatusUnauthorized, "a bearer token is required"
	switch problem {
	case tokenInvalid:
		value += `, error="invalid_token", error_description="the token is not known"`
		text = "the bearer token is not known"
	case tokenOutOfScope:
		value += `, error="insufficient_scope", error_description="the token does not reach this corpus"`
		status, text = http.StatusForbidden, "the bearer token does not reach this corpus"
	}
	w.Header().Set("WWW-Authenticate", value)
	writeText(w, status, text)
}

// readBody reads the whole body, at most maxBody bytes, into one buffer
// of the announced length (maxBody+1 when none is announced), so that a
// body never holds more than that, growing or not. A longer body is
// refused with 413 after up to drain more bytes are read and discarded:
// the client, still sending, then reads its answer instead of a reset
// connection, and the connection can carry the next request. A body that
// goes on past that closes the connection after the answer.
func (f *Front) readBody(r *http.Request) ([]byte, int, error) {
	if r.ContentLength > f.maxBody+f.drain {
		// Nothing to gain from reading what will be refused anyway.
		return nil, http.StatusRequestEntityTooLarge, bodyTooLarge(f.maxBody)
	}
	size := f.maxBody + 1
	if r.ContentLength >= 0 {
		size = min(r.ContentLength, size)
	}
	body := make([]byte, size)
	n, err := 0, error(nil)
	for n < len(body) && err == nil {
		var m int
		m, err = r.Body.Read(body[n:])
		n += m
	}
	if err != nil && err != io.EOF {
		return nil, readFailureStatus(err), fmt.Errorf("reading the request body: %v", err)
	}
	if body = body[:n]; int64(n) <= f.maxBody {
		return body, 0, nil
	}
	if _, err := io.CopyN(io.Discard, r.Body, f.drain); err != nil && !errors.Is(err, io.EOF) {
		return nil, readFailureStatus(err), fmt.Errorf("reading the request body: %v", err)
	}
	return nil, http.StatusRequestEntityTooLarge, bodyTooLarge(f.maxBody)
}

func bodyTooLarge(limit int64) error {
	return fmt.Errorf("request body larger than %d bytes", limit)
}

// readFailureStatus is the status for a body that could not be read: 408
// when the read deadline passed, 400 otherwise.
func readFailureStatus(err error) int {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return http.StatusRequestTimeout
	}
	return http.StatusBadRequest
}

// writeText answers with one line of plain text.
func writeText(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, text+"\n")
}

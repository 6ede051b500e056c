package mcphttp

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// conns bounds the connections open at once and keeps the ones that do
// nothing from holding places that others need (http.Server.ConnState
// tells it each connection's state):
//
//   - A connection that has not yet sent a request's headers is fresh.
//     Fresh connections count against an allowance of their own
//     (maxFresh), not against max: when it is full, the oldest one that
//     has sent nothing at all (no byte read, none waiting unread) is
//     closed for the newcomer. Sockets that send nothing therefore never
//     keep a caller out, however many they are. One that has sent bytes is
//     never cut: while the allowance holds only such, new connections
//     wait until one is served or times out.
//   - A fresh connection that sends nothing within firstByte is closed.
//   - At the cap of connections that have sent a request, a new
//     connection is let in by closing an idle one: first one that never
//     carried an authenticated request, then the one idle longest. Only
//     when none is idle does it wait (in the kernel's backlog) for one to
//     close or become idle.
//   - A connection refused for want of a body slot (markLeaving) closes
//     after its answer and no longer counts against max; such
//     connections are bounded by max of their own.
//   - A connection whose requests have all been refused before the token
//     check passed waits for its next request only as long as a request's
//     headers may take (preAuthIdle), not the server's idle timeout.
//   - On shutdown (drain), a connection that carries no request gets
//     until a deadline for one that may already be on its way.
//
// Every close it decides is logged: each second, a count per reason.
type conns struct {
	max, maxFresh          int
	firstByte, preAuthIdle time.Duration
	log                    *slog.Logger

	mu   sync.Mutex
	open map[*conn]struct{}
	// queue holds the open connections that have sent no request yet, in
	// the order they arrived.
	queue []*conn
	// leaving counts the open connections refused and about to close.
	leaving int
	// changed is closed, and replaced, whenever a connection closes or
	// becomes idle.
	changed chan struct{}
	// seq orders the connections' arrivals and idle spells.
	seq uint64
	// drainBy, once set, is the read deadline of every connection that
	// carries no request: the server is shutting down.
	drainBy time.Time
	// closes counts the closes not yet logged, by reason; flush is the
	// timer that logs them, nil while none is pending.
	closes map[string]int
	flush  *time.Timer
}

// closeLogEvery is how often the closes a server decides are logged: one
// record per reason with their count, so that an attack of thousands of
// sockets a second writes a line a second, not thousands.
const closeLogEvery = time.Second

// conn is one connection the server accepted.
type conn struct {
	net.Conn
	owner *conns
	once  sync.Once
	// spoke is set at the first byte read from the connection.
	spoke atomic.Bool

	// Guarded by owner.mu.
	state         http.ConnState
	fresh         bool
	arrived       uint64
	firstByteBy   time.Time // zero when no first-byte deadline applies
	asked         time.Time // the read deadline net/http last asked for
	authenticated bool
	leaving       bool   // refused, closing after its answer
	idleSince     uint64 // the value of seq when it last became idle
	idleTimer     *time.Timer
	reason        string // why this server closed it, for the log
}

// Reasons for closing a connection, as logged.
const (
	closedCrowded   = "crowded out"        // fresh, at the allowance, for a newer one
	closedSilent    = "no first byte"      // fresh, nothing sent within firstByte
	closedIdleAtCap = "idle at capacity"   // idle, at the cap, for a new one
	closedPreAuth   = "idle without token" // idle after refused requests only
)

func newConns(max, maxFresh int, firstByte, preAuthIdle time.Duration, log *slog.Logger) *conns {
	return &conns{max: max, maxFresh: maxFresh, firstByte: firstByte, preAuthIdle: preAuthIdle, log: log,
		open: map[*conn]struct{}{}, changed: make(chan struct{}), closes: map[string]int{}}
}

// notify wakes whoever waits for room; c.mu is held.
func (c *conns) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// room waits until a connection may be accepted, closing an idle one at
// the cap; false when done is closed first. It also waits while the
// connections refused and closing are as many as the cap, and while the
// fresh ones fill their allowance and none of them is silent (each will
// be served or time out).
func (c *conns) room(done <-chan struct{}) bool {
	for {
		c.mu.Lock()
		var victim *conn
		switch {
		case len(c.open)-len(c.queue)-c.leaving >= c.max:
			victim = c.idlest()
		case c.leaving >= c.max:
		case len(c.queue) >= c.maxFresh && c.silent(nil) == nil:
		default:
			c.mu.Unlock()
			return true
		}
		changed := c.changed
		c.mu.Unlock()
		if victim != nil {
			_ = victim.Close()
			continue
		}
		select {
		case <-changed:
		case <-done:
			return false
		}
	}
}

// crowd closes the oldest silent fresh connections while there are more
// than the allowance, never the newcomer, which has had no time to speak.
// One that has sent something is not closed, lest a request be cut: it
// is served, or times out, soon.
func (c *conns) crowd(newcomer *conn) {
	for {
		c.mu.Lock()
		var victim *conn
		if len(c.queue) > c.maxFresh {
			if victim = c.silent(newcomer); victim != nil {
				victim.reason = closedCrowded
			}
		}
		c.mu.Unlock()
		if victim == nil {
			return
		}
		_ = victim.Close()
	}
}

// idlest is the idle connection to close first, or nil; c.mu is held.
func (c *conns) idlest() *conn {
	var best *conn
	for k := range c.open {
		if k.state != http.StateIdle || k.reason != "" {
			continue
		}
		switch {
		case best == nil,
			!k.authenticated && best.authenticated,
			k.authenticated == best.authenticated && k.idleSince < best.idleSince:
			best = k
		}
	}
	if best != nil {
		best.reason = closedIdleAtCap
	}
	return best
}

// silent is the oldest fresh connection but newcomer that has sent
// nothing (no byte read, none waiting unread), or nil; c.mu is held.
func (c *conns) silent(newcomer *conn) *conn {
	for _, k := range c.queue {
		if k.reason != "" || k == newcomer || k.spoke.Load() {
			continue
		}
		if !hasSent(k.Conn) {
			return k
		}
		// Its bytes wait unread: it has spoken, and need not be looked at
		// again; the first-byte deadline no longer applies.
		k.spoke.Store(true)
		_ = k.Conn.SetReadDeadline(k.readDeadline())
	}
	return nil
}

// unqueue takes k, no longer fresh, out of the count and the queue;
// c.mu is held.
func (c *conns) unqueue(k *conn) {
	if !k.fresh {
		return
	}
	k.fresh = false
	c.queue = slices.DeleteFunc(c.queue, func(q *conn) bool { return q == k })
	c.notify()
}

// add counts a connection just accepted, and gives it its first-byte
// deadline.
func (c *conns) add(nc net.Conn) *conn {
	k := &conn{Conn: nc, owner: c, state: http.StateNew, fresh: true}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	k.arrived = c.seq
	c.open[k] = struct{}{}
	c.queue = append(c.queue, k)
	if c.firstByte > 0 {
		k.firstByteBy = time.Now().Add(c.firstByte)
	}
	_ = nc.SetReadDeadline(k.readDeadline())
	return k
}

// readDeadline is the read deadline the connection gets: what net/http
// asked for, brought forward to the first-byte deadline while nothing
// has been read and to the drain deadline while no request is being
// served; k.owner.mu is held.
func (k *conn) readDeadline() time.Time {
	t := k.asked
	earlier := func(d time.Time) {
		if !d.IsZero() && (t.IsZero() || d.Before(t)) {
			t = d
		}
	}
	if !k.spoke.Load() {
		earlier(k.firstByteBy)
	}
	if k.state == http.StateNew || k.state == http.StateIdle {
		earlier(k.owner.drainBy)
	}
	return t
}

// SetReadDeadline is net/http's deadline, bounded by readDeadline.
func (k *conn) SetReadDeadline(t time.Time) error {
	k.owner.mu.Lock()
	defer k.owner.mu.Unlock()
	k.asked = t
	return k.Conn.SetReadDeadline(k.readDeadline())
}

// Read notes the first byte, which lifts the first-byte deadline, and a
// connection that sent nothing before that deadline.
func (k *conn) Read(p []byte) (int, error) {
	n, err := k.Conn.Read(p)
	if k.spoke.Load() {
		return n, err
	}
	c := k.owner
	c.mu.Lock()
	if n == 0 && isTimeout(err) && k.reason == "" && !k.firstByteBy.IsZero() && !time.Now().Before(k.firstByteBy) {
		if !hasSent(k.Conn) {
			k.reason = closedSilent
			c.mu.Unlock()
			return n, err
		}
		// The bytes came in time; this server was too busy to read them.
		n, err = 0, nil
	}
	if n > 0 || err == nil {
		k.spoke.Store(true)
		_ = k.Conn.SetReadDeadline(k.readDeadline())
	}
	c.mu.Unlock()
	if n == 0 && err == nil {
		return k.Conn.Read(p)
	}
	return n, err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// Close closes the connection, gives its place back and logs why the
// server closed it, when it was its decision.
func (k *conn) Close() error {
	err := k.Conn.Close()
	k.once.Do(func() {
		c := k.owner
		c.mu.Lock()
		delete(c.open, k)
		c.unqueue(k)
		if k.leaving {
			c.leaving--
		}
		if k.idleTimer != nil {
			k.idleTimer.Stop()
		}
		c.notify()
		if k.reason != "" {
			c.closes[k.reason]++
			if c.flush == nil {
				c.flush = time.AfterFunc(closeLogEvery, c.logCloses)
			}
		}
		c.mu.Unlock()
	})
	return err
}

// logCloses logs the closes counted since the last record, one record per
// reason.
func (c *conns) logCloses() {
	c.mu.Lock()
	closes := c.closes
	c.closes, c.flush = map[string]int{}, nil
	c.mu.Unlock()
	for _, reason := range slices.Sorted(maps.Keys(closes)) {
		c.log.LogAttrs(context.Background(), slog.LevelInfo, "connections closed",
			slog.String("reason", reason), slog.Int("count", closes[reason]))
	}
}

// setState is http.Server.ConnState for connections from this set.
func (c *conns) setState(nc net.Conn, state http.ConnState) {
	k, ok := nc.(*conn)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, open := c.open[k]; !open {
		return // closed already, and no longer counted
	}
	k.state = state
	if state != http.StateNew {
		c.unqueue(k)
	}
	if state == http.StateActive {
		// A request is being served: the drain deadline no longer
		// applies to the reading of its body.
		_ = k.Conn.SetReadDeadline(k.readDeadline())
	}
	if k.idleTimer != nil {
		k.idleTimer.Stop()
		k.idleTimer = nil
	}
	if state != http.StateIdle {
		return
	}
	c.seq++
	k.idleSince = c.seq
	if !k.authenticated && c.preAuthIdle > 0 {
		since := k.idleSince
		k.idleTimer = time.AfterFunc(c.preAuthIdle, func() {
			c.mu.Lock()
			stillIdle := k.state == http.StateIdle && !k.authenticated && k.idleSince == since && k.reason == ""
			if stillIdle {
				k.reason = closedPreAuth
			}
			c.mu.Unlock()
			if stillIdle {
				_ = k.Close()
			}
		})
	}
	c.notify()
}

// drain gives every connection that carries no request until by to bring
// one (which is then answered, and the connection closed after it), and
// returns a channel closed once every connection has closed.
func (c *conns) drain(by time.Time) <-chan struct{} {
	c.mu.Lock()
	c.drainBy = by
	for k := range c.open {
		_ = k.Conn.SetReadDeadline(k.readDeadline())
	}
	c.mu.Unlock()
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		for {
			c.mu.Lock()
			n, changed := len(c.open), c.changed
			c.mu.Unlock()
			if n == 0 {
				return
			}
			<-changed
		}
	}()
	return gone
}

// connKey is the request-context key of the request's *conn.
type connKey struct{}

// connContext is http.Server.ConnContext: it makes a request's connection
// known to the front, which marks it authenticated.
func connContext(ctx context.Context, nc net.Conn) context.Context {
	if k, ok := nc.(*conn); ok {
		return context.WithValue(ctx, connKey{}, k)
	}
	return ctx
}

// markAuthenticated records that a request on this connection passed the
// token check: its idle time is then the server's idle timeout.
func markAuthenticated(ctx context.Context) {
	if k, ok := ctx.Value(connKey{}).(*conn); ok {
		k.owner.mu.Lock()
		k.authenticated = true
		k.owner.mu.Unlock()
	}
}

// markLeaving records that the request on this connection was refused
// and the connection closes after the answer: net/http keeps it a moment
// longer (so that the client reads the answer, not a reset), and it does
// not count against the cap meanwhile.
func markLeaving(ctx context.Context) {
	if k, ok := ctx.Value(connKey{}).(*conn); ok {
		k.owner.mu.Lock()
		if _, open := k.owner.open[k]; open && !k.leaving {
			k.leaving = true
			k.owner.leaving++
			k.owner.notify()
		}
		k.owner.mu.Unlock()
	}
}

// limitListener accepts connections only when conns has room for them.
type limitListener struct {
	net.Listener
	conns     *conns
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
}

func (l *limitListener) Accept() (net.Conn, error) {
	if !l.conns.room(l.done) {
		return nil, net.ErrClosed
	}
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	k := l.conns.add(nc)
	l.conns.crowd(k)
	return k, nil
}

// Close closes the listener once; Shutdown and net/http both may.
func (l *limitListener) Close() error {
	l.closeOnce.Do(func() {
		close(l.done)
		l.closeErr = l.Listener.Close()
	})
	return l.closeErr
}

// CloseWrite half-closes a TCP connection, as net/http does before it
// closes one whose request it refused unread: the client then reads the
// answer instead of a reset.
func (k *conn) CloseWrite() error {
	if cw, ok := k.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

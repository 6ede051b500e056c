package mcphttp

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// conns bounds the connections open at once and keeps idle ones from
// holding places that others need (http.Server.ConnState tells it each
// connection's state):
//
//   - At the cap, a new connection is let in by closing an idle one:
//     first one that never carried an authenticated request, then the one
//     idle longest. Only when none is idle does it wait (in the kernel's
//     backlog) for one to close or become idle.
//   - A connection whose requests have all been refused before the token
//     check passed waits for its next request only as long as a request's
//     headers may take (preAuthIdle), not the server's idle timeout.
type conns struct {
	max         int
	preAuthIdle time.Duration

	mu   sync.Mutex
	open map[*conn]struct{}
	// changed is closed, and replaced, whenever a connection closes or
	// becomes idle.
	changed chan struct{}
	// idles counts the times a connection became idle: the order in which
	// they did.
	idles uint64
}

// conn is one connection the server accepted.
type conn struct {
	net.Conn
	owner *conns
	once  sync.Once

	// Guarded by owner.mu.
	state         http.ConnState
	authenticated bool
	idleSince     uint64 // the value of idles when it last became idle
	idleTimer     *time.Timer
}

func newConns(max int, preAuthIdle time.Duration) *conns {
	return &conns{max: max, preAuthIdle: preAuthIdle, open: map[*conn]struct{}{}, changed: make(chan struct{})}
}

// notify wakes whoever waits for room; c.mu is held.
func (c *conns) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// room waits until a connection may be accepted, closing an idle one at
// the cap; false when done is closed first.
func (c *conns) room(done <-chan struct{}) bool {
	for {
		c.mu.Lock()
		if len(c.open) < c.max {
			c.mu.Unlock()
			return true
		}
		victim := c.idlest()
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

// idlest is the idle connection to close first, or nil; c.mu is held.
func (c *conns) idlest() *conn {
	var best *conn
	for k := range c.open {
		if k.state != http.StateIdle {
			continue
		}
		switch {
		case best == nil,
			!k.authenticated && best.authenticated,
			k.authenticated == best.authenticated && k.idleSince < best.idleSince:
			best = k
		}
	}
	return best
}

// add counts a connection just accepted.
func (c *conns) add(nc net.Conn) *conn {
	k := &conn{Conn: nc, owner: c, state: http.StateNew}
	c.mu.Lock()
	c.open[k] = struct{}{}
	c.mu.Unlock()
	return k
}

// Close closes the connection and gives its place back.
func (k *conn) Close() error {
	err := k.Conn.Close()
	k.once.Do(func() {
		c := k.owner
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.open, k)
		if k.idleTimer != nil {
			k.idleTimer.Stop()
		}
		c.notify()
	})
	return err
}

// setState is http.Server.ConnState for connections from this set.
func (c *conns) setState(nc net.Conn, state http.ConnState) {
	k, ok := nc.(*conn)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k.state = state
	if k.idleTimer != nil {
		k.idleTimer.Stop()
		k.idleTimer = nil
	}
	if state != http.StateIdle {
		return
	}
	c.idles++
	k.idleSince = c.idles
	if !k.authenticated && c.preAuthIdle > 0 {
		since := k.idleSince
		k.idleTimer = time.AfterFunc(c.preAuthIdle, func() {
			c.mu.Lock()
			stillIdle := k.state == http.StateIdle && !k.authenticated && k.idleSince == since
			c.mu.Unlock()
			if stillIdle {
				_ = k.Close()
			}
		})
	}
	c.notify()
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
	k, ok := ctx.Value(connKey{}).(*conn)
	if !ok {
		return
	}
	k.owner.mu.Lock()
	k.authenticated = true
	k.owner.mu.Unlock()
}

// limitListener accepts connections only when conns has room for them.
type limitListener struct {
	net.Listener
	conns     *conns
	done      chan struct{}
	closeOnce sync.Once
}

func (l *limitListener) Accept() (net.Conn, error) {
	if !l.conns.room(l.done) {
		return nil, net.ErrClosed
	}
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return l.conns.add(nc), nil
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
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

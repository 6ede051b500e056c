package mcphttp

import (
	"context"
	"sync"
	"time"
)

// places are the places in flight: at most capacity requests are served
// at once, and no one corpus and no one token holds more than share of
// them (the front counts corpora when it serves several, tokens when it
// knows several), so that neither can lock the others out with slow
// calls.
type places struct {
	capacity, share int

	mu   sync.Mutex
	held int
	// by counts the places each corpus and each token holds.
	by map[placeKey]int
	// freed is closed, and replaced, whenever a place is given back.
	freed chan struct{}
}

// placeKey names what a share is counted for: a corpus or a token.
type placeKey struct {
	token  bool
	corpus string
	digest [32]byte
}

// newPlaces makes capacity places, of which one corpus or token may hold
// three quarters (all of them when there is only one place).
func newPlaces(capacity int) *places {
	return &places{capacity: capacity, share: max(capacity-capacity/4, 1), by: map[placeKey]int{}, freed: make(chan struct{})}
}

// tryTake takes a place for keys if one is free and no key is at its
// share, and says whether it did.
func (p *places) tryTake(keys []placeKey) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held >= p.capacity {
		return false
	}
	for _, k := range keys {
		if p.by[k] >= p.share {
			return false
		}
	}
	p.held++
	for _, k := range keys {
		p.by[k]++
	}
	return true
}

// release gives back a place taken for keys.
func (p *places) release(keys []placeKey) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.held--
	for _, k := range keys {
		if p.by[k]--; p.by[k] == 0 {
			delete(p.by, k)
		}
	}
	close(p.freed)
	p.freed = make(chan struct{})
}

// changed is closed at the next release.
func (p *places) changed() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.freed
}

// take takes a place for keys, waiting up to wait for one (queued, when
// set, is called when it starts to wait); the caller must call the
// release returned when done.
func (p *places) take(ctx context.Context, keys []placeKey, wait time.Duration, queued func()) (release func(), ok bool) {
	release = func() { p.release(keys) }
	if p.tryTake(keys) {
		return release, true
	}
	if wait <= 0 {
		return nil, false
	}
	if queued != nil {
		queued()
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		changed := p.changed()
		if p.tryTake(keys) {
			return release, true
		}
		select {
		case <-changed:
		case <-timer.C:
			return nil, false
		case <-ctx.Done():
			return nil, false
		}
	}
}

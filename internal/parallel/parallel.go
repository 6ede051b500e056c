// Package parallel runs the per-record loops of a projection on every
// core: the reads and parses of the app, the lstat calls of the
// working-tree reader.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For runs fn(worker, i) for i in [0, n): in index order on the calling
// goroutine when n is below two workers' worth (minPerWorker items each:
// starting a goroutine costs about what it saves below that), else on
// one goroutine per usable core, the caller's among them, each taking the
// next index as it finishes one, so that a worker slow to be scheduled
// delays nothing. worker, in [0, GOMAXPROCS), tells the goroutines apart,
// for state of their own (a buffer). fn returning false stops further
// indexes from being started; those already started finish.
func For(n, minPerWorker int, fn func(worker, i int) bool) {
	workers := min(runtime.GOMAXPROCS(0), n/max(minPerWorker, 1))
	if workers <= 1 {
		for i := range n {
			if !fn(0, i) {
				return
			}
		}
		return
	}
	var next atomic.Int64
	var stop atomic.Bool
	work := func(w int) {
		for !stop.Load() {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			if !fn(w, i) {
				stop.Store(true)
			}
		}
	}
	var wg sync.WaitGroup
	for w := range workers - 1 {
		wg.Go(func() { work(w + 1) })
	}
	work(0)
	wg.Wait()
}

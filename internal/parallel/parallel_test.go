package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

func TestForVisitsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 32, 127, 128, 257, 320, 1000} {
		for _, minPer := range []int{0, 1, 32, 128} {
			seen := make([]int32, n)
			For(n, minPer, func(w, i int) bool {
				if w < 0 || w >= runtime.GOMAXPROCS(0) {
					t.Errorf("worker %d out of range", w)
				}
				atomic.AddInt32(&seen[i], 1)
				return true
			})
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("n=%d minPer=%d: index %d visited %d times", n, minPer, i, c)
				}
			}
		}
	}
}

// Stopping: nothing past the failing index is started once the
// sequential path stops, and the pool stops taking new work.
func TestForStops(t *testing.T) {
	var seq [20]bool
	For(len(seq), 32, func(_, i int) bool { seq[i] = true; return i != 10 })
	for i, v := range seq {
		if v != (i <= 10) {
			t.Fatalf("sequential: index %d ran %v", i, v)
		}
	}
	var visited [1000]atomic.Bool
	For(len(visited), 32, func(_, i int) bool { visited[i].Store(true); return i != 10 })
	if !visited[10].Load() {
		t.Fatal("index 10 never ran")
	}
	started := 0
	for i := range visited {
		if visited[i].Load() {
			started++
		}
	}
	if started == len(visited) {
		t.Errorf("a stop did not stop the pool (%d of %d started)", started, len(visited))
	}
}

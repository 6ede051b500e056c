package rusage

import (
	"errors"
	"os"
	"runtime"
	"testing"
	"time"
)

// TestPeakRSSCoversWhatWasTouched touches 64 MiB and checks this
// process's peak covers it.
func TestPeakRSSCoversWhatWasTouched(t *testing.T) {
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = 1
	}
	got, err := PeakRSS(os.Getpid())
	runtime.KeepAlive(b)
	if errors.Is(err, ErrUnsupported) {
		t.Skipf("no /proc on %s", runtime.GOOS)
	}
	if err != nil {
		t.Fatal(err)
	}
	if got < 64<<20 || got > 4<<30 {
		t.Errorf("PeakRSS = %d bytes, want at least the 64 MiB touched and less than 4 GiB", got)
	}
}

// TestCPUCountsWork spins for 50 ms of CPU and checks the count moved.
func TestCPUCountsWork(t *testing.T) {
	before, err := CPU(os.Getpid())
	if errors.Is(err, ErrUnsupported) {
		t.Skipf("no /proc on %s", runtime.GOOS)
	}
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		x++
	}
	after, err := CPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if after < before || after-before > 10*time.Second {
		t.Errorf("CPU went from %v to %v over 50 ms of spinning (%d)", before, after, x)
	}
}

func TestNoSuchProcess(t *testing.T) {
	if _, err := PeakRSS(-1); err == nil {
		t.Error("PeakRSS(-1) succeeded")
	}
}

package rusage

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// TestMaxRSSOfAChild runs this test binary again as a child that
// allocates and touches 64 MiB, and checks the peak reported covers it.
func TestMaxRSSOfAChild(t *testing.T) {
	if os.Getenv("RUSAGE_CHILD") == "1" {
		b := make([]byte, 64<<20)
		for i := range b {
			b[i] = 1
		}
		runtime.KeepAlive(b)
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^TestMaxRSSOfAChild$")
	cmd.Env = append(os.Environ(), "RUSAGE_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	got := MaxRSS(cmd.ProcessState)
	if runtime.GOOS == "windows" {
		if got != 0 {
			t.Errorf("MaxRSS = %d on Windows, want 0 (unknown)", got)
		}
		return
	}
	if got < 64<<20 || got > 4<<30 {
		t.Errorf("MaxRSS = %d bytes, want at least the 64 MiB touched and less than 4 GiB", got)
	}
}

func TestMaxRSSOfNothing(t *testing.T) {
	if got := MaxRSS(nil); got != 0 {
		t.Errorf("MaxRSS(nil) = %d", got)
	}
}

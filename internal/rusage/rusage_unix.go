//go:build unix

package rusage

import (
	"os"
	"runtime"
	"syscall"
)

func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	// getrusage(2) counts ru_maxrss in bytes on macOS and in kilobytes
	// elsewhere.
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}

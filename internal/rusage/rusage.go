// Package rusage reads what the system says of a running process: its
// peak resident set and the CPU time it has used. Both are read while the
// process runs (from /proc on Linux): once it is reaped they are gone,
// and wait4's ru_maxrss, the alternative, counts the parent's memory at
// the fork in the child's peak.
package rusage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// ErrUnsupported is returned where the system keeps no /proc to read.
var ErrUnsupported = errors.ErrUnsupported

// PeakRSS is the peak resident set size of the running process pid so
// far, in bytes (VmHWM in /proc/<pid>/status).
func PeakRSS(pid int) (int64, error) {
	b, err := read(pid, "status")
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				return kb << 10, err
			}
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
}

// CPU is the CPU time the running process pid has used so far, user and
// system (utime and stime in /proc/<pid>/stat, in clock ticks of 10 ms:
// USER_HZ is 100 on Linux).
func CPU(pid int) (time.Duration, error) {
	b, err := read(pid, "stat")
	if err != nil {
		return 0, err
	}
	// The command name, in parentheses, may hold spaces: fields count
	// from after it (utime and stime are fields 14 and 15).
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}

func read(pid int, name string) ([]byte, error) {
	if runtime.GOOS != "linux" && runtime.GOOS != "android" {
		return nil, ErrUnsupported
	}
	return os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, name))
}

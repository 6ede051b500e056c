// Package rusage reads what the system accounted to a process that has
// ended.
package rusage

import "os"

// MaxRSS is the peak resident set size of the ended process ps, in
// bytes, or 0 where the system does not say.
func MaxRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	return maxRSS(ps)
}

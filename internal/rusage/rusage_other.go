//go:build !unix

package rusage

import "os"

// maxRSS is unknown here: Windows keeps a process's peak working set in
// counters that end with its handle, which os.ProcessState does not keep.
func maxRSS(*os.ProcessState) int64 { return 0 }

package markers

import (
	"path"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// Bounds of a batch of files, as one check run reads them.
const (
	// BatchFileCap is the number of distinct files one batch reads; the
	// rest are reported as skipped, never silently dropped. It is the
	// ceiling of GitHub's list of a pull request's files, so a pull
	// request's files are always all read.
	BatchFileCap = 3000
	// BatchCap is the number of declarations one batch keeps, in path
	// then source order.
	BatchCap = 10000
)

// State says whether a file's head was read, and why not.
type State string

// The states of a file scan. Only Scanned means the file was looked at:
// "no markers" and "could not look" must never read alike.
const (
	// Scanned: the file was read (its first WindowBytes bytes).
	Scanned State = "scanned"
	// Absent: there is no file at the path.
	Absent State = "absent"
	// Unreadable: the path is not a regular file reached without a
	// symbolic link (a directory, a FIFO, a link anywhere on the way), or
	// it could not be opened or read.
	Unreadable State = "unreadable"
	// OutOfTree: the path is not a repository-relative path inside the
	// working tree, so nothing was opened.
	OutOfTree State = "out-of-tree"
	// Skipped: the batch had more than BatchFileCap files and this one
	// was past the cap.
	Skipped State = "skipped"
)

// Head is what a reader got from one file: its state and, when Scanned,
// its first bytes (at most WindowBytes of them) and whether it is longer.
// FileBytes is the file's size when the reader knows it (-1 otherwise).
type Head struct {
	State     State
	Data      []byte
	Truncated bool
	FileBytes int64
}

// FileScan is one file of a batch: its path, its state, and what its
// head declares when it was scanned.
type FileScan struct {
	Path  string
	State State
	Scan
	// FileBytes is the file's size in bytes when it was scanned and the
	// reader knows it; -1 otherwise.
	FileBytes int64
}

// ScanFile scans the head a reader returned for path.
func ScanFile(path string, h Head) FileScan {
	fs := FileScan{Path: path, State: h.State, FileBytes: -1}
	if h.State == Scanned {
		fs.Scan = ScanHead(path, h.Data, h.Truncated)
		fs.FileBytes = h.FileBytes
	}
	return fs
}

// NormalizePath is the form of a path a scan reports: leading "./"
// segments dropped. Nothing else is rewritten; on POSIX a backslash is
// part of a file name, not a separator.
func NormalizePath(p string) string {
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

// Select normalises paths, drops repeats and sorts them (UTF-16 code
// units), then splits them at BatchFileCap: the files to read, and those
// left out.
func Select(paths []string) (read, skipped []string) {
	all := make([]string, len(paths))
	for i, p := range paths {
		all[i] = NormalizePath(p)
	}
	slices.SortFunc(all, jsstring.Compare)
	all = slices.Compact(all)
	if len(all) > BatchFileCap {
		return all[:BatchFileCap], all[BatchFileCap:]
	}
	return all, nil
}

// CapBatch keeps at most BatchCap declarations across scans (sorted by
// path, as Select sorts them), in path then source order, and returns how
// many it dropped.
func CapBatch(scans []FileScan) int {
	kept, dropped := 0, 0
	for i := range scans {
		d := scans[i].Declarations
		room := BatchCap - kept
		if len(d) > room {
			dropped += len(d) - room
			scans[i].Declarations = d[:room]
		}
		kept += len(scans[i].Declarations)
	}
	return dropped
}

// Declarations lists every kept declaration of scans, in order.
func Declarations(scans []FileScan) []Declaration {
	var out []Declaration
	for _, s := range scans {
		out = append(out, s.Declarations...)
	}
	return out
}

// InTree returns the clean form of a repository-relative path and true,
// or false when the path is not one: absolute, the root itself, or
// climbing above it. The test is lexical, before anything is opened, so
// that a path leaving the tree is refused without revealing whether the
// file it names exists.
func InTree(p string) (string, bool) {
	if p == "" || strings.HasPrefix(p, "/") {
		return "", false
	}
	c := path.Clean(p)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	return c, true
}

// InTreeOn is InTree for a path written the way the system goos (a
// runtime.GOOS value) writes paths on its command line. On "windows" a
// backslash separates as "/" does, and a path with a drive ("C:\x", and
// "C:x", relative to that drive's own directory) is not inside the tree,
// nor is one rooted at a backslash (a share, "\\host\share\x"); a
// reader that took such a path as written would hand the system a
// separator or a volume inside one name. Everywhere else a backslash and
// a colon are parts of a name, and InTreeOn is InTree.
func InTreeOn(goos, p string) (string, bool) {
	if goos != "windows" {
		return InTree(p)
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if len(p) >= 2 && p[1] == ':' && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z') {
		return "", false
	}
	return InTree(p)
}

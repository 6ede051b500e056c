// Package headtest is the conformance suite every ports.FileHeadReader
// must pass: an implementation's tests materialise a small repository in
// their kind of source and Run checks the failure policy ports/source.go
// states against it (states, never errors; no link followed; the window
// bound; lexical refusal of paths outside the tree). Paths are read as
// this system writes them (markers.InTreeOn), so the cases for a
// backslash and a drive are chosen by runtime.GOOS.
package headtest

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/ports"
)

// Kind is what an entry of a fixture is.
type Kind int

// Entry kinds.
const (
	File Kind = iota
	// Symlink needs Symlinks.
	Symlink
	// FIFO needs SpecialFiles.
	FIFO
)

// Entry is one thing a fixture puts in the repository.
type Entry struct {
	// Path is repository-relative, "/"-separated; directories on the way
	// are made as needed.
	Path    string
	Kind    Kind
	Content string
	// Target of a symlink, relative to the directory holding it.
	Target string
}

// Harness builds fixtures in the source under test.
type Harness interface {
	// SpecialFiles says the source can hold a FIFO.
	SpecialFiles() bool
	// Symlinks says the source can hold a symbolic link: a git tree
	// always, a working tree wherever this account may make one.
	Symlinks() bool
	// MakeReader materialises entries as a fresh repository and returns a
	// reader of it. It fails t if it cannot.
	MakeReader(t *testing.T, entries []Entry) ports.FileHeadReader
}

var (
	small  = "// @adr 0012\nexport const sync = true;\n"
	exact  = strings.Repeat("x", markers.WindowBytes-1) + "\n"
	larger = strings.Repeat("y", markers.WindowBytes+500)
)

// windows says whether paths are read the Windows way here.
var windows = runtime.GOOS == "windows"

// fixture is what every case reads from.
func fixture(h Harness) []Entry {
	es := []Entry{
		{Path: "src/sync.ts", Content: small},
		{Path: "src/exact.ts", Content: exact},
		{Path: "src/large.ts", Content: larger},
		{Path: "src/empty.ts", Content: ""},
		{Path: "src/we/ird.ts", Content: "// @adr 0013\n"},
		{Path: "src/deep/er/file.go", Content: "// @adr 0014\n"},
	}
	if !windows {
		// A name no Windows file can have.
		es = append(es, Entry{Path: `src/we\ird.ts`, Content: "plain\n"})
	}
	if h.Symlinks() {
		es = append(es,
			Entry{Path: "src/alias.ts", Kind: Symlink, Target: "sync.ts"},
			Entry{Path: "src/broken.ts", Kind: Symlink, Target: "missing.ts"},
			Entry{Path: "src/out.ts", Kind: Symlink, Target: "../../outside.ts"},
			Entry{Path: "linked", Kind: Symlink, Target: "src"},
		)
	}
	if h.SpecialFiles() {
		es = append(es, Entry{Path: "src/pipe.ts", Kind: FIFO})
	}
	return es
}

// readCase is one read and its answer.
type readCase struct {
	path      string
	state     markers.State
	data      string
	truncated bool
	size      int64
}

// Run checks the reader h builds.
func Run(t *testing.T, h Harness) {
	r := h.MakeReader(t, fixture(h))
	ctx := context.Background()
	cases := []readCase{
		{"src/sync.ts", markers.Scanned, small, false, int64(len(small))},
		{"./src/sync.ts", markers.Scanned, small, false, int64(len(small))},
		{"src/./sync.ts", markers.Scanned, small, false, int64(len(small))},
		{"src//sync.ts", markers.Scanned, small, false, int64(len(small))},
		{"src/deep/er/file.go", markers.Scanned, "// @adr 0014\n", false, 13},
		{"src/exact.ts", markers.Scanned, exact, false, markers.WindowBytes},
		{"src/large.ts", markers.Scanned, larger[:markers.WindowBytes], true, int64(len(larger))},
		{"src/empty.ts", markers.Scanned, "", false, 0},
		{"src/missing.ts", markers.Absent, "", false, -1},
		{"nowhere/missing.ts", markers.Absent, "", false, -1},
		{"src/sync.ts/child", markers.Absent, "", false, -1},
		{"src", markers.Unreadable, "", false, -1},
		{"src/deep", markers.Unreadable, "", false, -1},
		// Refused lexically, whether or not the file exists.
		{"../outside.ts", markers.OutOfTree, "", false, -1},
		{"src/../../outside.ts", markers.OutOfTree, "", false, -1},
		{"/etc/hostname", markers.OutOfTree, "", false, -1},
		{"", markers.OutOfTree, "", false, -1},
		{".", markers.OutOfTree, "", false, -1},
		{"src/..", markers.OutOfTree, "", false, -1},
	}
	if windows {
		// A backslash separates, and a drive makes a path absolute.
		cases = append(cases,
			readCase{`src/we\ird.ts`, markers.Scanned, "// @adr 0013\n", false, 13},
			readCase{`src\deep\er\file.go`, markers.Scanned, "// @adr 0014\n", false, 13},
			readCase{`.\src\sync.ts`, markers.Scanned, small, false, int64(len(small))},
			readCase{`src\..\..\outside.ts`, markers.OutOfTree, "", false, -1},
			readCase{`..\outside.ts`, markers.OutOfTree, "", false, -1},
			readCase{`\outside.ts`, markers.OutOfTree, "", false, -1},
			readCase{`C:\Windows\win.ini`, markers.OutOfTree, "", false, -1},
			readCase{"C:/Windows/win.ini", markers.OutOfTree, "", false, -1},
			readCase{"C:src/sync.ts", markers.OutOfTree, "", false, -1},
			readCase{`\\localhost\C$\Windows\win.ini`, markers.OutOfTree, "", false, -1},
		)
	} else {
		cases = append(cases,
			// A backslash is part of a name: this is not src/we/ird.ts.
			readCase{`src/we\ird.ts`, markers.Scanned, "plain\n", false, 6},
			readCase{`src\deep\er\file.go`, markers.Absent, "", false, -1},
			readCase{"C:src/sync.ts", markers.Absent, "", false, -1},
		)
	}
	if h.Symlinks() {
		// Every link is refused alike, wherever it points.
		cases = append(cases,
			readCase{"src/alias.ts", markers.Unreadable, "", false, -1},
			readCase{"src/broken.ts", markers.Unreadable, "", false, -1},
			readCase{"src/out.ts", markers.Unreadable, "", false, -1},
			readCase{"linked/sync.ts", markers.Unreadable, "", false, -1},
			readCase{"linked/missing.ts", markers.Unreadable, "", false, -1},
		)
		if windows {
			cases = append(cases, readCase{`linked\sync.ts`, markers.Unreadable, "", false, -1})
		}
	}
	if h.SpecialFiles() {
		cases = append(cases, readCase{"src/pipe.ts", markers.Unreadable, "", false, -1})
	}
	for _, tc := range cases {
		got, err := r.ReadHead(ctx, tc.path)
		if err != nil {
			t.Errorf("%q: error %v; only a cancelled context is an error", tc.path, err)
			continue
		}
		if got.State != tc.state || !bytes.Equal(got.Data, []byte(tc.data)) || got.Truncated != tc.truncated || got.FileBytes != tc.size {
			t.Errorf("%q: state %s, %d bytes, truncated %v, size %d; want %s, %d bytes, %v, %d",
				tc.path, got.State, len(got.Data), got.Truncated, got.FileBytes, tc.state, len(tc.data), tc.truncated, tc.size)
		}
		if len(got.Data) > markers.WindowBytes {
			t.Errorf("%q: %d bytes returned, more than the window", tc.path, len(got.Data))
		}
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := r.ReadHead(cancelled, "src/sync.ts"); err == nil {
		t.Error("a cancelled context is not reported")
	}
}

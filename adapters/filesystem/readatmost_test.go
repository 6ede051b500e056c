package filesystem

import (
	"errors"
	"io"
	"testing"
)

// chunked hands out its chunks one Read at a time, each cut to the
// caller's buffer (the rest waits for the next Read), so short reads
// happen where the table says, which a regular file never lets a test
// arrange. It counts the bytes it handed out.
type chunked struct {
	chunks  []string
	eofWith bool // the last chunk comes with io.EOF, as some readers do
	failAt  int  // 1-based Read that fails; 0 for none
	reads   int
	handed  int
}

var errRead = errors.New("read failed")

func (c *chunked) Read(p []byte) (int, error) {
	c.reads++
	if c.reads == c.failAt {
		return 0, errRead
	}
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	c.handed += n
	if n < len(c.chunks[0]) {
		c.chunks[0] = c.chunks[0][n:]
		return n, nil
	}
	c.chunks = c.chunks[1:]
	if c.eofWith && len(c.chunks) == 0 {
		return n, io.EOF
	}
	return n, nil
}

func TestReadAtMost(t *testing.T) {
	tests := []struct {
		name    string
		chunks  []string
		eofWith bool
		failAt  int
		size    int64 // what fstat said
		limit   int64
		want    string
		wantErr error
		// wantReads is how many Reads it takes (0: not checked).
		wantReads int
	}{
		{name: "one read, short at the size: no confirming read", chunks: []string{"abc", "def"}, size: 3, limit: 100, want: "abc", wantReads: 1},
		{name: "short before the size: reading goes on", chunks: []string{"abc", "def"}, size: 6, limit: 100, want: "abcdef"},
		{name: "short past the size (it grew): reading goes on to the end", chunks: []string{"abcd", "ef"}, size: 3, limit: 100, want: "abcdef"},
		{name: "unknown size: read to the end", chunks: []string{"ab", "cd"}, size: -1, limit: 100, want: "abcd"},
		{name: "empty file", size: 0, limit: 100, want: ""},
		{name: "end of file with the last bytes", chunks: []string{"ab", "cd"}, eofWith: true, size: 9, limit: 100, want: "abcd"},
		{name: "grew past the limit after the fstat: one byte past it, no more", chunks: []string{"abc", "de", "fgh"}, size: 2, limit: 4, want: "abcde"},
		{name: "one byte past the limit across reads", chunks: []string{"ab", "cd", "e", "fg"}, size: 8, limit: 4, want: "abcde"},
		{name: "a file far past the limit: limit+1 bytes, no more", chunks: []string{string(make([]byte, 200<<10))}, size: -1, limit: 64 << 10, want: string(make([]byte, 64<<10+1))},
		{name: "a failing read fails", chunks: []string{"ab", "cd"}, failAt: 2, size: 9, limit: 100, wantErr: errRead},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &chunked{chunks: tc.chunks, eofWith: tc.eofWith, failAt: tc.failAt}
			got, err := readAtMost(r, tc.size, tc.limit, nil)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("readAtMost: error %v, want %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if string(got) != tc.want {
				t.Errorf("readAtMost = %q, want %q", got, tc.want)
			}
			if int64(r.handed) > tc.limit+1 {
				t.Errorf("%d bytes read, more than limit+1 = %d", r.handed, tc.limit+1)
			}
			if tc.wantReads != 0 && r.reads != tc.wantReads {
				t.Errorf("%d reads, want %d", r.reads, tc.wantReads)
			}
		})
	}
}

// TestReadAtMostReusesBuf: a buffer with room is the one filled.
func TestReadAtMostReusesBuf(t *testing.T) {
	buf := make([]byte, 0, 16)
	got, err := readAtMost(&chunked{chunks: []string{"abc"}}, 3, 100, buf)
	if err != nil || string(got) != "abc" {
		t.Fatalf("readAtMost = %q, %v", got, err)
	}
	if &got[:1][0] != &buf[:1][0] {
		t.Error("the result does not alias the buffer given")
	}
}

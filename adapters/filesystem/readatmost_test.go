package filesystem

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestReadAtMost drives readAtMost over a SOCK_SEQPACKET pair, where every
// read returns exactly one written message: short reads happen where the
// table says, which a regular file never lets a test arrange.
func TestReadAtMost(t *testing.T) {
	tests := []struct {
		name     string
		messages []string
		size     int64 // what fstat said
		limit    int64
		want     string
	}{
		{"one read, short at the size: no confirming read", []string{"abc", "def"}, 3, 100, "abc"},
		{"short before the size: reading goes on", []string{"abc", "def"}, 6, 100, "abcdef"},
		{"short past the size (it grew): reading goes on to the end", []string{"abcd", "ef"}, 3, 100, "abcdef"},
		{"unknown size: read to the end", []string{"ab", "cd"}, -1, 100, "abcd"},
		{"empty file", nil, 0, 100, ""},
		// A datagram longer than the read is cut short by the socket, so
		// each message fits the read that takes it.
		{"grew past the limit after the fstat: one byte past it, no more", []string{"abc", "de", "fgh"}, 2, 4, "abcde"},
		{"one byte past the limit across reads", []string{"ab", "cd", "e", "fg"}, 8, 4, "abcde"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
			if err != nil {
				t.Skipf("no SOCK_SEQPACKET here: %v", err)
			}
			r, w := fds[0], fds[1]
			defer unix.Close(r)
			for _, m := range tc.messages {
				if _, err := unix.Write(w, []byte(m)); err != nil {
					t.Fatal(err)
				}
			}
			unix.Close(w) // end of input once the messages are read
			got, err := readAtMost(r, tc.size, tc.limit, nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("readAtMost = %q, want %q", got, tc.want)
			}
		})
	}
}

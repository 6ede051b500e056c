package loopback_test

import (
	"testing"

	"github.com/adrkit/adrkit-go/internal/loopback"
)

func TestHost(t *testing.T) {
	cases := []struct {
		header string
		want   bool
	}{
		{"localhost", true},
		{"LOCALHOST:8000", true},
		{"localhost.:80", true},
		{"127.0.0.1:8000", true},
		{"127.9.9.9", true},
		{"[::1]:8000", true},
		{"[::ffff:127.0.0.1]:1", true},
		{"::1", true},
		{"evil.example", false},
		{"evil.example:8000", false},
		{"localhost.evil.example", false},
		{"10.0.0.1:8000", false},
		{"0.0.0.0:8000", false},
		{"", false},
	}
	for _, tc := range cases {
		if got := loopback.Host(tc.header); got != tc.want {
			t.Errorf("Host(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
}

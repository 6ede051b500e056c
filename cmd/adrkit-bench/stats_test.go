package main

import (
	"math"
	"testing"
	"time"
)

func TestDistOf(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	tests := []struct {
		in   []time.Duration
		want Dist
	}{
		{nil, Dist{}},
		{ms(5), Dist{Median: 5, P90: 5, Min: 5, Max: 5, N: 1}},
		{ms(4, 1, 3, 2), Dist{Median: 2.5, P90: 4, Min: 1, Max: 4, N: 4}},
		{ms(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), Dist{Median: 5.5, P90: 9, Min: 1, Max: 10, N: 10}},
		{ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), Dist{Median: 6, P90: 10, Min: 1, Max: 11, N: 11}},
	}
	for _, tc := range tests {
		if got := distOf(tc.in); got != tc.want {
			t.Errorf("distOf(%v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestSlope(t *testing.T) {
	if s := slope(100, 1000, 2, 20); math.Abs(s-1) > 1e-9 {
		t.Errorf("linear slope = %v", s)
	}
	if s := slope(100, 1000, 2, 200); math.Abs(s-2) > 1e-9 {
		t.Errorf("quadratic slope = %v", s)
	}
	if s := slope(100, 1000, 0, 2); !math.IsNaN(s) {
		t.Errorf("slope from zero = %v", s)
	}
}

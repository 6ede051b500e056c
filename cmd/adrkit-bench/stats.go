package main

import (
	"math"
	"slices"
	"time"
)

// Dist summarises one series of timings, in milliseconds.
type Dist struct {
	Median float64 `json:"medianMs"`
	P90    float64 `json:"p90Ms"`
	Min    float64 `json:"minMs"`
	Max    float64 `json:"maxMs"`
	N      int     `json:"samples"`
}

// distOf summarises samples. Percentiles use the nearest-rank method, so
// every reported figure is a time that was actually measured (the median
// of an even count is the mean of the two middle ones).
func distOf(samples []time.Duration) Dist {
	if len(samples) == 0 {
		return Dist{}
	}
	ms := make([]float64, len(samples))
	for i, d := range samples {
		ms[i] = float64(d) / float64(time.Millisecond)
	}
	slices.Sort(ms)
	n := len(ms)
	med := ms[n/2]
	if n%2 == 0 {
		med = (ms[n/2-1] + ms[n/2]) / 2
	}
	p90 := ms[max(0, int(math.Ceil(0.9*float64(n)))-1)]
	return Dist{Median: med, P90: p90, Min: ms[0], Max: ms[n-1], N: n}
}

// slope is the log-log slope of t between sizes a and b: 1 is linear
// growth, 0 constant, 2 quadratic.
func slope(na, nb int, ta, tb float64) float64 {
	if ta <= 0 || tb <= 0 || na <= 0 || nb <= 0 || na == nb {
		return math.NaN()
	}
	return math.Log(tb/ta) / math.Log(float64(nb)/float64(na))
}

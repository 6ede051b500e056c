package entry

import "testing"

func TestGCPercentFor(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, 100},
		{1 << 20, 100},
		{gcHeadroom, 100},
		{2 * gcHeadroom, 50},
		{4 * gcHeadroom, 25},
		{30 << 20, 13},
		{100 << 20, gcMinPercent},
		{1 << 40, gcMinPercent},
	} {
		if got := gcPercentFor(tc.live); got != tc.want {
			t.Errorf("gcPercentFor(%d) = %d, want %d", tc.live, got, tc.want)
		}
	}
}

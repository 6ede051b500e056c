package corpustest_test

import (
	"testing"

	"github.com/adrkit/adrkit-go/ports/corpustest"
)

func TestFeatureString(t *testing.T) {
	tests := []struct {
		f    corpustest.Feature
		want string
	}{
		{0, "no features"},
		{corpustest.SpecialFiles, "special files (FIFOs)"},
		{corpustest.Symlinks | corpustest.SymlinkedDir, "symlink entries, a symlinked ADR directory"},
	}
	for _, tc := range tests {
		if got := tc.f.String(); got != tc.want {
			t.Errorf("Feature(%d).String() = %q, want %q", tc.f, got, tc.want)
		}
	}
}

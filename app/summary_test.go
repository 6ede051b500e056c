package app

import (
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// The expected lines are the reference's, character for character
// (mcp-server.md §2.3 and the recorded conformance answers).
func TestSummaryLines(t *testing.T) {
	tests := []struct{ got, want string }{
		{summaryResults(0, 0), "Returned 0 decision results; 0 findings on this page."},
		{summaryResults(1, 0), "Returned 1 decision result; 0 findings on this page."},
		{summaryResults(4, 0), "Returned 4 decision results; 0 findings on this page."},
		{summaryResults(7, 4), "Returned 7 decision results; 4 findings on this page."},
		{summaryResults(2, 1), "Returned 2 decision results; 1 finding on this page."},
		{summaryFound("0001", 0), `Found decision "0001"; 0 findings on this page.`},
		{summaryFound("0032", 1), `Found decision "0032"; 1 finding on this page.`},
		{summaryFound("0015", 4), `Found decision "0015"; 4 findings on this page.`},
		{summaryNotFound("9999", 0), `No local decision matches "9999"; 0 findings on this page.`},
		{summaryNotFound("0030", 1), `No local decision matches "0030"; 1 finding on this page.`},
		{summaryAmbiguous("0010", 2, 4), `Returned 2 candidates for ambiguous local ref "0010"; 4 findings on this page.`},
		{summaryAmbiguous("0010", 1, 4), `Returned 1 candidate for ambiguous local ref "0010"; 4 findings on this page.`},
		{summaryFederated("payments:0001", 0), `Named-log federation is unavailable for "payments:0001"; 0 findings on this page.`},
		{summaryMatches(1, 2, 3, 0), "Returned 6 context matches: 1 governing, 2 active proposals, 3 historical; 0 findings on this page."},
		{summaryMatches(0, 0, 0, 0), "Returned 0 context matches: 0 governing, 0 active proposals, 0 historical; 0 findings on this page."},
		{summaryMatches(1, 1, 0, 2), "Returned 2 context matches: 1 governing, 1 active proposal, 0 historical; 2 findings on this page."},
		{summaryMatches(0, 1, 0, 11), "Returned 1 context match: 0 governing, 1 active proposal, 0 historical; 11 findings on this page."},
		{summaryMatches(0, 0, 1, 1), "Returned 1 context match: 0 governing, 0 active proposals, 1 historical; 1 finding on this page."},
		{summaryEntries(1, 0), "Returned 1 superseded decision entry; 0 findings on this page."},
		{summaryEntries(4, 6), "Returned 4 superseded decision entries; 6 findings on this page."},
		{summaryEntries(4, 1), "Returned 4 superseded decision entries; 1 finding on this page."},
		{summaryEntries(0, 1), "Returned 0 superseded decision entries; 1 finding on this page."},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got  %q\nwant %q", tc.got, tc.want)
		}
	}
}

// The cap is in UTF-16 units and never splits a surrogate pair. Refs are
// at most 128 units, so only a hand-built call can reach it.
func TestSummaryCap(t *testing.T) {
	long := strings.Repeat("😀", 300)
	got := summaryNotFound(long, 0)
	if n := jsstring.Len(got); n > maxSummaryLen || n < maxSummaryLen-1 {
		t.Fatalf("capped length = %d", n)
	}
	if !strings.HasPrefix(got, `No local decision matches "😀`) {
		t.Fatalf("capped line lost its start: %q", got[:40])
	}
}

package app

import (
	"fmt"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// maxSummaryLen caps a summary line, in UTF-16 code units.
const maxSummaryLen = 512

// The summary lines are contract text (mcp-server.md §2.3): agents read
// them, so every word, plural and punctuation mark matters. Counts are of
// the page being returned, never totals.

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func findingsTail(f int) string {
	return fmt.Sprintf("%d %s on this page.", f, plural(f, "finding", "findings"))
}

func capSummary(s string) string { return jsstring.Truncate(s, maxSummaryLen) }

func summaryResults(n, f int) string {
	return capSummary(fmt.Sprintf("Returned %d decision %s; %s", n, plural(n, "result", "results"), findingsTail(f)))
}

func summaryFound(id string, f int) string {
	return capSummary(fmt.Sprintf("Found decision \"%s\"; %s", id, findingsTail(f)))
}

func summaryNotFound(ref string, f int) string {
	return capSummary(fmt.Sprintf("No local decision matches \"%s\"; %s", ref, findingsTail(f)))
}

func summaryAmbiguous(ref string, n, f int) string {
	return capSummary(fmt.Sprintf("Returned %d %s for ambiguous local ref \"%s\"; %s",
		n, plural(n, "candidate", "candidates"), ref, findingsTail(f)))
}

func summaryFederated(ref string, f int) string {
	return capSummary(fmt.Sprintf("Named-log federation is unavailable for \"%s\"; %s", ref, findingsTail(f)))
}

func summaryMatches(g, a, h, f int) string {
	total := g + a + h
	return capSummary(fmt.Sprintf("Returned %d context %s: %d governing, %d active %s, %d historical; %s",
		total, plural(total, "match", "matches"), g, a, plural(a, "proposal", "proposals"), h, findingsTail(f)))
}

func summaryEntries(n, f int) string {
	return capSummary(fmt.Sprintf("Returned %d superseded decision %s; %s", n, plural(n, "entry", "entries"), findingsTail(f)))
}

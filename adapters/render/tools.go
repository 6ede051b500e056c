package render

import (
	"strings"

	"github.com/adrkit/adrkit-go/app"
)

// RefusalDetail is the part of a refused call's text a person needs: the
// app words every refusal "Input validation error: Invalid arguments for
// tool <name>: <detail>" for MCP clients; on the command line the detail
// alone says what is wrong.
func RefusalDetail(tool, text string) string {
	if d, ok := strings.CutPrefix(text, "Input validation error: Invalid arguments for tool "+tool+": "); ok {
		return d
	}
	return text
}

// OutcomeStatus is the exit status a tool outcome calls for, so that
// scripts can test for it: 1 when the ref names no single local record
// (not found, ambiguous, another log's) and when a supersession chain is
// on hold (adrkit chain 0003 && deploy); 0 for every other answer.
func OutcomeStatus(result app.Outcome) int {
	switch r := result.(type) {
	case app.NotFound, app.Ambiguous, app.AmbiguousChain, app.Federated:
		return 1
	case app.ChainAnswer:
		if _, current := r.Verdict.(app.ChainCurrent); !current {
			return 1
		}
	case app.AskAnswer:
		if r.Outcome != app.AskFound {
			return 1
		}
	case app.Matches:
		if r.Withheld {
			return 1
		}
	}
	return 0
}

package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
)

// commentReport is a check report with n changed files, each governed by
// two decisions, one record the change broke and a finding per file.
func commentReport(n int) *app.CheckReport {
	rep := &app.CheckReport{}
	rep.Findings = append(rep.Findings, app.CheckFinding{Cause: app.CauseBroken, Fails: true, Finding: adr.Finding{
		Rule: "dangling-supersedes", Severity: adr.SeverityError, Path: "docs/adr/0002-b.md", ID: "0002",
		Field: "supersedes", Message: "supersedes names 0001, which this change removed"}})
	for i := range n {
		path := fmt.Sprintf("services/svc%04d/a|b`c.go", i)
		e := app.ContextEntry{ID: "0001", Title: "Use *PostgreSQL* | [x](y)", Status: adr.StatusAccepted,
			FiredMatchers: []app.FiredMatcher{{Type: "path", Pattern: "services/**"}}}
		p := app.ContextEntry{ID: "0003", Title: "Try gRPC", Status: adr.StatusProposed,
			DeclaredBy: []app.Declared{{Path: app.Text(path), Line: 2}}}
		rep.Files = append(rep.Files, app.CheckFile{Path: path, Governing: []app.ContextEntry{e}, ActiveProposals: []app.ContextEntry{p}})
		rep.Findings = append(rep.Findings, app.CheckFinding{Cause: app.CauseMarker, Finding: adr.Finding{
			Rule: "stale-marker", Severity: adr.SeverityWarn, Path: path, Message: "stale"}})
	}
	return rep
}

// wellFormed checks every table of a comment: a header, a delimiter row
// and rows, each a whole line between pipes with the header's number of
// cells.
func wellFormed(t *testing.T, body string) {
	t.Helper()
	lines := strings.Split(body, "\n")
	cells := func(l string) int { return strings.Count(strings.ReplaceAll(l, `\|`, ""), "|") }
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "|") {
			continue
		}
		want := cells(lines[i])
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "|---") {
			t.Fatalf("line %d: a table without its delimiter row: %q", i+1, lines[i])
		}
		for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
			if !strings.HasSuffix(lines[i], " |") && !strings.HasSuffix(lines[i], "---|") || cells(lines[i]) != want {
				t.Fatalf("line %d: a cut or malformed table row: %q", i+1, lines[i])
			}
		}
	}
}

func TestCheckComment(t *testing.T) {
	opts := CheckOptions{FailOn: FailOnError}
	for _, tc := range []struct {
		name      string
		files     int
		limit     int
		shortened bool
	}{
		{"small", 3, MaxCommentLen, false},
		{"shortened inside the files table", 2000, MaxCommentLen, true},
		{"shortened before the files table", 5, 1200, true},
		{"exactly what fits", 40, len(CheckComment(commentReport(40), opts, MaxCommentLen)) + commentNoteRoom, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckComment(commentReport(tc.files), opts, tc.limit)
			if len(got) > tc.limit {
				t.Errorf("%d bytes, over the limit of %d", len(got), tc.limit)
			}
			if !strings.HasPrefix(got, CommentMarker+"\n") {
				t.Errorf("the marker is not the first line: %.60q", got)
			}
			if strings.Contains(got, "**Shortened**") != tc.shortened {
				t.Errorf("shortened note %v, want %v:\n%s", !tc.shortened, tc.shortened, got[max(0, len(got)-600):])
			}
			if !strings.Contains(got, "the change fails") || !strings.Contains(got, "#### Records this change broke") {
				t.Errorf("no verdict or broken records:\n%.800s", got)
			}
			wellFormed(t, got)
			// Repository text cannot open emphasis, links or cells.
			if strings.Contains(got, "*PostgreSQL*") || strings.Contains(got, "[x](y)") {
				t.Errorf("unescaped title")
			}
		})
	}
}

func TestCodeSpan(t *testing.T) {
	for in, want := range map[string]string{
		"a.go":       "`a.go`",
		"a|b":        "`a\\|b`",
		"a`b":        "``a`b``",
		"`a``":       "``` `a`` ```",
		"line\nnext": "`line next`",
		"":           "`  `",
	} {
		if got := codeSpan(in); got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", in, got, want)
		}
	}
}

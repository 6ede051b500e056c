package scaffold

import (
	"strings"
	"testing"
)

func TestNextNumber(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{nil, "0001"},
		{[]string{"README.md", "0000-template.md"}, "0001"},
		{[]string{"0001-a.md", "0012-b.md", "0003-c.md"}, "0013"},
		{[]string{"0999-a.md"}, "1000"},
		{[]string{"9999-a.md"}, "10000"},
		{[]string{"00042-a.md", "0007-b.md"}, "00043"},
		{[]string{"ADR-0031-x.md", "0004-y.md"}, "0032"},
		{[]string{"20201016-slug.md"}, "20201017"},
	} {
		if got := NextNumber(tc.names); got != tc.want {
			t.Errorf("%v: %s, want %s", tc.names, got, tc.want)
		}
	}
}

func TestFileNameAndFill(t *testing.T) {
	if got := FileName("0013", "Use PostgreSQL 16, not MySQL!"); got != "0013-use-postgresql-16-not-mysql.md" {
		t.Errorf("file name %q", got)
	}
	if got := Fill("# {{id}}. {{title}} ({{status}}, {{date}}) {{other}}", "0013", "T", "2026-01-01", "draft"); got != "# 0013. T (draft, 2026-01-01) {{other}}" {
		t.Errorf("fill %q", got)
	}
}

func TestTemplateText(t *testing.T) {
	fresh := Body("Use PostgreSQL")
	got := TemplateText(fresh)
	if len(got) != 3 || got[0].Line != 6 || got[0].Prompt != "What is the situation, and what forces a decision now?" {
		t.Fatalf("a new record's body: %+v", got)
	}
	for _, l := range got {
		if lines := strings.Split(fresh, "\n"); strings.TrimSpace(lines[l.Line-1]) != l.Prompt {
			t.Errorf("line %d is %q, not the prompt %q", l.Line, lines[l.Line-1], l.Prompt)
		}
	}
	cases := []struct {
		name, body string
		want       int
	}{
		{"filled in", "\n# T\n\n## Context\n\nThe catalogue outgrew one node.\n\n## Decision\n\nWe move to CockroachDB.\n", 0},
		{"one section left", "## Context\n\nThe catalogue outgrew one node.\n\n## Decision\n\n  What we will do, in full sentences.  \n", 1},
		{"quoted in a sentence", "We dropped the prompt \"What we will do, in full sentences.\" from our template.\n", 0},
		{"empty", "", 0},
	}
	for _, tc := range cases {
		if got := TemplateText(tc.body); len(got) != tc.want {
			t.Errorf("%s: %+v, want %d leftovers", tc.name, got, tc.want)
		}
	}
}

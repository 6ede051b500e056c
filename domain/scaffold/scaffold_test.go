package scaffold

import "testing"

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

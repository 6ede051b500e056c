package index

import (
	"errors"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/domain/adr"
)

func record(id, title string, status adr.Status, by, file string) *adr.Record {
	return &adr.Record{SourcePath: "docs/adr/" + file, Frontmatter: &adr.Frontmatter{ID: id, Title: title, Status: status, Date: "2026-01-0" + id[3:], SupersededBy: by}}
}

// corpus is every status, a superseded record whose successor is here and
// one whose successor is not, a title with Markdown in it and a file name
// with a space.
func corpus() ([]*adr.Record, map[string][]*adr.Record) {
	recs := []*adr.Record{
		record("0004", "Use PostgreSQL", adr.StatusAccepted, "", "0004-use-postgresql.md"),
		record("0001", "Use MySQL", adr.StatusSuperseded, "0004", "0001-use-mysql.md"),
		record("0002", "Cache *all* [results]", adr.StatusProposed, "", "0002-cache.md"),
		record("0003", "Old queue", adr.StatusSuperseded, "0099", "0003-old queue.md"),
		record("0005", "Try GraphQL", adr.StatusRejected, "", "0005-graphql.md"),
		record("0006", "Draft idea", adr.StatusDraft, "", "0006-draft.md"),
		record("0007", "Drop FTP", adr.StatusDeprecated, "", "0007-ftp.md"),
	}
	by := map[string][]*adr.Record{}
	for _, r := range recs {
		by[r.Frontmatter.ID] = append(by[r.Frontmatter.ID], r)
	}
	return recs, by
}

func TestBlock(t *testing.T) {
	g := goldie.New(t)
	recs, by := corpus()
	for _, tc := range []struct{ name, dir string }{
		{"block-root", "."},
		{"block-adr-dir", "docs/adr"},
		{"block-sibling", "docs/guide"},
	} {
		g.Assert(t, tc.name, []byte(Block(recs, by, tc.dir, "\n")))
	}
	g.Assert(t, "block-empty", []byte(Block(nil, nil, ".", "\n")))
}

func TestSplice(t *testing.T) {
	block := Begin + "\nNEW\n" + End + "\n"
	for _, tc := range []struct{ name, in, want string }{
		{"a new file", "", block},
		{"appended after a blank line", "# Project\n\nText.\n", "# Project\n\nText.\n\n" + block},
		{"appended to a last line without its newline", "# Project", "# Project\n\n" + block},
		{"replaced between the markers, the rest untouched",
			"# Project\n\n" + Begin + "\nOLD\nlines\n" + End + "\n\n## After\n", "# Project\n\n" + block + "\n## After\n"},
		{"markers indented by spaces", "  " + Begin + "\nOLD\n" + End + "  \nend", block + "end"},
		{"a marker as the last line without a newline", "x\n" + Begin + "\n" + End, "x\n" + block},
	} {
		got, err := Splice(tc.in, block)
		if err != nil || got != tc.want {
			t.Errorf("%s: %v\n%q\nwant\n%q", tc.name, err, got, tc.want)
		}
		if again, err := Splice(got, block); err != nil || again != got {
			t.Errorf("%s: a second splice changed it: %v %q", tc.name, err, again)
		}
	}
	for name, in := range map[string]string{
		"begin only":       "x\n" + Begin + "\n",
		"end only":         End + "\n",
		"end before begin": End + "\n" + Begin + "\n",
		"two pairs":        Begin + "\n" + End + "\n" + Begin + "\n" + End + "\n",
	} {
		if _, err := Splice(in, block); !errors.Is(err, ErrMarkers) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestRel(t *testing.T) {
	for _, tc := range []struct{ dir, target, want string }{
		{".", "docs/adr/0001-x.md", "docs/adr/0001-x.md"},
		{"docs/adr", "docs/adr/0001-x.md", "0001-x.md"},
		{"docs", "docs/adr/0001-x.md", "adr/0001-x.md"},
		{"docs/guide/deep", "docs/adr/0001-x.md", "../../adr/0001-x.md"},
		{"adr", "0001-x.md", "../0001-x.md"},
	} {
		if got := Rel(tc.dir, tc.target); got != tc.want {
			t.Errorf("Rel(%q, %q) = %q, want %q", tc.dir, tc.target, got, tc.want)
		}
	}
}

func TestNewline(t *testing.T) {
	if Newline("a\r\nb\n") != "\r\n" || Newline("a\nb\r\n") != "\n" || Newline("") != "\n" {
		t.Error("Newline")
	}
}

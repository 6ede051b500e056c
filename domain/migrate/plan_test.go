package migrate

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/internal/frontmattertest"
)

// loadFolder reads a fixture folder as the adapter would.
func loadFolder(t *testing.T, name string) []File {
	t.Helper()
	dir := filepath.Join("testdata", "folders", name)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []File
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, File{Name: e.Name(), Path: "docs/adr/" + e.Name(), Content: b})
	}
	return files
}

// apply is what the adapter does with a plan: the folder afterwards.
func apply(files []File, p *Plan) []File {
	byPath := map[string]FilePlan{}
	for _, f := range p.Files {
		byPath[f.Path] = f
	}
	var out []File
	for _, f := range files {
		fp := byPath[f.Path]
		if fp.Content != nil {
			f.Content = fp.Content
		}
		if fp.RenameTo != "" {
			f.Path, f.Name = fp.RenameTo, path.Base(fp.RenameTo)
		}
		out = append(out, f)
	}
	return out
}

// TestFolders checks the acceptance properties on every fixture folder:
// every decision file becomes a record, the corpus has no error, bodies
// and non-record files are unchanged, and a second plan changes nothing.
func TestFolders(t *testing.T) {
	for _, tc := range []struct {
		folder string
		opts   Options
	}{
		{"nygard", Options{}},
		{"madr2", Options{Rename: true}},
		{"madr3", Options{}},
		{"log4brains", Options{}},
		{"log4brains", Options{Rename: true}},
		{"sites", Options{}},
		{"shapes", Options{}},
	} {
		t.Run(tc.folder, func(t *testing.T) {
			files := loadFolder(t, tc.folder)
			p := Build(files, tc.opts)
			if p.Count(ActionFail) > 0 {
				t.Fatalf("failures: %+v", p.Files)
			}
			after := apply(files, p)
			var cands []corpus.Candidate
			for i, f := range after {
				fp := p.Files[i]
				switch fp.Action {
				case ActionSkip, ActionUnchanged:
					if string(f.Content) != string(files[i].Content) {
						t.Errorf("%s changed", f.Path)
					}
				case ActionMigrate:
					rec, findings := frontmatter.ParseRecord(f.Path, string(f.Content))
					if rec == nil {
						t.Fatalf("%s is not a record: %+v", f.Path, findings)
					}
					if want := frontmattertest.Body(string(files[i].Content)); rec.Body != want {
						t.Errorf("%s: body %q, want the original's %q", f.Path, rec.Body, want)
					}
				}
				if fp.Action != ActionSkip {
					if !corpus.IsCandidateName(f.Name) {
						t.Errorf("%s: a decision that discovery does not read", f.Path)
					}
					cands = append(cands, corpus.Candidate{Path: f.Path, Content: f.Content})
				}
			}
			proj := corpus.Build(cands, nil)
			for _, f := range proj.Findings {
				if f.Severity == adr.SeverityError {
					t.Errorf("finding after migrate: %+v", f)
				}
			}
			if proj.RecordCount != len(cands) {
				t.Errorf("%d records of %d decisions", proj.RecordCount, len(cands))
			}
			again := Build(after, tc.opts)
			for _, fp := range again.Files {
				if fp.Action != ActionUnchanged && fp.Action != ActionSkip || fp.Content != nil {
					t.Errorf("second run: %+v", fp)
				}
			}
		})
	}
}

// TestSupersession pins the relations of the fixture folders: both sides
// filled, whichever side declared them.
func TestSupersession(t *testing.T) {
	for _, tc := range []struct {
		folder, id string
		status     adr.Status
		by         string
		supersedes []string
		relates    []string
	}{
		{"nygard", "0002", adr.StatusSuperseded, "0005", nil, nil},        // Superceded by [..](..)
		{"nygard", "0005", adr.StatusAccepted, "", []string{"0002"}, nil}, // Supercedes
		{"nygard", "0003", adr.StatusDeprecated, "", nil, nil},            // [Deprecated](https://...)
		{"nygard", "0004", adr.StatusAccepted, "", nil, []string{"0006"}}, // Amended by
		{"nygard", "0006", adr.StatusAccepted, "", nil, []string{"0004"}}, // Amends
		{"nygard", "0008", adr.StatusSuperseded, "0009", nil, nil},        // Superseded by ADR-0009
		{"nygard", "0009", adr.StatusProposed, "", []string{"0008"}, nil}, // filled from 0008's side
		{"nygard", "0010", DefaultStatus, "", nil, nil},                   // free-form status
		{"madr2", "0001", adr.StatusSuperseded, "0003", nil, nil},         // superseded by [ADR-0003](...)
		{"madr2", "0003", adr.StatusAccepted, "", []string{"0001"}, []string{"0004"}},
		{"madr3", "0003", adr.StatusSuperseded, "0004", nil, nil},              // "superseded by ADR-0004"
		{"madr3", "0004", adr.StatusAccepted, "", []string{"0003"}, nil},       // filled from 0003's side
		{"madr3", "0002", DefaultStatus, "", nil, nil},                         // site keys only
		{"log4brains", "20200926", adr.StatusSuperseded, "20201016", nil, nil}, // link by slug
		{"log4brains", "20201016", adr.StatusAccepted, "", []string{"20200926"}, nil},
		{"sites", "0001", adr.StatusSuperseded, "0004", nil, nil},                       // link through a site shortcode
		{"sites", "0004", adr.StatusAccepted, "", []string{"0001"}, nil},                // "supersedes [ADR-0001]({{< ref ... >}})"
		{"sites", "0005", adr.StatusProposed, "", nil, nil},                             // "template" in a decision's name
		{"sites", "0007", adr.StatusAccepted, "", nil, []string{"0008"}},                // "Accepted, amended by [...](...)"
		{"sites", "0008", adr.StatusSuperseded, "0009", nil, []string{"0007"}},          // link to a file that is not there, by number
		{"sites", "0009", adr.StatusAccepted, "", []string{"0008"}, nil},                // "Accepted (supersedes [...](...))"
		{"shapes", "0013", adr.StatusSuperseded, "0014", nil, []string{"0020"}},         // "Superseded: 2019-12-19 by [ADR 14](...)"; 0020's clarifies, mutual
		{"shapes", "0014", adr.StatusAccepted, "", []string{"0013"}, []string{"0020"}},  // filled from 0013's side; 0020's relates-to, mutual
		{"shapes", "0015", adr.StatusDeprecated, "", nil, []string{"0016"}},             // "Reverted by [...](...)"
		{"shapes", "0017", adr.StatusAccepted, "", nil, []string{"0018"}},               // "Partly superseded by [...](...)"
		{"shapes", "0020", adr.StatusSuperseded, "0021", nil, []string{"0014", "0013"}}, // adrs links: superseded-by, relates-to, a custom kind
		{"shapes", "0021", adr.StatusAccepted, "", []string{"0020"}, nil},               // adrs links: supersedes (amends 99: no such decision)
	} {
		p := Build(loadFolder(t, tc.folder), Options{})
		var fp *FilePlan
		for i := range p.Files {
			if p.Files[i].ID == tc.id {
				fp = &p.Files[i]
			}
		}
		if fp == nil {
			t.Errorf("%s: no %s", tc.folder, tc.id)
			continue
		}
		if fp.Status != tc.status || fp.SupersededBy != tc.by || strings.Join(fp.Supersedes, ",") != strings.Join(tc.supersedes, ",") ||
			strings.Join(fp.RelatesTo, ",") != strings.Join(tc.relates, ",") {
			t.Errorf("%s %s: status %s by %q supersedes %v relates %v", tc.folder, tc.id, fp.Status, fp.SupersededBy, fp.Supersedes, fp.RelatesTo)
		}
	}
}

func TestIDs(t *testing.T) {
	files := []File{
		{Name: "20200925-b.md", Content: []byte("# Bravo\n")},
		{Name: "20200925-a.md", Content: []byte("# Alpha\n")},
		{Name: "2020092501-x.md", Content: []byte("# Taken already\n")},
		{Name: "7-short.md", Content: []byte("# Short number\n")},
		{Name: "0009-kept.md", Content: []byte("---\nid: \"0009\"\ntitle: Kept\nstatus: draft\ndate: 2020-01-01\n---\n")},
		{Name: "0009-new.md", Content: []byte("# New nine\n")},
	}
	for i := range files {
		files[i].Path = "d/" + files[i].Name
	}
	got := map[string]string{}
	for _, f := range Build(files, Options{Rename: true}).Files {
		got[f.Path] = f.ID
	}
	want := map[string]string{
		"d/20200925-a.md": "2020092502", "d/20200925-b.md": "2020092503", "d/2020092501-x.md": "2020092501",
		"d/7-short.md": "0007", "d/0009-kept.md": "0009", "d/0009-new.md": "000901",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: id %q, want %q", k, got[k], v)
		}
	}
}

func TestStatusLines(t *testing.T) {
	for _, tc := range []struct {
		line   string
		status string
		rel    relation
		target string
		number string
	}{
		{"Accepted", "Accepted", -1, "", ""},
		{"[Deprecated](https://example.org/x)", "Deprecated", -1, "", ""},
		{"Superceded by [3. X](0003-x.md)", "superseded", relSupersededBy, "0003-x.md", ""},
		{"Superseded by [ADR-0005](0005-x.md#top)", "superseded", relSupersededBy, "0005-x.md#top", ""},
		{"superseded by ADR-0123", "superseded", relSupersededBy, "", "0123"},
		{"Supercedes [1. First](0001-first.md)", "", relSupersedes, "0001-first.md", ""},
		{"Amended by [3. Third](0003-third.md)", "", relRelates, "0003-third.md", ""},
		{"**Accepted** <!-- optional -->", "Accepted", -1, "", ""},
		{"Accepted, amended by [4. Four](0004-four.md)", "Accepted", relRelates, "0004-four.md", ""},
		{"Accepted (supersedes [ADR-2](0002-two.md))", "Accepted", relSupersedes, "0002-two.md", ""},
		{"Proposed - superseded by [ADR-9](0009-nine.md)", "Proposed,superseded", relSupersededBy, "0009-nine.md", ""},
		{"Superseded by ADR0042", "superseded", relSupersededBy, "", "0042"},
	} {
		s := &signals{}
		s.statusLine(tc.line)
		gotStatus := strings.Join(s.statuses, ",")
		if gotStatus != tc.status {
			t.Errorf("%q: status %q, want %q", tc.line, gotStatus, tc.status)
		}
		if tc.rel < 0 {
			if len(s.links) != 0 {
				t.Errorf("%q: links %+v", tc.line, s.links)
			}
			continue
		}
		if len(s.links) != 1 || s.links[0].rel != tc.rel || s.links[0].target != tc.target || s.links[0].number != tc.number {
			t.Errorf("%q: links %+v", tc.line, s.links)
		}
	}
}

func TestLookupStatus(t *testing.T) {
	for text, want := range map[string]adr.Status{
		"Accepted": adr.StatusAccepted, "accepted on 2020-01-01": adr.StatusAccepted, "Approved.": adr.StatusAccepted,
		"Work in progress": adr.StatusDraft, "In review": adr.StatusProposed, "Superceded": adr.StatusSuperseded,
		"Obsolete": adr.StatusDeprecated, "Won't do": adr.StatusRejected, "Accepting": "", "On hold": "", "": "",
	} {
		got, ok := lookupStatus(text)
		if got != want || ok != (want != "") {
			t.Errorf("%q: %q %v, want %q", text, got, ok, want)
		}
	}
}

func TestParseDate(t *testing.T) {
	for in, want := range map[string]string{
		"2016-02-12": "2016-02-12", "14/05/2019": "2019-05-14", "12/01/1992": "1992-01-12", "05/14/2019": "2019-05-14",
		"2019/05/14": "2019-05-14", "14.05.2019": "2019-05-14", "17 December 2016": "2016-12-17", "December 17, 2016": "2016-12-17",
		"2016-02-30": "", "[YYYY-MM-DD when the decision was last updated]": "", "soon": "", "2020-10-16 <!-- optional -->": "2020-10-16",
		"2020-06-15T20:21:00+01:00": "2020-06-15", "2022-02-01T12:00:00Z": "2022-02-01", "2020-06-15x": "",
	} {
		got, _, ok := parseDate(in)
		if got != want || ok != (want != "") {
			t.Errorf("%q: %q %v, want %q", in, got, ok, want)
		}
	}
}

func TestPeople(t *testing.T) {
	ids, others := people([]string{"@olaf, Jane Doe and team:web; a@b.io", "[list everyone involved in the decision]", "@olaf", "[@pia](https://example.org/pia)"})
	if strings.Join(ids, "|") != "@olaf|team:web|a@b.io|@pia" || strings.Join(others, "|") != "Jane Doe" {
		t.Errorf("ids %q others %q", ids, others)
	}
}

func TestTitles(t *testing.T) {
	for heading, want := range map[string]string{
		"# 1. Record decisions":                             "Record decisions",
		"# ADR-0012: Use Kafka":                             "Use Kafka",
		"# 0003 - Keep it":                                  "Keep it",
		"# 2FA for admins":                                  "2FA for admins",
		"# 10-year retention":                               "10-year retention",
		"# 3.5 release train":                               "3.5 release train",
		"Setext title\n============":                        "Setext title",
		"# `Code` **title** #":                              "Code title",
		"# [Superseded by [ADR-0002](0002-b.md)] Keep logs": "Keep logs",
		"# [Deprecated] 4. Old way":                         "Old way",
		"# [WIP] Try things":                                "[WIP] Try things",
		"\uFEFF# 1. Marked":                                 "Marked",
	} {
		files := []File{{Name: "0001-x.md", Path: "d/0001-x.md", Content: []byte(heading + "\n\nbody\n")}}
		if got := Build(files, Options{}).Files[0].Title; got != want {
			t.Errorf("%q: title %q, want %q", heading, got, want)
		}
	}
}

// TestCRLF keeps a CRLF file CRLF: the frontmatter takes its line ends.
func TestCRLF(t *testing.T) {
	text := "# 1. Windows\r\n\r\nDate: 2020-01-01\r\n\r\n## Status\r\n\r\nAccepted\r\n"
	p := Build([]File{{Name: "0001-w.md", Path: "d/0001-w.md", Content: []byte(text)}}, Options{})
	c := string(p.Files[0].Content)
	if !strings.HasPrefix(c, "---\r\nid: \"0001\"\r\n") || !strings.HasSuffix(c, "---\r\n"+text) {
		t.Fatalf("content %q", c)
	}
}

// TestNotDecisions: files migrate never touches, and decisions it cannot
// migrate.
func TestNotDecisions(t *testing.T) {
	files := []File{
		{Name: "README.md"}, {Name: "index.md"}, {Name: "adr-template.md"}, {Name: "0000-template.md"}, {Name: "notes.txt"},
		{Name: "0003-broken.md", Content: []byte("---\nid: \"0003\"\ntitle: x\n---\n")},
		{Name: "0004-bad-yaml.md", Content: []byte("---\nstatus: [unclosed\n---\n# Bad YAML\n")},
		{Name: "0005-no-title.md", Content: []byte("Status: accepted\n")},
		{Name: "0006-docusaurus.md", Content: []byte("---\nid: adr-006\nsidebar_position: 6\n---\n# Site id\n")},
		{Name: "007-short.md", Content: []byte("# Short number\n")},
		{Name: "0008-adrkit-ish.md", Content: []byte("---\ntitle: Half done\naffects: []\n---\n")},
	}
	for i := range files {
		files[i].Path = "d/" + files[i].Name
	}
	p := Build(files, Options{})
	want := map[string]Action{
		"d/README.md": ActionSkip, "d/index.md": ActionSkip, "d/adr-template.md": ActionSkip, "d/0000-template.md": ActionSkip,
		"d/notes.txt": ActionSkip, "d/0003-broken.md": ActionFail, "d/0004-bad-yaml.md": ActionMigrate, "d/0005-no-title.md": ActionMigrate,
		"d/0006-docusaurus.md": ActionMigrate, "d/007-short.md": ActionFail, "d/0008-adrkit-ish.md": ActionFail,
	}
	for _, f := range p.Files {
		if f.Action != want[f.Path] {
			t.Errorf("%s: %s (%s), want %s", f.Path, f.Action, f.Reason, want[f.Path])
		}
	}
	// With --rename the misnamed decision is renamed and migrated.
	for _, f := range Build(files, Options{Rename: true}).Files {
		if f.Path == "d/007-short.md" && (f.Action != ActionMigrate || f.RenameTo != "d/0007-short.md") {
			t.Errorf("--rename: %+v", f)
		}
	}
}

// TestTemplateNames: templates kept beside the decisions, and decisions
// whose names merely mention templates.
func TestTemplateNames(t *testing.T) {
	p := Build([]File{{Name: "0000-adr-template.md", Path: "d/0000-adr-template.md"}, {Name: "0000-template.md", Path: "d/0000-template.md"}}, Options{})
	if f := p.Files[0]; f.Action != ActionSkip || !strings.Contains(f.Reason, "lint leaves it alone too") {
		t.Errorf("0000-adr-template.md: %s %q", f.Action, f.Reason)
	}
	if f := p.Files[1]; f.Action != ActionSkip || strings.Contains(f.Reason, "renamed") {
		t.Errorf("0000-template.md: %s %q", f.Action, f.Reason)
	}
	for name, want := range map[string]bool{
		"template.md": true, "adr-template.md": true, "TEMPLATE.md": true, "0000-template.md": true, "000-template.md": true,
		"ADR000-template.md": true, "0000-adr-template.md": true, "0001-template.md": true,
		"0009-extension-template.md": false, "0012-templates-for-emails.md": false, "0003-use-postgres.md": false, "README.md": false,
	} {
		if got := IsTemplateName(name); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}

// TestSiteFrontmatter: front matter a site generator reads (Hugo's YAML,
// Zola's TOML) over MADR 2.x bullets. The bullets say what was decided
// and when; the page's title names it; the block is kept as comments.
func TestSiteFrontmatter(t *testing.T) {
	p := Build(loadFolder(t, "sites"), Options{})
	want := map[string]struct{ title, date string }{
		"0001": {"Keep sessions in Redis", "2021-03-02"},        // the bullet's date, not the page's
		"0005": {"A service template", "2022-02-01"},            // numbered title key
		"0006": {"Cache pages at the edge", "2022-03-03"},       // TOML title key
		"0007": {"Sign release artifacts", "2022-04-04"},        // after a byte-order mark
		"0008": {"Rotate signing keys yearly", "2022-05-05"},    // status tag in the heading
		"0004": {"Keep sessions in the database", "2021-12-14"}, // page date 2022-01-11
	}
	for _, f := range p.Files {
		w, ok := want[f.ID]
		if !ok {
			continue
		}
		if f.Title != w.title || f.Date != w.date {
			t.Errorf("%s: title %q date %s, want %q %s", f.Path, f.Title, f.Date, w.title, w.date)
		}
		switch f.ID {
		case "0006":
			c := string(f.Content)
			if !strings.Contains(c, "# title = \"ADR-0006: Cache pages at the edge\"\n") || !strings.HasSuffix(c, "---\n\n- Status: accepted\n- Date: 2022-03-03\n- Tags: performance, cdn\n\n## Context and Problem Statement\n\nPages are slow far from the data centre.") {
				t.Errorf("0006: content %q", c)
			}
			if strings.Join(f.Tags, ",") != "performance,cdn" || f.Format != FormatMADR {
				t.Errorf("0006: tags %v format %s", f.Tags, f.Format)
			}
		case "0007":
			if !strings.HasPrefix(string(f.Content), "---\r\n") || !strings.Contains(strings.Join(f.Warnings, "\n"), "byte-order mark") {
				t.Errorf("0007: %q %q", f.Content, f.Warnings)
			}
		case "0001":
			if strings.Join(f.Deciders, ",") != "@ana" || !strings.Contains(strings.Join(f.Warnings, "\n"), `"Bo Lind" is not an @handle, team:slug or email address, so it is not listed in deciders (it stays in the text)`) {
				t.Errorf("0001: deciders %v warnings %q", f.Deciders, f.Warnings)
			}
		}
	}
	for _, f := range p.Files {
		switch f.Path {
		case "docs/adr/template.md", "docs/adr/_index.md":
			if f.Action != ActionSkip {
				t.Errorf("%s: %s", f.Path, f.Action)
			}
		}
	}
}

// TestShapes pins what migrate says about the shapes of the real folders
// in the shapes fixture: titles without their labels, the warnings that
// quote the status line, the links and keys it could not write.
func TestShapes(t *testing.T) {
	p := Build(loadFolder(t, "shapes"), Options{})
	byName := map[string]FilePlan{}
	for _, f := range p.Files {
		byName[path.Base(f.Path)] = f
	}
	for _, tc := range []struct {
		name, action, title string
		warnings            []string
	}{
		{"0000-TEMPLATE.md", "skip", "", nil},
		{"adr000-template.md", "skip", "", nil},
		{"0013-political-content.md", "migrate", "Tag political content by hand", nil},
		{"0015-cache-pages.md", "migrate", "Cache rendered pages",
			[]string{`the status says "Reverted by 16. Render on every request": written as deprecated`}},
		{"0017-api-versions.md", "migrate", "Version the API in the path",
			[]string{`the status says "Partly superseded by 18. Version events in a header": only part of it was replaced, so it is written as accepted`}},
		{"0018-event-versions.md", "migrate", "Version events in a header", nil},
		{"0019-docs-site.md", "migrate", "Publish the docs with Docusaurus",
			[]string{`the front matter keys "id", "sidebar_label", "sidebar_position" are kept only as comments`}},
		{"0020-use-sqlite.md", "migrate", "Use SQLite for the catalogue", []string{
			`the link kind "clarifies" is not one adrkit has a field for; 13 is written as relatesTo`,
			"links entry 4 has no target and kind, so it is not read"}},
		{"0021-use-postgres.md", "migrate", "Use PostgreSQL for the catalogue",
			[]string{`"amends 99" is not written as a relation: no decision is numbered 99`}},
	} {
		f, ok := byName[tc.name]
		if !ok || string(f.Action) != tc.action || f.Title != tc.title {
			t.Errorf("%s: %s %q, want %s %q", tc.name, f.Action, f.Title, tc.action, tc.title)
		}
		all := strings.Join(f.Warnings, "\n")
		for _, w := range tc.warnings {
			if !strings.Contains(all, w) {
				t.Errorf("%s: no warning %q in\n%s", tc.name, w, all)
			}
		}
		if strings.Contains(all, "names no replacement") {
			t.Errorf("%s: %s", tc.name, all)
		}
	}
}

// TestShapeLines: status lines and titles in the shapes of real folders,
// one decision each, read on their own.
func TestShapeLines(t *testing.T) {
	target := "# 9. Target\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n"
	for _, tc := range []struct {
		name, heading, status string
		want                  adr.Status
		by                    string
		relates               []string
		title                 string
	}{
		{"dated supersession", "# 1. Old", "Superseded: 2019-12-19 by [ADR 9](0009-target.md)", adr.StatusSuperseded, "0009", nil, "Old"},
		{"date in parentheses", "# 1. Old", "Superseded (19/12/2019) by [ADR 9](0009-target.md)", adr.StatusSuperseded, "0009", nil, "Old"},
		{"superseded on a date", "# 1. Old", "Superseded on 2019-12-19 by [ADR 9](0009-target.md)", adr.StatusSuperseded, "0009", nil, "Old"},
		{"dated, no link", "# 1. Old", "Superseded: 2019-12-19 by ADR 9", adr.StatusSuperseded, "0009", nil, "Old"},
		{"partially superseded on a date, no link", "# 1. Old", "- Partially superseded: 2026-08-29 by ADR-0009, one clause only", adr.StatusAccepted, "", []string{"0009"}, "Old"},
		{"reverted on a date", "# 1. Old", "Reverted on 2020-01-02 by ADR-0009", adr.StatusDeprecated, "", []string{"0009"}, "Old"},
		{"reverted, no link", "# 1. Old", "Accepted\n\nReverted by ADR-0009", adr.StatusDeprecated, "", []string{"0009"}, "Old"},
		{"reverted, a link", "# 1. Old", "Reverted by [9. Target](0009-target.md)", adr.StatusDeprecated, "", []string{"0009"}, "Old"},
		{"partly superseded, no other status", "# 1. Old", "Partially superseded by ADR-0009", adr.StatusAccepted, "", []string{"0009"}, "Old"},
		{"superseded in part, proposed", "# 1. Old", "Proposed\n\nSuperseded in part by [9](0009-target.md)", adr.StatusProposed, "", []string{"0009"}, "Old"},
		{"in a block quote, bold", "# 1. Old", "> **Partly superseded by [ADR 0009](0009-target.md):** the rest stands.", adr.StatusAccepted, "", []string{"0009"}, "Old"},
		{"bold status", "# 1. Old", "**partly superseded.**", adr.StatusAccepted, "", nil, "Old"},
		{"accepted, partly superseded", "# 1. Old", "Accepted, partly superseded by [ADR-0009](0009-target.md)\nand [ADR-0009](0009-target.md): the rest stands.", adr.StatusAccepted, "", []string{"0009"}, "Old"},
		{"accepted, reverted", "# 1. Old", "Accepted, reverted by [ADR-0009](0009-target.md)", adr.StatusDeprecated, "", []string{"0009"}, "Old"},
		{"a quoted supersession", "# 1. Old", "> Superseded by [9. Target](0009-target.md)", adr.StatusSuperseded, "0009", nil, "Old"},
		{"a label in the title", "# Architecture Decision Record: Use Kafka", "Accepted", adr.StatusAccepted, "", nil, "Use Kafka"},
		{"a label with a number", "# Architectural Decision Record 12 - Use Kafka", "Accepted", adr.StatusAccepted, "", nil, "Use Kafka"},
		{"the label and its abbreviation", "# Architecture Decision Record (ADR): Use Kafka", "Accepted", adr.StatusAccepted, "", nil, "Use Kafka"},
		{"ADR:", "# ADR: Use Kafka", "Accepted", adr.StatusAccepted, "", nil, "Use Kafka"},
	} {
		files := []File{
			{Name: "0001-old.md", Path: "d/0001-old.md", Content: []byte(tc.heading + "\n\nDate: 2019-01-01\n\n## Status\n\n" + tc.status + "\n\n## Context\n\nX.\n")},
			{Name: "0009-target.md", Path: "d/0009-target.md", Content: []byte(target)},
		}
		f := Build(files, Options{}).Files[0]
		if f.Action != ActionMigrate || f.Status != tc.want || f.SupersededBy != tc.by || strings.Join(f.RelatesTo, ",") != strings.Join(tc.relates, ",") || f.Title != tc.title {
			t.Errorf("%s: %s %s by %q relates %v title %q; warnings %q", tc.name, f.Action, f.Status, f.SupersededBy, f.RelatesTo, f.Title, f.Warnings)
		}
	}
}

// TestHeaderRelation: a relation among the header lines, beside the
// date, as content-publisher writes it, with a bare "Superseded" status.
func TestHeaderRelation(t *testing.T) {
	files := []File{
		{Name: "0006-tagging.md", Path: "d/0006-tagging.md", Content: []byte("# 6. Tagging\n\nDate: 2018-12-12\nSuperseded: 2019-12-19 by [ADR 14](0014-political-tagging.md)\n\n## Context\n\nX.\n\n## Status\n\nSuperseded\n")},
		{Name: "0007-queue.md", Path: "d/0007-queue.md", Content: []byte("# 7. Queue\n\nDate: 2018-12-12\nReverted by [ADR 14](0014-political-tagging.md)\n\n## Status\n\nAccepted\n")},
		{Name: "0014-political-tagging.md", Path: "d/0014-political-tagging.md", Content: []byte("# 14. Political tagging\n\nDate: 2019-12-19\n\n## Status\n\nAccepted\n")},
	}
	p := Build(files, Options{})
	if f := p.Files[0]; f.Status != adr.StatusSuperseded || f.SupersededBy != "0014" || f.Date != "2018-12-12" {
		t.Errorf("0006: %s by %q date %s; %q", f.Status, f.SupersededBy, f.Date, f.Warnings)
	}
	if f := p.Files[2]; strings.Join(f.Supersedes, ",") != "0006" {
		t.Errorf("0014: supersedes %v", f.Supersedes)
	}
	// Reverted wins over the status section's "Accepted".
	if f := p.Files[1]; f.Status != adr.StatusDeprecated || strings.Join(f.RelatesTo, ",") != "0014" {
		t.Errorf("0007: %s relates %v; %q", f.Status, f.RelatesTo, f.Warnings)
	}
}

// TestHeaderProse: a header line that starts like a relation but is prose
// declares nothing.
func TestHeaderProse(t *testing.T) {
	files := []File{
		{Name: "0001-a.md", Path: "d/0001-a.md", Content: []byte("# 1. Alpha\n\nDate: 2020-01-01\nReplaced the cron jobs of [the runner](0002-b.md) with timers.\n\n## Status\n\nAccepted\n")},
		{Name: "0002-b.md", Path: "d/0002-b.md", Content: []byte("# 2. Bravo\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n")},
	}
	p := Build(files, Options{})
	if f := p.Files[0]; f.Status != adr.StatusAccepted || len(f.Supersedes)+len(f.RelatesTo) != 0 || f.SupersededBy != "" {
		t.Errorf("%+v", f)
	}
}

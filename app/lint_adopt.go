package app

import (
	"context"
	"path"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/migrate"
	"github.com/adrkit/adrkit-go/ports"

	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// Lint-only rules about a folder kept in another ADR format, or
// half-adopted. The MCP tools never report them.
const (
	// RuleNoRecords: the ADR directory holds Markdown files, but not one
	// record. Lint fails rather than calling an unread folder clean.
	RuleNoRecords = "no-records"
	// RuleFormatHint: a file looks written for another ADR tool; the
	// finding says what adrkit calls it.
	RuleFormatHint = "format-hint"
	// RuleIDFileName: a record's file name starts with a number that is
	// not its id.
	RuleIDFileName = "id-file-name-mismatch"
)

// adoptionFindings are lint's findings about adopting a folder: no
// records at all, file names that disagree with ids, hints for other
// formats' habits.
func (s *Service) adoptionFindings(ctx context.Context, ld *loaded, lines *sourceLines) []adr.Finding {
	var out []adr.Finding
	if f, ok := noRecords(ld.entries, ld.proj.RecordCount); ok {
		out = append(out, f)
	}
	for _, r := range ld.proj.Records {
		if f, ok := idFileName(r, lines); ok {
			out = append(out, f)
		}
	}
	return append(out, s.formatHints(ctx, ld.proj.Findings)...)
}

// docFile reports Markdown files an ADR directory keeps beside its
// records that are not decisions: they never count as unread decisions.
func docFile(name string) bool {
	lower := strings.ToLower(name)
	base := strings.TrimSuffix(strings.TrimSuffix(lower, ".md"), ".markdown")
	// Hugo keeps a section's page in _index.md.
	base = strings.TrimPrefix(base, "_")
	return base == "readme" || base == "index" || migrate.IsTemplateName(name)
}

// templateFinding reports a finding about a template kept beside the
// records under a name discovery reads or nearly reads (0000-TEMPLATE.md,
// adr000-template.md: migrate.IsTemplateName) that is not a valid
// record: lint leaves such a file alone as migrate does, neither failing
// on it nor advising to rename it into a record.
func templateFinding(f adr.Finding, proj *corpus.Projection) bool {
	if f.Rule == RuleNoRecords || !migrate.IsTemplateName(path.Base(f.Path)) {
		return false
	}
	for _, r := range proj.Records {
		if r.SourcePath == f.Path {
			return false
		}
	}
	return true
}

// noRecords reports an ADR directory with Markdown files (besides README,
// index and templates) and no record: a folder kept in another format
// that adrkit cannot read yet.
func noRecords(entries []ports.Entry, recordCount int) (adr.Finding, bool) {
	if recordCount > 0 {
		return adr.Finding{}, false
	}
	n, dir := 0, ""
	for _, e := range entries {
		if e.Kind == ports.KindRegular && !strings.Contains(e.Name, "/") && markdownSuffix(e.Name) != "" && !docFile(e.Name) {
			n++
			// The finding is about the directory: reports that place
			// findings in files (SARIF, GitHub) get its path.
			dir = strings.TrimSuffix(strings.TrimSuffix(e.Path, e.Name), "/")
		}
	}
	if n == 0 {
		return adr.Finding{}, false
	}
	return adr.Finding{
		Rule: RuleNoRecords, Severity: adr.SeverityError, Path: dir,
		Message: "the ADR directory has " + strconv.Itoa(n) + " Markdown " + plural(n, "file", "files") +
			" but no adrkit record, so nothing here is read as a decision; if they are decisions kept with adr-tools, " +
			"MADR or log4brains, adrkit migrate --dry-run shows how they would become records, and adrkit migrate converts them",
	}, true
}

// idFileName reports a record whose file name's number is not its id.
// A record migrate imported under its original name is exempt: migrate
// gives a file whose number other files share an id of its own (see
// docs/adr/0017), and its provenance names the file.
func idFileName(r *adr.Record, lines *sourceLines) (adr.Finding, bool) {
	name := path.Base(r.SourcePath)
	number, ok := migrate.FileNumber(name)
	fm := r.Frontmatter
	if !ok || number == fm.ID {
		return adr.Finding{}, false
	}
	if p := fm.Provenance; p != nil && p.ImportedFrom != nil {
		ref := p.ImportedFrom.SourceRef
		if ref == r.SourcePath || strings.HasSuffix(ref, ":"+r.SourcePath) {
			return adr.Finding{}, false
		}
	}
	return adr.Finding{
		Rule: RuleIDFileName, Severity: adr.SeverityWarn,
		Message: "the file name starts with " + number + " but the id is " + strconv.Quote(fm.ID) +
			"; people look a record up by its file name, so rename the file or change the id",
		Path: r.SourcePath, ID: fm.ID, Field: "id", Line: lines.line(r.SourcePath, "id"),
	}, true
}

// formatHints explain findings that come from another ADR tool's habits:
// MADR's decision-makers key, Jekyll's site keys, a status written
// "superseded by ADR-0123", a file without frontmatter that reads like
// an adr-tools or MADR decision. They are info: the findings they explain
// already fail the run.
func (s *Service) formatHints(ctx context.Context, findings []adr.Finding) []adr.Finding {
	var out []adr.Finding
	var reread []adr.Finding
	for _, f := range findings {
		switch {
		case f.Rule == "strict-unknown-key" && f.Field == "decision-makers":
			out = append(out, hint(f, "decision-makers is MADR's name for what adrkit calls deciders "+
				"(@handle, team:slug or email); rename the key, or run adrkit migrate on the folder"))
		case f.Rule == "strict-unknown-key" && (f.Field == "parent" || f.Field == "nav_order" || f.Field == "layout" || f.Field == "grand_parent"):
			out = append(out, hint(f, f.Field+" is a site generator's key (Jekyll, Just the Docs); adrkit's frontmatter "+
				"allows only its own fields: set it in the site's defaults instead, or keep it as a YAML comment (adrkit migrate does)"))
		case f.Rule == "invalid-enum-value" && f.Field == "status", f.Rule == frontmatter.RuleFence && f.Field == "frontmatter":
			reread = append(reread, f)
		}
	}
	if len(reread) == 0 {
		return out
	}
	// The text of these few files is needed; they are read again.
	view, err := s.reader.Open(ctx)
	if err != nil {
		return out
	}
	for _, f := range reread {
		data, err := view.Read(ctx, path.Base(f.Path), corpus.MaxRecordBytes, nil)
		if err != nil {
			continue
		}
		text := jsstring.DecodeUTF8(data)
		if f.Rule == frontmatter.RuleFence {
			if format := looksLike(path.Base(f.Path), text); format != "" {
				out = append(out, hint(f, "the file reads like a "+format+" decision without adrkit frontmatter; "+
					"adrkit migrate adds it (--dry-run first shows what it would write)"))
			}
			continue
		}
		if m := supersededStatus.FindStringSubmatch(statusValue(text)); m != nil {
			out = append(out, hint(f, "a status written "+strconv.Quote(strings.Trim(strings.TrimSpace(m[0]), "\"'"))+" is two fields in adrkit: "+
				"status: superseded, and supersededBy: \""+m[1]+"\" (the replacement's id)"))
		}
	}
	return out
}

var supersededStatus = lazyregexp.New(`(?i)^\s*["']?super(?:s|c|se)eded\s+by\b\D*([0-9]{4,})`)

// statusValue is the raw text of a top-level status line of the
// frontmatter.
func statusValue(text string) string {
	parts, err := frontmatter.Split(text)
	if err != nil {
		return ""
	}
	for line := range strings.SplitSeq(parts.YAML, "\n") {
		if v, ok := strings.CutPrefix(line, "status:"); ok {
			return v
		}
	}
	return ""
}

// nygardStatus and madrBullet are the marks of the two body formats.
var (
	nygardStatus = lazyregexp.New(`(?m)^#{2,}\s+Status\s*$`)
	madrBullet   = lazyregexp.New(`(?mi)^\s*[*-]\s+(\*\*)?(Status|Deciders|Date)(\*\*)?\s*:`)
)

// looksLike names the ADR format a file without frontmatter is written
// in, or "" when it reads like none.
func looksLike(name, text string) string {
	switch {
	case nygardStatus.MatchString(text):
		return "Nygard (adr-tools)"
	case madrBullet.MatchString(text):
		if len(name) > 9 && name[8] == '-' && strings.Trim(name[:8], "0123456789") == "" {
			return "log4brains"
		}
		return "MADR"
	}
	return ""
}

func hint(f adr.Finding, msg string) adr.Finding {
	return adr.Finding{Rule: RuleFormatHint, Severity: adr.SeverityInfo, Message: msg, Path: f.Path, ID: f.ID, Field: f.Field, Line: f.Line}
}

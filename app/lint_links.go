package app

import (
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/migrate"
	"github.com/adrkit/adrkit-go/ports"

	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// RuleRenamedLink is lint's finding for a link in a record's body to a
// Markdown file of the ADR directory that is not there, where a record
// by that name's slug (or number) is: the file was renamed (migrate
// --rename, adrkit renumber, by hand) and the link was not.
const RuleRenamedLink = "link-to-renamed-record"

// bodyLink is an inline Markdown link's destination.
var bodyLink = lazyregexp.New(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)

// renamedLinks reports, in every record's body, the links to a file of
// the ADR directory's top level that does not exist but names a record
// under its old name: the same slug after the number (0003-x.md →
// 0004-x.md), or else the same number (ADR-0005-x.md → 0005-x.md). Links
// in fenced code and links that name no such record are left alone.
func renamedLinks(records []*adr.Record, entries []ports.Entry) []adr.Finding {
	// Most bodies link to no Markdown file: they are passed over with two
	// searches, and the indexes are built only for a link that needs them.
	type gone struct {
		r      *adr.Record
		target string
		line   int
	}
	var names map[string]bool
	var candidates []gone
	for _, r := range records {
		if !strings.Contains(r.Body, "](") || !strings.Contains(r.Body, ".md") {
			continue
		}
		if names == nil {
			names = map[string]bool{}
			for _, e := range entries {
				if !strings.Contains(e.Name, "/") {
					names[e.Name] = true
				}
			}
		}
		line := strings.Count(r.Frontmatter.YAML, "\n") + 3 // the body's first line
		fence := ""
		for l := range strings.SplitSeq(r.Body, "\n") {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				switch {
				case fence == "":
					fence = t[:3]
				case strings.HasPrefix(t, fence):
					fence = ""
				}
			}
			if fence == "" && strings.Contains(l, "](") {
				for _, m := range bodyLink.FindAllStringSubmatch(l, -1) {
					if target, ok := missingTarget(m[1], names); ok {
						candidates = append(candidates, gone{r, target, line})
					}
				}
			}
			line++
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	bySlug, byNumber := map[string][]*adr.Record{}, map[string][]*adr.Record{}
	for _, r := range records {
		base := path.Base(r.SourcePath)
		if slug := linkSlug(base); slug != "" {
			bySlug[slug] = append(bySlug[slug], r)
		}
		if n, ok := migrate.FileNumber(base); ok {
			byNumber[strings.TrimLeft(n, "0")] = append(byNumber[strings.TrimLeft(n, "0")], r)
		}
	}
	var out []adr.Finding
	for _, c := range candidates {
		if f, ok := renamedLink(c.r, c.target, c.line, bySlug, byNumber); ok {
			out = append(out, f)
		}
	}
	return out
}

// missingTarget is the file name a link destination names in the ADR
// directory's top level, when it is a Markdown file that is not there.
func missingTarget(dest string, names map[string]bool) (string, bool) {
	target := dest
	if i := strings.IndexAny(target, "#?"); i >= 0 {
		target = target[:i]
	}
	target = strings.TrimPrefix(target, "./")
	if u, err := url.PathUnescape(target); err == nil {
		target = u
	}
	lower := strings.ToLower(target)
	if target == "" || strings.Contains(target, "/") || strings.Contains(target, ":") || names[target] ||
		!(strings.HasSuffix(lower, ".md") || strings.HasSuffix(lower, ".markdown")) {
		return "", false
	}
	return target, true
}

// renamedLink judges one missing link target of record r: a record by
// its slug, or else its number, is there under a new name.
func renamedLink(r *adr.Record, target string, line int, bySlug, byNumber map[string][]*adr.Record) (adr.Finding, bool) {
	var now *adr.Record
	if c := bySlug[linkSlug(target)]; len(c) == 1 && linkSlug(target) != "" {
		now = c[0]
	} else if n, ok := migrate.FileNumber(target); ok && len(byNumber[strings.TrimLeft(n, "0")]) == 1 {
		now = byNumber[strings.TrimLeft(n, "0")][0]
	}
	if now == nil {
		return adr.Finding{}, false
	}
	newName := path.Base(now.SourcePath)
	return adr.Finding{
		Rule: RuleRenamedLink, Severity: adr.SeverityWarn, Path: r.SourcePath, ID: r.Frontmatter.ID, Line: line,
		Message: "the body links to " + strconv.Quote(target) + ", which is not in the ADR directory; record " + now.Frontmatter.ID +
			" is " + newName + " now: change the link to (" + newName + ")",
	}, true
}

// linkSlug is what follows a decision file name's number, lower-cased,
// without its extension: "use-x" for "ADR-0005-Use-X.md"; "" for a name
// without a number.
func linkSlug(name string) string {
	if _, ok := migrate.FileNumber(name); !ok {
		return ""
	}
	base := strings.ToLower(name)
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".md"), ".markdown")
	if strings.HasPrefix(base, "adr") {
		base = strings.TrimLeft(base[3:], "-_ ")
	}
	return strings.TrimLeft(strings.TrimLeft(base, "0123456789"), "-_ .")
}

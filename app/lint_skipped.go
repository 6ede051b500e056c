package app

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// templateFile is the ADR template projects keep beside their records.
// Discovery skips it by this exact name, and so does the stray-file scan:
// it is expected, not a mistake.
const templateFile = "0000-template.md"

// skippedFinding reports an entry of the ADR directory that looks like it
// was meant to be a record but that discovery never reads
// (corpus-file-skipped). The heuristic, documented in docs/cli.md:
//
//   - Only Markdown names count: ".md" or ".markdown", in any case.
//   - The name must look numbered: it starts with an ASCII digit, or with
//     "adr" (any case, optionally followed by "-", "_" or " ") and then a
//     digit. README.md, index.md, notes.md and the like are left alone.
//   - The template (0000-template.md) is expected, anywhere.
//   - Anything under a hidden directory, and hidden files, are left alone:
//     someone put them out of the way on purpose.
//   - Directories are walked, never reported themselves, except a
//     top-level directory whose name looks like a record.
//
// A top-level regular file that is a discovery candidate is a record (its
// problems, if any, are the projection's findings), never a stray.
func skippedFinding(e ports.Entry) (adr.Finding, bool) {
	if hasHiddenSegment(e.Name) {
		return adr.Finding{}, false
	}
	dir, base := path.Split(e.Name)
	if base == templateFile || !recordLikeName(base) {
		return adr.Finding{}, false
	}
	f := adr.Finding{Rule: RuleCorpusFileSkipped, Severity: adr.SeverityWarn, Path: e.Path}
	switch {
	case dir != "":
		if e.Kind == ports.KindDirectory {
			return adr.Finding{}, false
		}
		f.Message = "the file is in the subdirectory " + strconv.Quote(strings.TrimSuffix(dir, "/")) +
			"; only the top level of the ADR directory is read, so no command or tool sees this record" +
			" (move it up to the ADR directory if it is a decision)"
	case e.Kind == ports.KindSymlink:
		f.Message = "the entry is a symbolic link; links in the ADR directory are never followed," +
			" so the record it points at is not read (keep the file itself here)"
	case e.Kind == ports.KindDirectory:
		f.Message = "the entry is a directory named like a record; only files at the top level are read"
	case e.Kind == ports.KindOther:
		f.Message = "the entry is not a regular file (a FIFO, socket or device), so it is not read"
	case corpus.IsCandidateName(base):
		return adr.Finding{}, false
	default:
		f.Message = "the name looks like a decision record's but is not read: it " +
			strings.Join(nameProblems(base), "; it ") +
			`; rename it NNNN-slug.md (four or more digits, "-", a slug, lower-case ".md")`
	}
	return f, true
}

// hasHiddenSegment reports a path segment starting with ".".
func hasHiddenSegment(name string) bool {
	for seg := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

// markdownSuffix returns the Markdown suffix of name as written (".md",
// ".MD", ".markdown", ...), or "" when it has none.
func markdownSuffix(name string) string {
	lower := strings.ToLower(name)
	for _, s := range []string{".markdown", ".md"} {
		if strings.HasSuffix(lower, s) {
			return name[len(name)-len(s):]
		}
	}
	return ""
}

// adrPrefix returns the leading "adr" of name (any case) with one
// following separator, or "" when name does not start with one.
func adrPrefix(name string) string {
	if len(name) < 3 || !strings.EqualFold(name[:3], "adr") {
		return ""
	}
	if len(name) > 3 && strings.ContainsRune("-_ ", rune(name[3])) {
		return name[:4]
	}
	return name[:3]
}

// recordLikeName reports whether a base name looks like a numbered
// decision record written in Markdown.
func recordLikeName(base string) bool {
	if strings.HasPrefix(base, ".") || markdownSuffix(base) == "" {
		return false
	}
	rest := base[len(adrPrefix(base)):]
	return rest != "" && isDigit(rest[0])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// nameProblems says what keeps a record-like base name from matching
// NNNN-slug.md, each as a phrase that follows "it".
func nameProblems(base string) []string {
	var out []string
	rest := base
	if p := adrPrefix(rest); p != "" {
		out = append(out, "starts with "+strconv.Quote(p)+" before the number")
		rest = rest[len(p):]
	}
	n := 0
	for n < len(rest) && isDigit(rest[n]) {
		n++
	}
	if n < 4 {
		out = append(out, fmt.Sprintf("has a %d-digit number where at least four digits are needed (0001, not 1)", n))
	}
	rest = rest[n:]
	suffix := markdownSuffix(rest)
	mid := rest[:len(rest)-len(suffix)]
	switch {
	case mid == "" || mid == "-":
		out = append(out, "has no slug after the number")
	case mid[0] != '-':
		r, _ := utf8.DecodeRuneInString(mid)
		out = append(out, "separates the number from the slug with "+strconv.Quote(string(r))+` instead of "-"`)
	}
	if suffix != ".md" {
		out = append(out, "ends in "+strconv.Quote(suffix)+` where only lower-case ".md" is read`)
	}
	if len(out) == 0 {
		// The slug itself is the problem (a line break in the name).
		out = append(out, "holds characters a record name cannot have")
	}
	return out
}

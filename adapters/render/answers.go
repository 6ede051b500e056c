package render

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
	"github.com/adrkit/adrkit-go/domain/js/yaml12"
	"github.com/adrkit/adrkit-go/domain/lineage"
)

// The human renderers below take a whole answer (app.Service.Whole) and
// lay it out as a table. They print what the tool answered and nothing else;
// deciding exit statuses is the command's business.

// statusCell is a status coloured by what it means.
func statusCell(st Style, s adr.Status) cell {
	return paintedCell(string(s), func(t string) string { return st.Status(s, t) })
}

// header is a table header row in bold.
func header(st Style, names ...string) []cell {
	out := make([]cell, len(names))
	for i, n := range names {
		out[i] = paintedCell(n, st.Bold)
	}
	return out
}

// findingsNote is the closing line about the findings that came with an
// answer, or "" when there were none. The findings themselves are lint's
// to explain.
func findingsNote(st Style, fs []adr.Finding) string {
	if len(fs) == 0 {
		return ""
	}
	var e, w, i int
	for _, f := range fs {
		switch f.Severity {
		case adr.SeverityError:
			e++
		case adr.SeverityWarn:
			w++
		default:
			i++
		}
	}
	var parts []string
	if e > 0 {
		parts = append(parts, st.Severity(adr.SeverityError, counted(e, "error", "errors")))
	}
	if w > 0 {
		parts = append(parts, st.Severity(adr.SeverityWarn, counted(w, "warning", "warnings")))
	}
	if i > 0 {
		parts = append(parts, st.Severity(adr.SeverityInfo, counted(i, "info", "info")))
	}
	return st.Dim("Findings with this answer: ") + strings.Join(parts, ", ") + st.Dim(" (adrkit lint explains them).") + "\n"
}

// WriteSearch renders a whole search_decisions answer. An empty query
// is a listing (SearchInput.All): every record that passes the filters.
func WriteSearch(w io.Writer, r app.SearchResults, query string, snippets map[string]string, st Style) error {
	var b strings.Builder
	if query == "" {
		if len(r.Items) == 0 {
			b.WriteString("No decision passes the filters.\n")
		} else {
			t := table{width: st.width, yield: []int{3}, header: header(st, "ID", "STATUS", "TITLE", "PATH")}
			for _, it := range r.Items {
				t.add(paintedCell(it.ID, st.Bold), statusCell(st, it.Status), plainCell(it.Title), paintedCell(it.SourcePath, st.Dim))
			}
			b.WriteString(t.String())
			b.WriteString("\n" + counted(len(r.Items), "decision", "decisions") + ".\n")
		}
		b.WriteString(findingsNote(st, r.Findings.Items))
		return writeString(w, b.String())
	}
	if len(r.Items) == 0 {
		b.WriteString("No decision matches " + strconv.Quote(query) + ".\n")
	} else {
		t := table{width: st.width, yield: []int{4, 3}, header: header(st, "ID", "STATUS", "TITLE", "MATCHED IN", "PATH")}
		for _, it := range r.Items {
			t.add(paintedCell(it.ID, st.Bold), statusCell(st, it.Status), plainCell(it.Title),
				plainCell(strings.Join(it.MatchedFields, ",")), paintedCell(it.SourcePath, st.Dim))
			if snip := snippets[string(it.SourcePath)]; snip != "" {
				t.note(paintedCell(snip, st.Dim))
			}
		}
		b.WriteString(t.String())
		b.WriteString("\n" + counted(len(r.Items), "decision matches", "decisions match") + " " + strconv.Quote(query) + ".\n")
	}
	b.WriteString(findingsNote(st, r.Findings.Items))
	return writeString(w, b.String())
}

// WriteDecision renders a whole get_decision answer: the record in full
// when found, the candidates when the id is shared, and a sentence
// otherwise.
func WriteDecision(w io.Writer, result app.Outcome, st Style) error {
	var b strings.Builder
	switch r := result.(type) {
	case app.Found:
		writeFound(&b, r.Decision, st)
	case app.Ambiguous:
		writeCandidates(&b, r.RequestedRef, r.Candidates, st)
	default:
		if !writeUnresolved(&b, result, "show") {
			return fmt.Errorf("unexpected get_decision outcome %T", result)
		}
	}
	writeFindingsNote(&b, st, findingsOf(result))
	return writeString(w, b.String())
}

// WriteChain renders a whole get_supersession_chain answer: the line
// oldest first, the verdict with what to do, and any gaps in the older
// history. A ref that names no single local record is told as show tells
// it.
func WriteChain(w io.Writer, result app.Outcome, st Style) error {
	var b strings.Builder
	switch r := result.(type) {
	case app.ChainAnswer:
		writeLine(&b, r, st)
	case app.AmbiguousChain:
		writeCandidates(&b, r.RequestedRef, r.Candidates, st)
	default:
		if !writeUnresolved(&b, result, "follow") {
			return fmt.Errorf("unexpected get_supersession_chain outcome %T", result)
		}
	}
	writeFindingsNote(&b, st, findingsOf(result))
	return writeString(w, b.String())
}

// WriteAsk shows a person query_decision's answer: its sentence, then the
// candidates ranked.
func WriteAsk(w io.Writer, result app.Outcome, st Style) error {
	r, ok := result.(app.AskAnswer)
	if !ok {
		return fmt.Errorf("unexpected query_decision outcome %T", result)
	}
	var b strings.Builder
	b.WriteString(oneLine(r.Sentence()) + "\n")
	if len(r.Candidates) > 0 {
		t := table{width: st.width, header: header(st, "ID", "STATUS", "SCORE", "TITLE")}
		for _, c := range r.Candidates {
			t.add(paintedCell(c.ID, st.Bold), statusCell(st, c.Status), plainCell(strconv.FormatFloat(c.Score, 'f', 3, 64)), plainCell(c.Title))
		}
		b.WriteString("\n" + t.String())
	}
	return writeString(w, b.String())
}

// findingsOf returns the findings an answer of show or chain carried.
func findingsOf(result app.Outcome) []adr.Finding {
	switch r := result.(type) {
	case app.Found:
		return r.Findings.Items
	case app.Ambiguous:
		return r.Findings.Items
	case app.NotFound:
		return r.Findings.Items
	case app.Federated:
		return r.Findings.Items
	case app.ChainAnswer:
		return r.Findings.Items
	case app.AmbiguousChain:
		return r.Findings.Items
	}
	return nil
}

// writeFindingsNote closes an answer with its findings note, after a
// blank line, when there are findings.
func writeFindingsNote(b *strings.Builder, st Style, fs []adr.Finding) {
	if note := findingsNote(st, fs); note != "" {
		b.WriteString("\n" + note)
	}
}

// writeCandidates lists the records that share the requested id.
func writeCandidates(b *strings.Builder, ref string, cands []app.Summary, st Style) {
	b.WriteString("Several records use the id " + strconv.Quote(ref) + "; each needs an id of its own (adrkit lint reports it).\n\n")
	t := table{width: st.width, yield: []int{3}, header: header(st, "ID", "STATUS", "TITLE", "PATH")}
	for _, c := range cands {
		t.add(paintedCell(c.ID, st.Bold), statusCell(st, c.Status), plainCell(c.Title), paintedCell(c.SourcePath, st.Dim))
	}
	b.WriteString(t.String())
}

// writeUnresolved words the outcomes of a ref that names no local record
// (not-found, federated-log-unavailable); verb is what the command would
// have done with it. It reports whether result was one of them.
func writeUnresolved(b *strings.Builder, result app.Outcome, verb string) bool {
	switch r := result.(type) {
	case app.NotFound:
		if broken := brokenRecord(r.RequestedRef, findingsOf(result)); len(broken) > 0 {
			writeBroken(b, r.RequestedRef, broken)
			break
		}
		b.WriteString("No valid record has the id " + strconv.Quote(r.RequestedRef) +
			". (A record that fails validation is left out; adrkit lint lists those.)\n")
	case app.Federated:
		b.WriteString(strconv.Quote(r.RequestedRef) + " names a record in the decision log " + strconv.Quote(r.Log) +
			"; adrkit reads a single log, so it cannot " + verb + " it.\n")
	default:
		return false
	}
	return true
}

// writeLine prints a chain: one row per record with its signed hop, the
// verdict, then the gaps of the walk towards older records.
func writeLine(b *strings.Builder, r app.ChainAnswer, st Style) {
	t := table{width: st.width, yield: []int{5, 3}, header: header(st, "HOP", "ID", "STATUS", "DATE", "TITLE", "PATH")}
	for _, n := range r.Chain {
		hop := strconv.Itoa(n.Hop)
		if n.Hop > 0 {
			hop = "+" + hop
		}
		t.add(paintedCell(hop, st.Dim), paintedCell(n.ID, st.Bold), statusCell(st, n.Status),
			plainCell(n.Date), plainCell(n.Title), paintedCell(n.SourcePath, st.Dim))
	}
	b.WriteString(t.String() + "\n")
	switch v := r.Verdict.(type) {
	case app.ChainCurrent:
		b.WriteString(st.Good("Current:") + " " + v.Action + ".\n")
	case app.ChainHold:
		b.WriteString(st.Bad("Hold ("+string(v.Reason)+"):") + " " + v.Action + ".\n")
	}
	if len(r.Gaps) > 0 {
		b.WriteString("\n" + st.Dim("The older history has gaps:") + "\n")
		for _, g := range r.Gaps {
			b.WriteString("  " + string(g.At) + " → " + string(g.Ref) + ": " + gapText(g.Reason) + "\n")
		}
	}
}

// gapText says why the walk towards older records stopped there.
func gapText(r lineage.Reason) string {
	switch r {
	case lineage.Dangling:
		return "no record has this id"
	case lineage.Ambiguous:
		return "several records share this id"
	case lineage.NotObserved:
		return "in another decision log, not readable here"
	case lineage.Cycle:
		return "the replacements loop"
	case lineage.Truncated:
		return "more than 12 steps back; not followed"
	}
	return string(r)
}

// headerKeys are the frontmatter keys the heading of a shown record
// already displays.
var headerKeys = map[string]bool{"id": true, "title": true, "status": true}

// writeFound prints a record: a heading, its frontmatter fields one per
// row (in schema order), and the Markdown body verbatim.
func writeFound(b *strings.Builder, d app.Decision, st Style) {
	b.WriteString(st.Bold(string(d.ID)+" · "+oneLine(string(d.Title))) + "\n")
	b.WriteString(st.Status(d.Status, string(d.Status)) + st.Dim(" · "+string(d.SourcePath)) + "\n\n")
	t := table{width: st.width, indent: "  "}
	// JSON is YAML 1.2: read back, the text is the value it was written
	// from, members in order (yaml12's FuzzJSONIsYAML holds it to that).
	if v, err := yaml12.ParseValue(string(d.Frontmatter)); err == nil {
		fm, _ := v.(*jsvalue.Object)
		for _, k := range fm.Keys() {
			if headerKeys[k] {
				continue
			}
			v, _ := fm.Get(k)
			if arr, ok := v.([]any); ok && len(arr) == 0 {
				continue // an empty list says nothing worth a row
			}
			lines := valueLines(v)
			for i, l := range lines {
				name := ""
				if i == 0 {
					name = k
				}
				t.add(paintedCell(name, st.Dim), plainCell(l))
			}
		}
	}
	b.WriteString(t.String())
	body := strings.TrimLeft(d.Body, "\r\n")
	if body != "" {
		b.WriteString("\n" + body)
		if !strings.HasSuffix(body, "\n") {
			b.WriteString("\n")
		}
	}
}

// valueLines renders a frontmatter value as one or more lines: scalars as
// text, lists of scalars joined by commas, lists of objects one object a
// line, objects as "key: value" pairs.
func valueLines(v any) []string {
	arr, ok := v.([]any)
	if !ok {
		return []string{inlineValue(v)}
	}
	scalars := true
	for _, e := range arr {
		switch e.(type) {
		case []any, *jsvalue.Object:
			scalars = false
		}
	}
	if scalars {
		parts := make([]string, len(arr))
		for i, e := range arr {
			parts[i] = inlineValue(e)
		}
		return []string{strings.Join(parts, ", ")}
	}
	out := make([]string, len(arr))
	for i, e := range arr {
		out[i] = inlineValue(e)
	}
	return out
}

// inlineValue renders a value on one line. An affects matcher reads
// "path src/**" rather than "type: path; pattern: src/**".
func inlineValue(v any) string {
	switch x := v.(type) {
	case string:
		return oneLine(x)
	case *jsvalue.Object:
		typ, okT := x.Get("type")
		pat, okP := x.Get("pattern")
		ts, _ := typ.(string)
		ps, _ := pat.(string)
		var parts []string
		if okT && okP && ts != "" && ps != "" {
			parts = append(parts, ts+" "+oneLine(ps))
		}
		for _, k := range x.Keys() {
			if len(parts) > 0 && (k == "type" || k == "pattern") {
				continue
			}
			if neg, _ := x.Get(k); len(parts) > 0 && k == "negate" && neg == false {
				continue // the schema default on a matcher; only a negation is news
			}
			e, _ := x.Get(k)
			parts = append(parts, k+": "+inlineValue(e))
		}
		return strings.Join(parts, "; ")
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = inlineValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return string(jsvalue.AppendJSON(nil, v))
}

// WriteExplain is WriteContext for an answer that took "@adr" markers
// into account (rep is what the files declared; nil when none were
// read): a record a file declared shows where, and what could not be
// read or bound is said after the tables.
func WriteExplain(w io.Writer, m app.Matches, files []string, rep *app.MarkerReport, st Style) error {
	var b strings.Builder
	if m.Withheld {
		b.WriteString(withheldText(st, m.Findings.Items, files))
		b.WriteString(markerNotes(st, m.Findings.Items, rep))
		return writeString(w, b.String())
	}
	total := len(m.Governing) + len(m.ActiveProposals) + len(m.History)
	if total == 0 {
		if rep == nil {
			b.WriteString("No decision's affects patterns cover " + fileList(files) + ".\n")
		} else {
			b.WriteString("No decision covers " + fileList(files) + ": no affects pattern matches and no @adr marker declares one.\n")
		}
		b.WriteString(markerNotes(st, m.Findings.Items, rep))
		b.WriteString(findingsNote(st, m.Findings.Items))
		return writeString(w, b.String())
	}
	sections := []struct {
		title, empty string
		entries      []app.ContextEntry
	}{
		{"Governing (accepted)", "No accepted decision governs these files.", m.Governing},
		{"Active proposals (draft, proposed)", "No open proposal covers these files.", m.ActiveProposals},
		{"History (rejected, superseded, deprecated)", "No past decision covered these files.", m.History},
	}
	for i, s := range sections {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(st.Bold(s.title) + "\n")
		if len(s.entries) == 0 {
			b.WriteString("  " + st.Dim(s.empty) + "\n")
			continue
		}
		withRelations := false
		for _, e := range s.entries {
			if relationsText(e) != "" {
				withRelations = true
			}
		}
		names := []string{"ID", "STATUS", "TITLE", "MATCHED BY"}
		if withRelations {
			names = append(names, "RELATIONS")
		}
		t := table{width: st.width, indent: "  ", yield: []int{4}, header: header(st, names...)}
		for _, e := range s.entries {
			row := []cell{paintedCell(e.ID, st.Bold), statusCell(st, e.Status), plainCell(e.Title), plainCell(coveredBy(e))}
			if withRelations {
				row = append(row, paintedCell(relationsText(e), st.Dim))
			}
			t.add(row...)
		}
		b.WriteString(t.String())
	}
	b.WriteString("\n" + counted(total, "decision covers", "decisions cover") + " " + fileList(files) + ".\n")
	b.WriteString(markerNotes(st, m.Findings.Items, rep))
	b.WriteString(findingsNote(st, m.Findings.Items))
	return writeString(w, b.String())
}

// withheldText says why explain shows no decision for files: the
// corpus has errors, listed by file so that they can be fixed.
func withheldText(st Style, fs []adr.Finding, files []string) string {
	var errs []adr.Finding
	for _, f := range fs {
		if f.Severity == adr.SeverityError {
			errs = append(errs, f)
		}
	}
	var b strings.Builder
	b.WriteString("No decision is shown for " + fileList(files) + ": the corpus has " +
		st.Severity(adr.SeverityError, counted(len(errs), "error", "errors")) +
		", and explain answers only for a corpus without errors (adrkit lint explains each; fix the records and run it again).\n")
	for _, f := range errs {
		where := f.Path
		if where == "" {
			where = "(corpus)"
		}
		b.WriteString("  " + where + "  " + st.Severity(f.Severity, f.Rule) + "  " + st.Dim(f.Message) + "\n")
	}
	return b.String()
}

// relationsText summarises a context entry's relation fields. A draft's
// or a proposal's supersedes is what it would replace once accepted: what
// it names still governs (ADR 0045).
func relationsText(e app.ContextEntry) string {
	r := e.Relations
	var parts []string
	if r.SupersededBy != nil {
		parts = append(parts, "superseded by "+*r.SupersededBy)
	}
	switch {
	case len(r.Supersedes) > 0 && lineage.Pending(e.Status):
		parts = append(parts, "would supersede "+strings.Join(r.Supersedes, ", ")+" once accepted")
	case len(r.Supersedes) > 0:
		parts = append(parts, "supersedes "+strings.Join(r.Supersedes, ", "))
	}
	if len(r.ConflictsWith) > 0 {
		parts = append(parts, "conflicts with "+strings.Join(r.ConflictsWith, ", "))
	}
	if len(r.RelatesTo) > 0 {
		parts = append(parts, "relates to "+strings.Join(r.RelatesTo, ", "))
	}
	return strings.Join(parts, "; ")
}

// fileList names the files asked about: all of them when few, a count
// otherwise.
func fileList(files []string) string {
	if len(files) > 3 {
		return "the " + strconv.Itoa(len(files)) + " files"
	}
	q := make([]string, len(files))
	for i, f := range files {
		q[i] = strconv.Quote(f)
	}
	return strings.Join(q, ", ")
}

// WriteSuperseded renders a whole list_superseded answer.
func WriteSuperseded(w io.Writer, e app.Entries, st Style) error {
	var b strings.Builder
	if len(e.Items) == 0 {
		b.WriteString("No decision is superseded.\n")
	} else {
		t := table{width: st.width, yield: []int{3}, header: header(st, "ID", "TITLE", "REPLACED BY", "PATH")}
		for _, it := range e.Items {
			t.add(paintedCell(it.ID, st.Bold), plainCell(it.Title), replacementCell(st, it.SupersededBy), paintedCell(it.SourcePath, st.Dim))
		}
		b.WriteString(t.String())
		b.WriteString("\n" + counted(len(e.Items), "superseded decision", "superseded decisions") + ".\n")
	}
	b.WriteString(findingsNote(st, e.Findings.Items))
	return writeString(w, b.String())
}

// replacementCell says what a superseded record's replacement is.
func replacementCell(st Style, target any) cell {
	switch t := target.(type) {
	case app.TargetResolved:
		return plainCell(string(t.Target.ID) + " " + string(t.Target.Title) + " (" + string(t.Target.Status) + ")")
	case app.TargetDangling:
		return paintedCell(string(t.TargetRef)+" (no record has this id)", func(s string) string { return st.Severity(adr.SeverityError, s) })
	case app.TargetAmbiguous:
		return paintedCell(string(t.TargetRef)+" ("+strconv.Itoa(t.CandidateCount)+" records share this id)", func(s string) string { return st.Severity(adr.SeverityWarn, s) })
	case app.TargetFederated:
		return paintedCell(string(t.TargetRef)+" (in the "+strconv.Quote(string(t.Log))+" log, not readable here)", st.Dim)
	}
	return plainCell("?")
}

// brokenRecord is the error findings of the file that would hold ref had
// it read as a record: the findings naming that id, or a file of the ADR
// directory numbered so (NNNN-slug.md), so that show can say which file
// and what is wrong instead of "no such record".
func brokenRecord(ref string, fs []adr.Finding) []adr.Finding {
	var out []adr.Finding
	for _, f := range fs {
		if f.Severity != adr.SeverityError || f.Path == "" {
			continue
		}
		if f.ID == ref || strings.HasPrefix(path.Base(f.Path), ref+"-") {
			out = append(out, f)
		}
	}
	return out
}

// writeBroken says which file holds the id and why it is not a record.
func writeBroken(b *strings.Builder, ref string, broken []adr.Finding) {
	files := []string{}
	for _, f := range broken {
		if !slices.Contains(files, f.Path) {
			files = append(files, f.Path)
		}
	}
	for _, file := range files {
		b.WriteString(strconv.Quote(ref) + " is in " + file + ", which is not read as a record:\n")
		for _, f := range broken {
			if f.Path != file {
				continue
			}
			where := ""
			if f.Line > 0 {
				where = "line " + strconv.Itoa(f.Line) + ": "
			}
			b.WriteString("  " + where + oneLine(f.Message) + " (" + f.Rule + ")\n")
		}
	}
	b.WriteString("Fix the file, then adrkit lint checks it.\n")
}

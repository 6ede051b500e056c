// Package migrate plans the adoption of an existing ADR folder: it
// recognises decisions written in the common formats (adr-tools/Nygard,
// MADR 2.x, 3 and 4, log4brains), and plans for each file the adrkit
// frontmatter to put in front of it, the id it gets, its status and
// relations, and what a person should know (warnings).
//
// It is pure: the caller reads the files and writes what the plan says.
// The plan is a function of the files' names and bytes alone: the same
// folder gives the same plan, byte for byte.
package migrate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
	"github.com/adrkit/adrkit-go/domain/js/yaml12"
)

// Format is an ADR format migrate reads.
type Format string

// The formats, as --from names them.
const (
	// FormatNygard is Michael Nygard's template as adr-tools writes it:
	// "# 1. Title", "Date: ...", a "## Status" section with link lines.
	FormatNygard Format = "nygard"
	// FormatMADR is Markdown Architectural Decision Records: 2.x with
	// "* Status:" bullets, 3 and 4 with YAML frontmatter.
	FormatMADR Format = "madr"
	// FormatLog4brains is log4brains' MADR-based template in
	// date-prefixed files (20200925-slug.md).
	FormatLog4brains Format = "log4brains"
)

// Formats lists the formats in the order help names them.
var Formats = []Format{FormatNygard, FormatMADR, FormatLog4brains}

// sourceKind is the provenance sourceKind of a format: the schema knows
// MADR by name; anything else is "other".
func (f Format) sourceKind() string {
	if f == FormatNygard {
		return "other"
	}
	return "madr"
}

// File is one Markdown file at the top level of the ADR directory.
type File struct {
	// Name is the file's name; Path its display path (repository-relative).
	Name, Path string
	Content    []byte
	// HistoryDate is the day (YYYY-MM-DD) the file was first committed,
	// when the caller knows it: the date of a decision that names none.
	HistoryDate string
}

// Options configures a plan.
type Options struct {
	// From reads every decision as this format; "" recognises each file's
	// format on its own.
	From Format
	// Rename plans renaming decision files to <id>-<slug>.md where their
	// name is not that already.
	Rename bool
}

// Action is what the plan does with a file.
type Action string

// The actions.
const (
	// ActionMigrate writes adrkit frontmatter in front of the file.
	ActionMigrate Action = "migrate"
	// ActionUnchanged leaves a file that is already a valid record.
	ActionUnchanged Action = "unchanged"
	// ActionSkip leaves a file that is not a decision (README, index,
	// templates, files without a number).
	ActionSkip Action = "skip"
	// ActionFail is a decision that cannot be migrated; Reason says why.
	ActionFail Action = "fail"
)

// FilePlan is the plan for one file.
type FilePlan struct {
	Path   string `json:"path"`
	Action Action `json:"action"`
	// Format is the format the decision was read as.
	Format Format `json:"format,omitempty"`
	ID     string `json:"id,omitempty"`
	Title  string `json:"title,omitempty"`
	// Status is the status written; SourceStatus what the source said.
	Status       adr.Status `json:"status,omitempty"`
	SourceStatus string     `json:"sourceStatus,omitempty"`
	Date         string     `json:"date,omitempty"`
	Deciders     []string   `json:"deciders,omitempty"`
	Consulted    []string   `json:"consulted,omitempty"`
	Informed     []string   `json:"informed,omitempty"`
	Tags         []string   `json:"tags,omitempty"`
	Supersedes   []string   `json:"supersedes,omitempty"`
	SupersededBy string     `json:"supersededBy,omitempty"`
	RelatesTo    []string   `json:"relatesTo,omitempty"`
	// RenameTo is the display path the file is renamed to.
	RenameTo string `json:"renameTo,omitempty"`
	// Reason says why a file is skipped or failed.
	Reason   string   `json:"reason,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Content is the file's new bytes (frontmatter, then the body
	// unchanged), for ActionMigrate.
	Content []byte `json:"-"`
}

// Plan is the plan for a folder: one FilePlan per Markdown file, in file
// name order.
type Plan struct {
	Files []FilePlan `json:"files"`
}

// Count returns how many files have action a.
func (p *Plan) Count(a Action) int {
	n := 0
	for _, f := range p.Files {
		if f.Action == a {
			n++
		}
	}
	return n
}

// MaxRecordBytes is the reader's size cap: a record larger than this is
// left out of the corpus, so migrate will not write one.
const MaxRecordBytes = corpus.MaxRecordBytes

// item is one file while it is planned.
type item struct {
	file   File
	plan   *FilePlan
	number string // the number its name starts with
	sig    *signals
	kept   *adr.Record // an already valid record
	format Format

	supBy              *ref
	idWarn, relWarn    []string // warnings of the id and relation passes
	ownSupBy, ownSup   []*item
	ownRel             []*item
	mutualRel          []*item  // relatesTo targets whose reverse is implied
	keptSupBy, keptSup []string // relations of a kept record
}

// ref is a resolved relation target.
type ref struct{ it *item }

// Build plans the migration of files, the Markdown files at the top level
// of one ADR directory.
func Build(files []File, opts Options) *Plan {
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b File) int { return jsstring.Compare(a.Name, b.Name) })
	p := &Plan{Files: make([]FilePlan, len(files))}
	items := make([]*item, len(files))
	for i, f := range files {
		p.Files[i] = FilePlan{Path: f.Path}
		items[i] = &item{file: f, plan: &p.Files[i]}
		classify(items[i], opts)
	}
	assignIDs(items)
	for {
		resolveRelations(items)
		failed := false
		for _, it := range items {
			if it.plan.Action == ActionMigrate && it.plan.Content == nil {
				if !write(it, items, opts) {
					failed = true
				}
			}
		}
		if !failed {
			break
		}
		// A file that failed late may be another's target: plan the
		// relations again without it.
		for _, it := range items {
			if it.plan.Action == ActionMigrate {
				it.plan.Content = nil
			}
		}
	}
	return p
}

// classify decides whether a file is a decision and reads it.
func classify(it *item, opts Options) {
	name := it.file.Name
	number, why := decisionNumber(name)
	if why != "" {
		if IsTemplateName(name) && corpus.IsCandidateName(name) && name != "0000-template.md" {
			// Left alone by migrate and lint, but discovery reads the name
			// as a record's: the MCP tools count it as a file left out.
			why += "; lint leaves it alone too, but the MCP tools read a name like " + name + " as a record's and count it as a file left out (0000-template.md and template.md are not read)"
		}
		it.plan.Action, it.plan.Reason = ActionSkip, why
		return
	}
	it.number = number
	text := jsstring.DecodeUTF8(it.file.Content)
	if rec, _ := frontmatter.ParseRecord(it.file.Path, text); rec != nil {
		it.kept = rec
		it.plan.Action, it.plan.ID, it.plan.Title, it.plan.Status = ActionUnchanged, rec.Frontmatter.ID, rec.Frontmatter.Title, rec.Frontmatter.Status
		it.plan.Reason = "already an adrkit record"
		it.keptSup = rec.Frontmatter.Supersedes
		if rec.Frontmatter.SupersededBy != "" {
			it.keptSupBy = []string{rec.Frontmatter.SupersededBy}
		}
		return
	}
	if adrkitFrontmatter(text) {
		it.plan.Action = ActionFail
		it.plan.Reason = "its frontmatter is adrkit's (an adrkit id, or keys only adrkit uses) but not valid; adrkit lint says what to fix"
		return
	}
	sig := readSignals(string(it.file.Content))
	it.sig = sig
	it.format = detect(sig, name, opts.From)
	it.plan.Action, it.plan.Format = ActionMigrate, it.format
}

// FileNumber returns the number a decision's file name starts with (after
// an optional "adr" prefix, any case); ok is false for names that are not
// numbered decisions (README.md, templates, other files).
func FileNumber(name string) (number string, ok bool) {
	n, why := decisionNumber(name)
	return n, why == ""
}

// decisionNumber returns the number a decision's file name starts with
// (after an optional "adr" prefix), or why the file is not a decision.
func decisionNumber(name string) (number, why string) {
	lower := strings.ToLower(name)
	if !strings.HasSuffix(lower, ".md") && !strings.HasSuffix(lower, ".markdown") {
		return "", "not a Markdown file"
	}
	rest := name
	if len(rest) >= 3 && strings.EqualFold(rest[:3], "adr") {
		rest = strings.TrimLeft(rest[3:], "-_ ")
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if IsTemplateName(name) {
		return "", "a template, not a decision"
	}
	if n == 0 {
		return "", "not numbered, so not a decision (README, index and notes are left alone)"
	}
	return rest[:n], ""
}

// IsTemplateName reports the name of an ADR template kept beside the
// decisions: an unnumbered name with "template" in it (template.md,
// adr-template.md), or a numbered one whose slug is just "template" or
// whose number is zero (0000-template.md, ADR000-template.md,
// 0000-adr-template.md). A numbered decision about templates
// (0009-extension-template.md) is a decision.
func IsTemplateName(name string) bool {
	lower := strings.ToLower(name)
	if !strings.Contains(lower, "template") {
		return false
	}
	rest := lower
	if strings.HasPrefix(rest, "adr") {
		rest = strings.TrimLeft(rest[3:], "-_ ")
	}
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	if digits == 0 {
		return true
	}
	slug := strings.TrimLeft(rest[digits:], "-_ .")
	slug = strings.TrimSuffix(strings.TrimSuffix(slug, ".md"), ".markdown")
	return slug == "template" || strings.Trim(rest[:digits], "0") == ""
}

// adrkitOnlyKeys are frontmatter keys only adrkit's schema uses.
var adrkitOnlyKeys = []string{"schemaVersion", "supersededBy", "relatesTo", "conflictsWith", "affects", "assertions",
	"provenance", "review", "evaluation", "externalRefs", "complianceControls", "reviewBy", "blastRadius", "reversibility"}

// adrkitFrontmatter reports a frontmatter block that is adrkit's own,
// valid or not: it has a key only adrkit uses, or an adrkit id ("0042";
// a site generator's "id: adr-001" is not one).
func adrkitFrontmatter(text string) bool {
	parts, err := frontmatter.Split(text)
	if err != nil {
		return false
	}
	v, err := yaml12.ParseValue(parts.YAML)
	if err != nil {
		return false
	}
	obj, ok := v.(*jsvalue.Object)
	if !ok {
		return false
	}
	if id, _ := obj.Get("id"); id != nil {
		if s, ok := id.(string); ok && adr.ValidID(s) {
			return true
		}
	}
	for _, k := range adrkitOnlyKeys {
		if obj.Has(k) {
			return true
		}
	}
	return false
}

// detect names a decision's format.
func detect(sig *signals, name string, from Format) Format {
	_, dated := nameDate(name)
	switch {
	case from != "":
		return from
	case sig.frontmatter && !sig.toml:
		return FormatMADR
	case sig.statusSection:
		return FormatNygard
	case dated:
		return FormatLog4brains
	case sig.headerFields, sig.madrHeadings:
		return FormatMADR
	}
	return FormatNygard
}

// assignIDs gives every decision to migrate its id: the number its file
// name starts with (zero-padded to four digits). Where several files
// would share an id (log4brains' dates, a number used twice), or an
// existing record holds it already, each of them gets the number followed
// by its position among them, in file name order, two digits or more
// (20200925 → 2020092501, 2020092502), skipping ids already in use. The
// rule depends on the names alone, so it is deterministic.
func assignIDs(items []*item) {
	used := map[string]bool{}
	groups := map[string][]*item{}
	var order []string
	for _, it := range items {
		switch {
		case it.kept != nil:
			used[it.kept.Frontmatter.ID] = true
		case it.plan.Action == ActionMigrate:
			id := it.number
			if len(id) < 4 {
				id = strings.Repeat("0", 4-len(id)) + id
			}
			if groups[id] == nil {
				order = append(order, id)
			}
			groups[id] = append(groups[id], it)
		}
	}
	var shared []string
	for _, id := range order {
		if len(groups[id]) == 1 && !used[id] {
			groups[id][0].plan.ID = id
			used[id] = true
			continue
		}
		shared = append(shared, id)
	}
	for _, id := range shared {
		members := groups[id]
		width := max(2, len(strconv.Itoa(len(members))))
		seq := 0
		for _, it := range members {
			for {
				seq++
				cand := id + fmt.Sprintf("%0*d", width, seq)
				if !used[cand] && groups[cand] == nil {
					it.plan.ID = cand
					used[cand] = true
					break
				}
			}
			var why string
			switch others := len(members) - 1; others {
			case 0:
				why = "an existing record already has the id " + id
			case 1:
				why = "another file also starts with the number " + id
			default:
				why = fmt.Sprintf("%d other files also start with the number %s", others, id)
			}
			it.idWarn = append(it.idWarn, "id "+it.plan.ID+" instead of "+id+": "+why)
		}
	}
}

// decision reports whether it ends as a record: migrated or kept.
func (it *item) decision() bool {
	return it.kept != nil || it.plan.Action == ActionMigrate
}

func (it *item) id() string {
	if it.kept != nil {
		return it.kept.Frontmatter.ID
	}
	return it.plan.ID
}

// resolveRelations turns every migrating decision's links into the
// decisions they name, and works out supersededBy from both sides.
func resolveRelations(items []*item) {
	byName := map[string]*item{}
	byNumber := map[string][]*item{}
	byID := map[string]*item{}
	for _, it := range items {
		byName[it.file.Name] = it
		if it.decision() {
			n := strings.TrimLeft(it.number, "0")
			byNumber[n] = append(byNumber[n], it)
			byID[it.id()] = it
		}
	}
	for _, it := range items {
		it.ownSupBy, it.ownSup, it.ownRel, it.mutualRel, it.supBy, it.relWarn = nil, nil, nil, nil, nil, nil
		if it.plan.Action != ActionMigrate {
			continue
		}
		for _, l := range it.sig.links {
			target, why, note := resolve(l, byName, byNumber)
			if target == it {
				why = "it refers to the decision itself"
			}
			if why != "" {
				it.relWarn = append(it.relWarn, fmt.Sprintf("%q is not written as a relation: %s", l.text, why))
				continue
			}
			if note != "" {
				it.relWarn = append(it.relWarn, note)
			}
			switch l.rel {
			case relSupersededBy:
				it.ownSupBy = appendOnce(it.ownSupBy, target)
			case relSupersedes:
				it.ownSup = appendOnce(it.ownSup, target)
			default:
				it.ownRel = appendOnce(it.ownRel, target)
				if l.mutual {
					it.mutualRel = appendOnce(it.mutualRel, target)
				}
			}
		}
	}
	// supersededBy: the decision's own word first, then what others say.
	for _, it := range items {
		if it.plan.Action != ActionMigrate {
			continue
		}
		cands := slices.Clone(it.ownSupBy)
		for _, other := range items {
			if other.plan.Action == ActionMigrate && slices.Contains(other.ownSup, it) {
				cands = appendOnce(cands, other)
			}
			if other.kept != nil && slices.Contains(other.keptSup, it.id()) {
				cands = appendOnce(cands, other)
			}
		}
		if len(cands) > 0 {
			it.supBy = &ref{cands[0]}
			for _, c := range cands[1:] {
				it.relWarn = append(it.relWarn, "also said to be superseded by "+c.id()+"; supersededBy is "+cands[0].id())
			}
		}
	}
}

// resolve finds the decision a link names: a link by its file name in
// this directory (or, when no file has that name, by the one number its
// text names, which note reports), a number by the one decision whose
// name starts with it. why says why nothing is found.
func resolve(l link, byName map[string]*item, byNumber map[string][]*item) (target *item, why, note string) {
	if l.target != "" {
		href := l.target
		if i := strings.IndexAny(href, "#?"); i >= 0 {
			href = href[:i]
		}
		if strings.Contains(href, "://") || strings.HasPrefix(href, "mailto:") {
			return nil, "it links outside the ADR directory", ""
		}
		if u, err := url.PathUnescape(href); err == nil {
			href = u
		}
		base := path.Base(href)
		target = byName[base]
		if target == nil {
			// A link to a name the folder no longer has (renamed, or
			// mistyped) whose text names the decision by number:
			// "Superseded by [ADR028](ADR028-old-name.md)".
			missing := "there is no file " + strconv.Quote(base) + " in the ADR directory"
			m := numberRef.FindAllStringSubmatch(l.text, -1)
			if len(m) != 1 {
				return nil, missing, ""
			}
			c := byNumber[strings.TrimLeft(m[0][1], "0")]
			if len(c) != 1 {
				return nil, missing, ""
			}
			target = c[0]
			note = fmt.Sprintf("%q links to %s, which is not in the ADR directory; its number names %s, which is used", l.text, base, target.file.Name)
		}
	} else {
		n := strings.TrimLeft(l.number, "0")
		switch c := byNumber[n]; len(c) {
		case 0:
			return nil, "no decision is numbered " + l.number, ""
		case 1:
			target = c[0]
		default:
			return nil, fmt.Sprintf("%d decisions are numbered %s", len(c), l.number), ""
		}
	}
	switch {
	case target.plan.Action == ActionSkip:
		return nil, target.file.Name + " is not a decision", ""
	case !target.decision():
		return nil, target.file.Name + " cannot be migrated", ""
	}
	return target, "", note
}

func appendOnce(list []*item, it *item) []*item {
	if slices.Contains(list, it) {
		return list
	}
	return append(list, it)
}

// write builds the record and the file's new content; false when the
// file turned out not to be writable (it is then failed).
func write(it *item, items []*item, opts Options) bool {
	p, sig := it.plan, it.sig
	p.Warnings = append(slices.Clone(it.idWarn), it.relWarn...)
	p.Warnings = append(p.Warnings, sig.notes...)
	if sig.yamlProblem != "" {
		p.Warnings = append(p.Warnings, sig.yamlProblem+"; it is kept as comments and the decision is read from the text")
	}
	if sig.bom {
		p.Warnings = append(p.Warnings, `the byte-order mark at its start is dropped: a record begins with its "---" line`)
	}
	fm := &adr.Frontmatter{ID: p.ID}
	fm.Title = title(it)
	if utf16Len(fm.Title) < 3 {
		p.Action, p.Reason = ActionFail, "no title of at least three characters (a # heading, a title key or a slug in the file name)"
		return false
	}
	fm.Status = status(it)
	fm.Date = date(it)
	var others [roleCount][]string
	lists := [roleCount]*[]string{&fm.Deciders, &fm.Consulted, &fm.Informed}
	for r := range roleCount {
		*lists[r], others[r] = people(sig.people[r])
		for _, o := range others[r] {
			where := "it stays in the text"
			if sig.peopleFromYAML[r] {
				where = "it stays in the original frontmatter, kept as a comment"
			}
			p.Warnings = append(p.Warnings, fmt.Sprintf("%s %q is not an @handle, team:slug or email address, so it is not listed in %s (%s)",
				strings.TrimSuffix(roleFields[r], "s"), o, roleFields[r], where))
		}
	}
	var badTags []string
	fm.Tags, badTags = tags(sig.tags)
	for _, t := range badTags {
		p.Warnings = append(p.Warnings, fmt.Sprintf("tag %q is not a lower-case slug, so it is left out of tags", t))
	}
	if it.supBy != nil {
		fm.SupersededBy = it.supBy.it.id()
	}
	seen := map[string]bool{}
	add := func(list *[]string, target *item) {
		if id := target.id(); !seen[id] && target != it {
			seen[id] = true
			*list = append(*list, id)
		}
	}
	for _, t := range it.ownSup {
		add(&fm.Supersedes, t)
		if t.kept != nil && t.kept.Frontmatter.SupersededBy != p.ID {
			p.Warnings = append(p.Warnings, t.file.Name+" is already an adrkit record and is left alone: mark it superseded by "+p.ID+" yourself")
		}
	}
	for _, other := range items {
		if other != it && other.plan.Action == ActionMigrate && other.supBy != nil && other.supBy.it == it {
			add(&fm.Supersedes, other)
		}
		if other.kept != nil && slices.Contains(other.keptSupBy, p.ID) {
			add(&fm.Supersedes, other)
		}
	}
	seen = map[string]bool{}
	for _, t := range it.ownRel {
		add(&fm.RelatesTo, t)
	}
	for _, other := range items {
		if other.plan.Action == ActionMigrate && slices.Contains(other.mutualRel, it) {
			add(&fm.RelatesTo, other)
		}
	}
	fm.Provenance = &adr.Provenance{ImportedFrom: &adr.ImportedFrom{
		SourceKind:  it.format.sourceKind(),
		SourceRef:   string(it.format) + ":" + it.file.Path,
		Fingerprint: fingerprint(it.file.Content),
	}}
	raw := string(it.file.Content)
	newline := "\n"
	if i := strings.IndexByte(raw, '\n'); i > 0 && raw[i-1] == '\r' {
		newline = "\r\n"
	}
	comment := ""
	if sig.frontmatter {
		comment = keptComment(sig.yamlText)
	}
	block, err := frontmatter.Marshal(fm, newline, comment)
	if err != nil {
		p.Action, p.Reason = ActionFail, "its frontmatter cannot be written: "+err.Error()
		return false
	}
	content := append(block, sig.body...)
	if len(content) > MaxRecordBytes {
		p.Action, p.Reason = ActionFail, "with its frontmatter it would be larger than the 64 KiB a record may have"
		return false
	}
	p.Title, p.Status, p.Date = fm.Title, fm.Status, fm.Date
	p.Deciders, p.Consulted, p.Informed, p.Tags = fm.Deciders, fm.Consulted, fm.Informed, fm.Tags
	p.Supersedes, p.SupersededBy, p.RelatesTo = fm.Supersedes, fm.SupersededBy, fm.RelatesTo
	if !planName(it, items, opts) {
		return false
	}
	p.Content = content
	return true
}

// fingerprint is the provenance fingerprint of a source: the SHA-256 of
// its bytes as they were before migrate, in hex.
func fingerprint(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

// keptComment is a MADR frontmatter kept, line by line, as comments: the
// schema is strict, so site keys (Jekyll's parent, nav_order) and names
// that are not identities cannot stay as keys, but nothing is lost.
func keptComment(yamlText string) string {
	lines := strings.Split(strings.TrimRight(yamlText, "\r\n"), "\n")
	var b strings.Builder
	b.WriteString("Original frontmatter, kept as comments by adrkit migrate:")
	for _, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		l = strings.Map(func(r rune) rune {
			if r == '\r' || r == '\u0085' || r == '\u2028' || r == '\u2029' {
				return ' '
			}
			return r
		}, l)
		b.WriteString("\n" + l)
	}
	return b.String()
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

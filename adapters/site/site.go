// Package site builds the decision browser, a static site of the corpus
// for people (adrkit site, docs/site.md): an index with filters, a page
// per decision, the relation graph as SVG, a "what governs this path?"
// box, corpus health and the change feed. Build is a pure function of
// its input: the same corpus gives the same bytes, and no path of the
// machine enters them.
package site

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"maps"
	"net/url"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/lineage"
	"github.com/adrkit/adrkit-go/domain/scaffold"
	"github.com/adrkit/adrkit-go/internal/parallel"
)

//go:embed templates/*.html assets/*
var files embed.FS

// Options are the site-wide choices of one build.
type Options struct {
	// Title heads every page; "" is DefaultTitle.
	Title string
	// BaseURL, when set, is where the site will be published: pages get a
	// canonical link and the site a sitemap.xml. Links between pages stay
	// relative either way, so the site also works from file://.
	BaseURL string
	// Source says where the corpus was read, in words without machine
	// paths (e.g. "docs/adr at HEAD").
	Source string
}

// DefaultTitle is the title of a site built without --title.
const DefaultTitle = "Architecture decisions"

// Files is a built site: slash-separated relative paths to their bytes.
type Files map[string][]byte

// Names lists the files' paths in byte order.
func (f Files) Names() []string { return slices.Sorted(maps.Keys(f)) }

// pages are the page templates, parsed on first use: every command of
// the binary links this package, and only site needs them.
var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{"join": strings.Join, "count": count}).ParseFS(files, "templates/*.html"))
})

// decision is one record as its pages show it.
type decision struct {
	Rec   *adr.Record
	FM    *adr.Frontmatter
	Page  string // site-relative: decisions/0001-x.html
	Href  string // Page as a relative URL (a name may hold "#", "?", spaces...)
	Index int
}

// Build renders the whole site for s.
func Build(s *app.Site, o Options) (Files, error) {
	if o.Title == "" {
		o.Title = DefaultTitle
	}
	b := &builder{s: s, o: o, out: Files{}, byRecord: map[*adr.Record]*decision{}}
	for i, r := range s.Projection.Records {
		d := &decision{Rec: r, FM: r.Frontmatter, Page: pageOf(r), Index: i}
		d.Href = hrefOf(d.Page)
		b.decisions = append(b.decisions, d)
		b.byRecord[r] = d
	}
	b.incident = make([][]int, len(s.Graph.Nodes))
	for i, e := range s.Graph.Edges {
		b.incident[e.From] = append(b.incident[e.From], i)
		if e.To != e.From {
			b.incident[e.To] = append(b.incident[e.To], i)
		}
	}
	for _, name := range []string{"site.css", "site.js", "governs.js"} {
		data, err := files.ReadFile("assets/" + name)
		if err != nil {
			return nil, fmt.Errorf("reading the embedded %s: %w", name, err)
		}
		b.out["assets/"+name] = data
	}
	steps := []func() error{b.index, b.decisionPages, b.graph, b.paths, b.health, b.changes, b.sitemap}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return b.out, nil
}

type builder struct {
	s         *app.Site
	o         Options
	out       Files
	decisions []*decision
	byRecord  map[*adr.Record]*decision
	// incident are, per graph node, the indices of the edges that touch
	// it.
	incident [][]int
}

// pageOf is a record's page: its file name with .html for .md. Records
// are top-level files of one directory, so the names are unique.
func pageOf(r *adr.Record) string { return pageOfPath(r.SourcePath) }

func pageOfPath(sourcePath string) string {
	return "decisions/" + strings.TrimSuffix(path.Base(sourcePath), ".md") + ".html"
}

// hrefOf is a site-relative page as a relative URL: each segment
// escaped, so that a record file named "0004-c#-or-f#?.md" links to its
// page rather than to a fragment.
func hrefOf(page string) string {
	segs := strings.Split(page, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// frame is what every page's layout needs.
type frame struct {
	Site      string
	Title     string
	Root      string // "" or "../": from the page to the site's root
	Menu      []menuItem
	Canonical string
	Source    string
	Scripts   []string
	Body      any
}

func (b *builder) render(name, page, title, nav string, scripts []string, body any) error {
	data, err := b.page(name, page, title, nav, scripts, body)
	if err != nil {
		return err
	}
	b.out[page] = data
	return nil
}

// page executes template name for page; it only reads the builder, so
// pages may be made at once.
func (b *builder) page(name, page, title, nav string, scripts []string, body any) ([]byte, error) {
	root := strings.Repeat("../", strings.Count(page, "/"))
	f := frame{Site: b.o.Title, Title: title, Root: root, Source: b.o.Source, Body: body, Menu: make([]menuItem, len(menu))}
	for i, m := range menu {
		f.Menu[i] = menuItem{Href: root + m.page, Label: m.label, Current: m.nav == nav}
	}
	if b.o.BaseURL != "" {
		f.Canonical = strings.TrimSuffix(b.o.BaseURL, "/") + "/" + hrefOf(page)
	}
	for _, s := range scripts {
		f.Scripts = append(f.Scripts, root+s)
	}
	var buf bytes.Buffer
	if err := pages().ExecuteTemplate(&buf, name, f); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", page, err)
	}
	return buf.Bytes(), nil
}

// menuItem is one entry of the site's navigation.
type menuItem struct {
	Href, Label string
	Current     bool
}

// menu is the site's navigation, in order.
var menu = []struct{ nav, page, label string }{
	{"index", "index.html", "Decisions"},
	{"graph", "graph.html", "Graph"},
	{"paths", "paths.html", "What governs a path?"},
	{"health", "health.html", "Health"},
	{"changes", "changes.html", "Changes"},
}

// row is one decision of the index.
type row struct {
	ID, Title, Status, Date, Page string
	Deciders, Tags                []string
	// TagKey is the tags joined with "|" between and around, for the tag
	// filter.
	TagKey string
}

type indexBody struct {
	Rows     []row
	Statuses []string
	Tags     []string
	Errors   int
	Warnings int
}

func (b *builder) index() error {
	body := indexBody{Errors: b.s.Lint.Count(adr.SeverityError), Warnings: b.s.Lint.Count(adr.SeverityWarn)}
	statuses := map[string]bool{}
	tags := map[string]bool{}
	for _, d := range b.decisions {
		fm := d.FM
		r := row{
			ID: fm.ID, Title: fm.Title, Status: string(fm.Status), Date: fm.Date, Page: d.Href,
			Deciders: fm.Deciders, Tags: fm.Tags, TagKey: "|" + strings.Join(fm.Tags, "|") + "|",
		}
		body.Rows = append(body.Rows, r)
		statuses[string(fm.Status)] = true
		for _, t := range fm.Tags {
			tags[t] = true
		}
	}
	body.Statuses = statusesIn(statuses)
	body.Tags = sortedKeys(tags)
	// The search box's index, one entry per row: what adrkit search
	// matches, normalised at build time. A script, not JSON to fetch (a
	// page opened from file:// may not fetch); json.Marshal escapes <, >
	// and &, so the text cannot end the script early.
	texts := make([][]string, len(b.decisions))
	for i, d := range b.decisions {
		texts[i] = app.SearchTexts(d.Rec)
	}
	js, err := json.Marshal(texts)
	if err != nil {
		return fmt.Errorf("encoding the search index: %w", err)
	}
	b.out["assets/search-data.js"] = []byte("window.adrkitSearch = " + string(js) + ";\n")
	return b.render("index.html", "index.html", b.o.Title, "index", []string{"assets/search-data.js", "assets/site.js"}, body)
}

// statusesIn lists the statuses set in m, in the lifecycle's order.
func statusesIn(m map[string]bool) []string {
	var out []string
	for _, st := range adr.Statuses {
		if m[string(st)] {
			out = append(out, string(st))
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string { return slices.SortedFunc(maps.Keys(m), jsstring.Compare) }

// link is a reference shown on a page: to a record's page, or a ref this
// corpus does not hold.
type link struct {
	Href, ID, Title, Status string
	// Missing says why there is no page ("not in this corpus", "in
	// another log").
	Missing string
}

type relationGroup struct {
	Label string
	Links []link
}

type chainView struct {
	Nodes   []chainNode
	Current bool
	Verdict string
	Reason  string
	Action  string
	Gaps    []string
	// Ambiguous: the id is shared, so there is no single chain.
	Ambiguous bool
}

type chainNode struct {
	L    link
	Hop  int
	Self bool
}

type field struct {
	Name  string
	Value string
	List  []string
}

type matcherView struct {
	Type, Pattern, Repo string
	Negate              bool
}

type decisionBody struct {
	D         *decision
	Status    string
	Fields    []field
	YAML      string
	Relations []relationGroup
	Chain     chainView
	Affects   []matcherView
	HTML      template.HTML
	Findings  []findingView
	// Leftovers are the prompts of adrkit new's body the record still
	// holds (scaffold.TemplateText).
	Leftovers []scaffold.Leftover
	// Graph is the decision's neighbourhood: itself and the decisions it
	// relates to, either way ("" when it relates to none).
	Graph template.HTML
}

func (b *builder) decisionPages() error {
	pagesMap := b.recordPages()
	out := make([][]byte, len(b.decisions))
	errs := make([]error, len(b.decisions))
	// Pages are independent: each worker renders with a Markdown
	// converter of its own.
	mds := make([]*markdown, runtime.GOMAXPROCS(0))
	parallel.For(len(b.decisions), 16, func(w, i int) bool {
		if mds[w] == nil {
			mds[w] = newMarkdown(pagesMap)
		}
		out[i], errs[i] = b.decisionPage(mds[w], b.decisions[i])
		return errs[i] == nil
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for i, d := range b.decisions {
		b.out[d.Page] = out[i]
	}
	return nil
}

func (b *builder) decisionPage(md *markdown, d *decision) ([]byte, error) {
	html, err := md.render(d.Rec)
	if err != nil {
		return nil, fmt.Errorf("rendering the body of %s: %w", d.Rec.SourcePath, err)
	}
	body := decisionBody{
		D: d, Status: string(d.FM.Status), Fields: fieldsOf(d.FM), YAML: d.FM.YAML,
		Relations: b.relations(d), Chain: b.chain(d), HTML: template.HTML(html),
		Leftovers: scaffold.TemplateText(d.Rec.Body),
	}
	if near := neighbourhood(b.s.Graph, d.Index, b.incident[d.Index]); len(near.Nodes) > 1 {
		body.Graph = template.HTML(graphSVG(near, "../", 0, nil))
	}
	for _, m := range d.FM.Affects {
		body.Affects = append(body.Affects, matcherView{Type: string(m.Type), Pattern: m.Pattern, Repo: m.Repo, Negate: m.Negate})
	}
	for _, f := range b.s.Lint.Findings {
		if f.Path == d.Rec.SourcePath {
			body.Findings = append(body.Findings, b.findingOf(f, "../"))
		}
	}
	return b.page("decision.html", d.Page, d.FM.ID+" "+d.FM.Title, "", nil, body)
}

// recordPages maps each record file's repository path to its page, for
// the Markdown links between records.
func (b *builder) recordPages() map[string]string {
	m := make(map[string]string, len(b.decisions))
	for _, d := range b.decisions {
		m[d.Rec.SourcePath] = d.Page
	}
	return m
}

func fieldsOf(fm *adr.Frontmatter) []field {
	var out []field
	add := func(name, v string) {
		if v != "" {
			out = append(out, field{Name: name, Value: v})
		}
	}
	list := func(name string, v []string) {
		if len(v) > 0 {
			out = append(out, field{Name: name, List: v})
		}
	}
	add("Status", statusLabel(string(fm.Status)))
	add("Date", fm.Date)
	add("Created", fm.Created)
	list("Deciders", fm.Deciders)
	list("Consulted", fm.Consulted)
	list("Informed", fm.Informed)
	list("Tags", fm.Tags)
	add("Scope", string(fm.Scope))
	add("Domain", fm.Domain)
	add("Reversibility", fm.Reversibility)
	add("Blast radius", fm.BlastRadius)
	add("Review by", fm.ReviewBy)
	list("Compliance controls", fm.ComplianceControls)
	add("Schema version", fm.SchemaVersion)
	return out
}

// relations lists the record's relations both ways, from the graph (a
// relation declared at either end, resolved as the corpus resolves it).
func (b *builder) relations(d *decision) []relationGroup {
	g := b.s.Graph
	groups := []relationGroup{
		{Label: "Supersedes"}, {Label: "Superseded by"}, {Label: "Relates to"}, {Label: "Conflicts with"},
	}
	for _, e := range g.Edges {
		var other, slot int
		switch {
		case e.From == d.Index:
			other = e.To
		case e.To == d.Index:
			other = e.From
		default:
			continue
		}
		switch e.Kind {
		case app.EdgeSupersedes:
			slot = 0
			if e.To == d.Index {
				slot = 1
			}
		case app.EdgeRelatesTo:
			slot = 2
		default:
			slot = 3
		}
		groups[slot].Links = append(groups[slot].Links, b.linkTo(g.Nodes[other], "../"))
	}
	return groups
}

// linkTo is a link to graph node n from a page root away from the root.
func (b *builder) linkTo(n app.GraphNode, root string) link {
	if n.Unknown {
		why := "not in this corpus"
		if n.Log != "" {
			why = "in the decision log " + strconv.Quote(n.Log)
		}
		return link{ID: n.Ref, Missing: why}
	}
	return link{Href: root + hrefOf(pageOfPath(n.SourcePath)),
		ID: n.ID, Title: n.Title, Status: string(n.Status)}
}

func (b *builder) chain(d *decision) chainView {
	c, ok := b.s.Chains[d.Rec]
	if !ok {
		return chainView{Ambiguous: true}
	}
	v := chainView{Current: c.Verdict == lineage.Current, Verdict: string(c.Verdict), Reason: string(c.Reason), Action: c.Action}
	for _, n := range c.Nodes {
		nd := b.byRecord[n.Record]
		fm := n.Record.Frontmatter
		v.Nodes = append(v.Nodes, chainNode{
			L:   link{Href: "../" + nd.Href, ID: fm.ID, Title: fm.Title, Status: string(fm.Status)},
			Hop: n.Hop, Self: n.Record == d.Rec,
		})
	}
	for _, g := range c.Gaps {
		v.Gaps = append(v.Gaps, fmt.Sprintf("%s: %s could not be followed (%s)", g.At.Frontmatter.ID, g.Ref, g.Reason))
	}
	return v
}

type graphBody struct {
	SVG            template.HTML
	Edges          []edgeView
	Empty          bool
	Statuses, Tags []string
}

type edgeView struct {
	From, To link
	Kind     string
}

func (b *builder) graph() error {
	g := b.s.Graph
	tags := make([][]string, len(g.Nodes))
	statuses, tagSet := map[string]bool{}, map[string]bool{}
	for i, d := range b.decisions {
		tags[i] = d.FM.Tags
		statuses[string(d.FM.Status)] = true
		for _, t := range d.FM.Tags {
			tagSet[t] = true
		}
	}
	body := graphBody{SVG: template.HTML(graphSVG(g, "", -1, tags)), Empty: len(g.Nodes) == 0,
		Statuses: statusesIn(statuses), Tags: sortedKeys(tagSet)}
	for _, e := range g.Edges {
		body.Edges = append(body.Edges, edgeView{From: b.linkTo(g.Nodes[e.From], ""), To: b.linkTo(g.Nodes[e.To], ""), Kind: edgeWords[e.Kind]})
	}
	return b.render("graph.html", "graph.html", "Graph", "graph", []string{"assets/site.js"}, body)
}

var edgeWords = map[app.EdgeKind]string{
	app.EdgeSupersedes:    "supersedes",
	app.EdgeRelatesTo:     "relates to",
	app.EdgeConflictsWith: "conflicts with",
}

// governsData is what the path box's script reads (assets/governs-data.js):
// explain's rules need each record's status and path matchers only.
type governsData struct {
	Withheld bool              `json:"withheld"`
	Records  []governsRecord   `json:"records"`
	Statuses map[string]string `json:"buckets"`
}

type governsRecord struct {
	ID       string           `json:"id"`
	Title    string           `json:"title"`
	Status   string           `json:"status"`
	Href     string           `json:"href"`
	Matchers []governsMatcher `json:"matchers"`
}

type governsMatcher struct {
	Pattern   string `json:"pattern"`
	Source    string `json:"source,omitempty"`
	AllowsDot bool   `json:"allowsDot,omitempty"`
	Negate    bool   `json:"negate,omitempty"`
}

func (b *builder) paths() error {
	data := governsData{Withheld: b.s.Withheld, Records: []governsRecord{}, Statuses: map[string]string{}}
	for _, st := range adr.Statuses {
		data.Statuses[string(st)] = bucketNames[st.Bucket()]
	}
	for i, d := range b.decisions {
		r := governsRecord{ID: d.FM.ID, Title: d.FM.Title, Status: string(d.FM.Status), Href: d.Href, Matchers: []governsMatcher{}}
		for _, m := range b.s.Matchers[i] {
			if m.Source == "" {
				continue // never matches: a bad pattern (lint reports it)
			}
			r.Matchers = append(r.Matchers, governsMatcher{Pattern: m.Pattern, Source: m.Source, AllowsDot: m.AllowsDot, Negate: m.Negate})
		}
		if len(r.Matchers) > 0 {
			data.Records = append(data.Records, r)
		}
	}
	js, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("encoding the path rules: %w", err)
	}
	// The data is a script, not JSON to fetch: a page opened from file://
	// may not fetch its neighbours. json.Marshal escapes <, > and &, so
	// the text cannot end the script early.
	b.out["assets/governs-data.js"] = []byte("window.adrkitGoverns = " + string(js) + ";\n")
	return b.render("paths.html", "paths.html", "What governs this path?", "paths",
		[]string{"assets/governs-data.js", "assets/governs.js"}, struct{ Withheld bool }{b.s.Withheld})
}

// bucketNames are the names of explain's buckets, as get_decision_context
// spells them.
var bucketNames = map[adr.Bucket]string{
	adr.BucketGoverning:       "governing",
	adr.BucketActiveProposals: "activeProposals",
	adr.BucketHistory:         "history",
}

type findingView struct {
	Severity, Rule, Message, ID, Path, Field, Pattern, Page string
	Line                                                    int
}

// findingOf lays out f for a page root away from the site's root.
func (b *builder) findingOf(f adr.Finding, root string) findingView {
	v := findingView{Severity: string(f.Severity), Rule: f.Rule, Message: f.Message, ID: f.ID, Path: f.Path, Field: f.Field, Pattern: f.Pattern, Line: f.Line}
	for _, d := range b.decisions {
		if d.Rec.SourcePath == f.Path {
			v.Page = root + d.Href
			break
		}
	}
	return v
}

type healthBody struct {
	Records, Excluded, Skipped int
	Errors, Warnings, Infos    int
	AsOf                       string
	Findings                   []findingView
}

func (b *builder) health() error {
	rep := b.s.Lint
	body := healthBody{
		Records: rep.RecordCount, Excluded: rep.ExcludedCount, Skipped: rep.SkippedCount, AsOf: rep.AsOf,
		Errors: rep.Count(adr.SeverityError), Warnings: rep.Count(adr.SeverityWarn), Infos: rep.Count(adr.SeverityInfo),
	}
	for _, f := range rep.Findings {
		body.Findings = append(body.Findings, b.findingOf(f, ""))
	}
	return b.render("health.html", "health.html", "Corpus health", "health", nil, body)
}

type changeView struct {
	Kind, ID, Title, Status, Path, FromPath, Before, After, Cause, Commit, Date, Page string
}

func (b *builder) changeOf(it app.ChangeItem) changeView {
	v := changeView{
		Kind: string(it.Kind), ID: string(it.ID), Title: string(it.Title), Status: string(it.Status),
		Path: string(it.SourcePath), FromPath: string(it.FromPath), Before: string(it.Before), After: string(it.After),
		Cause: string(it.Cause), Commit: it.Commit, Date: it.CommittedAt,
	}
	if len(v.Commit) > 12 {
		v.Commit = v.Commit[:12]
	}
	for _, d := range b.decisions {
		if d.Rec.SourcePath == v.Path {
			v.Page = d.Href
			break
		}
	}
	return v
}

type changesBody struct {
	Unavailable string
	Items       []changeView
}

func (b *builder) changes() error {
	var body changesBody
	switch {
	case b.s.Changes != nil:
		// Newest commit first; a commit's changes in the feed's order.
		items := b.s.Changes.Items
		for end := len(items); end > 0; {
			start := end - 1
			for start > 0 && items[start-1].Commit == items[end-1].Commit {
				start--
			}
			for _, it := range items[start:end] {
				body.Items = append(body.Items, b.changeOf(it))
			}
			end = start
		}
	case b.s.HistoryMessage != "":
		body.Unavailable = b.s.HistoryMessage
	default:
		body.Unavailable = "The change history was not read for this site."
	}
	return b.render("changes.html", "changes.html", "Changes", "changes", nil, body)
}

func (b *builder) sitemap() error {
	if b.o.BaseURL == "" {
		return nil
	}
	base := strings.TrimSuffix(b.o.BaseURL, "/") + "/"
	var buf bytes.Buffer
	buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, n := range b.out.Names() {
		if strings.HasSuffix(n, ".html") {
			buf.WriteString("  <url><loc>")
			template.HTMLEscape(&buf, []byte(base+hrefOf(n)))
			buf.WriteString("</loc></url>\n")
		}
	}
	buf.WriteString("</urlset>\n")
	b.out["sitemap.xml"] = buf.Bytes()
	return nil
}

// count is "1 error" or "2 errors": a number and the word that agrees.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// statusLabel is a status as a person reads it.
func statusLabel(s string) string {
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

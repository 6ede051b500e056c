package migrate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
	"github.com/adrkit/adrkit-go/domain/js/yaml12"

	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// relation is what a link between two decisions declares.
type relation int

const (
	relSupersededBy relation = iota
	relSupersedes
	relRelates
)

// link is one reference from a decision to another, as the source wrote
// it: a Markdown link to the other file, or a number in the text
// ("superseded by ADR-0123").
type link struct {
	rel relation
	// target is the link's href; "" for a reference by number.
	target string
	// number is the digits of a reference by number.
	number string
	// text is the reference as written, for messages.
	text string
	// mutual says a relatesTo goes both ways: the adrs tool writes a link
	// in one file's frontmatter, and its reverse is implied.
	mutual bool
}

// Roles of the people a source names, in schema order.
const (
	roleDeciders = iota
	roleConsulted
	roleInformed
	roleCount
)

var roleFields = [roleCount]string{"deciders", "consulted", "informed"}

// signals is what a source file says about its decision, before any of
// it is interpreted.
type signals struct {
	title string
	// titleFromFrontmatter is a title key of a MADR frontmatter.
	titleFromFrontmatter string
	// statuses are the status texts found, in order (a status section
	// can list a history), cleaned of Markdown.
	statuses []string
	// statusText is the status as the source wrote it, line by line.
	statusText []string
	// reverted and partly are status lines that say the decision was
	// reverted ("Reverted by ADR-5") or partly replaced ("Partly
	// superseded by [7. X](0007-x.md)"), as written, for the warnings.
	reverted, partly []string
	// notes are what reading the source left unread or moved, for the
	// plan's warnings.
	notes []string
	// date is the frontmatter's date key; headerDate the "Date:" line of
	// the text (adr-tools, MADR 2.x bullets).
	date, headerDate string
	people           [roleCount][]string
	// peopleFromYAML says which roles the frontmatter named.
	peopleFromYAML [roleCount]bool
	tags           []string
	links          []link

	// frontmatter says the file starts with a (non-adrkit) front matter
	// block: YAML between "---" lines, or a site generator's TOML between
	// "+++" lines (toml); yamlText is its text, body what follows the
	// closing fence.
	frontmatter, toml bool
	yamlText          string
	body              string
	// madrYAML says the frontmatter holds a decision's metadata (MADR 3/4:
	// status or people), not only a site generator's keys; its date then
	// wins over a "Date:" line of the text.
	madrYAML bool
	// bom says the file started with a byte-order mark, which a record
	// cannot keep: its first line must be the "---" fence.
	bom bool
	// yamlProblem says why the frontmatter could not be read as YAML; its
	// text is then kept as comments and the body read on its own.
	yamlProblem string

	statusSection bool // a "## Status" section (Nygard, adr-tools)
	headerFields  bool // "* Status:"-style lines before the first section (MADR 2.x, log4brains)
	madrHeadings  bool // MADR's section names
}

var (
	// mdLink is a Markdown inline link: text, href, optional title. The
	// text holds no bracket, so in "[Superseded by [ADR-2](2.md)] Title"
	// the inner link is the one matched.
	mdLink      = lazyregexp.New(`\[([^\[\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	htmlComment = lazyregexp.New(`<!--.*?(?:-->|$)`)
	// numberRef is a decision number in text: ADR-0123, ADR0123, ADR 12,
	// #12, 0012.
	numberRef = lazyregexp.New(`(?i)(?:\badr[-_ ]?|#|\b)([0-9]+)\b`)
	// textSuperseded is a status that names its successor without a link.
	textSuperseded = lazyregexp.New(`(?i)^(superseded|superceded|superseeded|replaced)[:\s]+by\b[:\s]*(.*)$`)
	textSupersedes = lazyregexp.New(`(?i)^(supersedes|supercedes|replaces)\b[:\s]*(.*)$`)
	// textReverted and textPartly are statuses that keep a relation but
	// are not supersession: a decision reverted by another, one that
	// another replaced in part.
	textReverted = lazyregexp.New(`(?i)^reverted\b(?:\s+by\b)?[:\s]*(.*)$`)
	// headerRelation is a header line that names a relation, not a field.
	headerRelation = lazyregexp.New(`(?i)^(?:superseded|superceded|supersedes|supercedes|replaced|replaces|amended|amends|reverted|partly|partially)\b`)
	textPartly     = lazyregexp.New(`(?i)^(?:(?:partly|partially|partial|in part)\s+(?:superseded|superceded|replaced)|(?:superseded|superceded|replaced)\s+(?:in part|partly|partially))\b(?:\s+by\b)?[:\s]*(.*)$`)
	fenceLine      = lazyregexp.New("^ {0,3}(```|~~~)")
	atxHeading     = lazyregexp.New(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$`)
	setextUnder    = lazyregexp.New(`^ {0,3}=+[ \t]*$`)
	bulletPrefix   = lazyregexp.New(`^\s*(?:[*+-]|\d+[.)])\s+`)
	// quotePrefix is a block quote's marks: "> **Superseded by ...**".
	quotePrefix = lazyregexp.New(`^\s*(?:>\s*)+`)
)

// madrSections are section names only MADR-style templates use.
var madrSections = []string{"context and problem statement", "considered options", "decision outcome", "decision drivers", "pros and cons of the options"}

// cleanText removes what Markdown puts around a short value: HTML
// comments, link syntax (the text stays), code ticks and emphasis.
func cleanText(s string) string {
	s = htmlComment.ReplaceAllString(s, "")
	s = mdLink.ReplaceAllString(s, "$1")
	s = strings.NewReplacer("`", "", "**", "", "__", "").Replace(s)
	s = strings.TrimSpace(s)
	return strings.TrimSpace(strings.Trim(s, "*_"))
}

// bomText is the UTF-8 byte-order mark.
const bomText = "\uFEFF"

// readSignals reads a source file's text.
func readSignals(text string) *signals {
	s := &signals{}
	if strings.HasPrefix(text, bomText) {
		s.bom, text = true, text[len(bomText):]
	}
	s.body = text
	if parts, err := frontmatter.Split(text); err == nil {
		s.frontmatter, s.yamlText, s.body = true, parts.YAML, parts.Body
		if err := s.readYAML(jsstring.DecodeUTF8([]byte(parts.YAML))); err != nil {
			s.yamlProblem = err.Error()
		}
	} else if fm, body, ok := splitTOML(text); ok {
		s.frontmatter, s.toml, s.yamlText, s.body = true, true, fm, body
		s.titleFromFrontmatter = tomlTitle(fm)
		s.noteSiteKeys(tomlKeys(fm))
	}
	s.readMarkdown(jsstring.DecodeUTF8([]byte(s.body)))
	return s
}

// splitTOML splits off the TOML front matter Hugo and Zola sites put
// between two "+++" lines: its text, and what follows the closing line.
func splitTOML(text string) (fm, body string, ok bool) {
	first, rest, found := strings.Cut(text, "\n")
	if !found || strings.TrimRight(first, "\r") != "+++" {
		return "", "", false
	}
	for p := 0; p < len(rest); {
		line, _, more := strings.Cut(rest[p:], "\n")
		if strings.TrimRight(line, "\r") == "+++" {
			end := p + len(line)
			if more {
				end++
			}
			return rest[:p], rest[end:], true
		}
		if !more {
			break
		}
		p += len(line) + 1
	}
	return "", "", false
}

// tomlString is a TOML title key with a basic or literal string value.
var tomlString = lazyregexp.New(`^title\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(?:#.*)?$`)

// tomlKey is a top-level "key = value" line of TOML front matter.
var tomlKey = lazyregexp.New(`^([A-Za-z0-9_-]+)\s*=`)

// tomlKeys are the top-level keys of a TOML front matter other than
// title, and the tables ("[extra]"), in order.
func tomlKeys(fm string) []string {
	var keys []string
	table := false
	for _, line := range strings.Split(fm, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = true
			keys = append(keys, strings.Trim(line, "[] "))
			continue
		}
		if m := tomlKey.FindStringSubmatch(line); m != nil && !table && m[1] != "title" {
			keys = append(keys, m[1])
		}
	}
	return keys
}

// tomlTitle is the title key of a TOML front matter, "" when it has none.
func tomlTitle(fm string) string {
	for _, line := range strings.Split(fm, "\n") {
		m := tomlString.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		if m[2] != "" {
			return m[2]
		}
		return strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\t`, " ").Replace(m[1])
	}
	return ""
}

// readYAML reads the metadata of a MADR 3/4 frontmatter block.
func (s *signals) readYAML(text string) error {
	v, err := yaml12.ParseValue(text)
	if err != nil {
		return fmt.Errorf("its frontmatter is not valid YAML: %v", err)
	}
	obj, ok := v.(*jsvalue.Object)
	if !ok {
		if v == nil {
			return nil
		}
		return fmt.Errorf("its frontmatter is not a YAML mapping")
	}
	str := func(key string) string {
		x, _ := obj.Get(key)
		switch x := x.(type) {
		case string:
			return x
		case float64:
			return string(jsvalue.AppendNumber(nil, x))
		}
		return ""
	}
	list := func(key string) []string {
		x, _ := obj.Get(key)
		switch x := x.(type) {
		case string:
			return []string{x}
		case []any:
			var out []string
			for _, it := range x {
				if s, ok := it.(string); ok {
					out = append(out, s)
				}
			}
			return out
		}
		return nil
	}
	if st := str("status"); st != "" {
		s.statusLine(st)
	}
	s.date = str("date")
	s.titleFromFrontmatter = str("title")
	s.people[roleDeciders] = append(list("deciders"), list("decision-makers")...)
	s.people[roleConsulted] = list("consulted")
	s.people[roleInformed] = list("informed")
	for r := range roleCount {
		s.peopleFromYAML[r] = len(s.people[r]) > 0
	}
	for _, k := range []string{"status", "deciders", "decision-makers", "consulted", "informed"} {
		if obj.Has(k) {
			s.madrYAML = true
		}
	}
	s.tags = list("tags")
	if x, ok := obj.Get("links"); ok {
		s.yamlLinks(x)
	}
	var other []string
	for _, k := range obj.Keys() {
		if !slices.Contains(readKeys, k) {
			other = append(other, k)
		}
	}
	s.noteSiteKeys(other)
	return nil
}

// readKeys are the frontmatter keys migrate reads into the record, and
// the adrs tool's number, which the file name repeats.
var readKeys = []string{"title", "status", "date", "deciders", "decision-makers", "consulted", "informed", "tags", "links", "number"}

// noteSiteKeys reports the front matter keys that end up only in the
// comments: a site generator that reads them (Docusaurus' id and
// sidebar_label, Jekyll's parent and nav_order, Hugo's weight) no longer
// sees them, so the site's configuration needs attention.
func (s *signals) noteSiteKeys(keys []string) {
	if len(keys) == 0 {
		return
	}
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	them := plural(len(keys), "it", "them")
	s.notes = append(s.notes, "the front matter "+plural(len(keys), "key ", "keys ")+strings.Join(q, ", ")+
		plural(len(keys), " is kept only as a comment", " are kept only as comments")+" (adrkit's schema allows no other keys): if a site generator reads "+
		them+" (Docusaurus' id and sidebar_label, Jekyll's nav_order, Hugo's weight), set "+them+" in the site's configuration")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// adrsKinds maps the link kinds of the adrs tool's frontmatter
// ("links: [{target: 2, kind: supersedes}]"), folded to lower case without
// dashes, spaces or underscores (it writes "supersededby", people write
// "superseded-by"), to relations.
var adrsKinds = map[string]relation{
	"supersedes": relSupersedes, "supercedes": relSupersedes,
	"supersededby": relSupersededBy, "supercededby": relSupersededBy,
	"amends": relRelates, "amendedby": relRelates, "relatesto": relRelates,
}

// foldKind folds a link kind for adrsKinds.
func foldKind(kind string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToLower(kind))
}

// yamlLinks reads a frontmatter links list as the adrs tool writes it:
// each entry a target (a decision's number, or its file name) and a kind.
// A kind adrs does not define becomes relatesTo; an entry that cannot be
// read is reported, never dropped silently.
func (s *signals) yamlLinks(v any) {
	items, ok := v.([]any)
	if !ok {
		s.notes = append(s.notes, "the frontmatter's links is not a list, so no relation is read from it (it stays in the comments)")
		return
	}
	for i, it := range items {
		obj, ok := it.(*jsvalue.Object)
		var target, kind string
		if ok {
			t, _ := obj.Get("target")
			switch t := t.(type) {
			case float64:
				target = string(jsvalue.AppendNumber(nil, t))
			case string:
				target = strings.TrimSpace(t)
			}
			k, _ := obj.Get("kind")
			kind, _ = k.(string)
		}
		if target == "" || kind == "" {
			s.notes = append(s.notes, fmt.Sprintf("links entry %d has no target and kind, so it is not read (it stays in the comments)", i+1))
			continue
		}
		rel, known := adrsKinds[foldKind(kind)]
		text := kind + " " + target
		if !known {
			rel = relRelates
			s.notes = append(s.notes, fmt.Sprintf("the link kind %q is not one adrkit has a field for; %s is written as relatesTo", kind, target))
		}
		l := link{rel: rel, text: text, mutual: rel == relRelates}
		if strings.Trim(target, "0123456789") == "" {
			l.number = target
		} else {
			l.target = target
		}
		s.links = append(s.links, l)
	}
}

// readMarkdown reads the title, the header fields, the status section
// and the links of a Markdown text. Fenced code is never read.
func (s *signals) readMarkdown(text string) {
	lines := strings.Split(text, "\n")
	inFence, fence := false, ""
	section := "" // current section heading, lower case; "" before the first
	haveYAML := [roleCount]bool{}
	for r := range roleCount {
		haveYAML[r] = len(s.people[r]) > 0
	}
	yamlStatus := len(s.statuses) > 0
	for i, raw := range lines {
		line := strings.TrimSuffix(raw, "\r")
		if m := fenceLine.FindStringSubmatch(line); m != nil {
			switch {
			case !inFence:
				inFence, fence = true, m[1]
			case m[1] == fence:
				inFence = false
			}
			continue
		}
		if inFence {
			continue
		}
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			heading := cleanText(strings.TrimRight(m[2], "# \t"))
			if len(m[1]) == 1 {
				if s.title == "" && section == "" {
					s.title = heading
				}
				continue
			}
			section = strings.ToLower(heading)
			if section == "status" {
				s.statusSection = true
			}
			for _, name := range madrSections {
				if section == name {
					s.madrHeadings = true
				}
			}
			continue
		}
		if s.title == "" && section == "" && strings.TrimSpace(line) != "" && i+1 < len(lines) &&
			setextUnder.MatchString(strings.TrimSuffix(lines[i+1], "\r")) {
			s.title = cleanText(line)
			continue
		}
		switch {
		case section == "":
			s.headerField(line, yamlStatus, haveYAML)
		case section == "status":
			if !yamlStatus {
				s.statusLine(line)
			}
		case strings.HasPrefix(section, "links") || strings.HasPrefix(section, "related"):
			s.linkLine(line)
		}
	}
}

// undated is text without the dates in it ("Superseded: 2019-12-19 by
// ADR 14" → "Superseded: by ADR 14"): a date is when, and its digits are
// not a decision's number.
func undated(text string) string {
	return strings.Join(strings.Fields(verbDate.ReplaceAllString(text, " ")), " ")
}

// lineBody is a line without the block quote and list marks in front.
func lineBody(line string) string {
	return bulletPrefix.ReplaceAllString(quotePrefix.ReplaceAllString(line, ""), "")
}

// headerField reads a "Key: value" line before the first section: the
// bullets of MADR 2.x and log4brains, adr-tools' "Date:" line.
func (s *signals) headerField(line string, haveStatus bool, havePeople [roleCount]bool) {
	body := lineBody(line)
	if plain := cleanText(body); headerRelation.MatchString(plain) {
		// A relation among the header lines, next to the date:
		// "Superseded: 2019-12-19 by [ADR 14](0014-x.md)". Only a
		// supersession, a revert or a partial one: prose that starts with
		// "Replaced ..." stays prose.
		locs := mdLink.FindAllStringSubmatchIndex(body, -1)
		switch {
		case textReverted.MatchString(plain) || textPartly.MatchString(plain):
			s.statusLine(body)
			return
		case len(locs) == 0 && (textSuperseded.MatchString(undated(plain)) || textSupersedes.MatchString(undated(plain))):
			s.linkLine(body)
			return
		case len(locs) > 0:
			if rel := relationOf(cleanText(body[:locs[0][0]])); rel == relSupersededBy || rel == relSupersedes {
				s.linkLine(body)
				return
			}
		}
	}
	key, value, ok := strings.Cut(body, ":")
	if !ok {
		return
	}
	key = strings.ToLower(strings.TrimSpace(strings.Trim(strings.TrimSpace(key), "*_`")))
	value = strings.TrimSpace(strings.TrimLeft(value, "*_ \t"))
	switch key {
	case "status":
		s.headerFields = true
		if !haveStatus {
			s.statusLine(value)
		}
	case "date":
		s.headerFields = true
		if s.headerDate == "" {
			s.headerDate = value
		}
	case "deciders", "decision-makers", "decision makers":
		s.headerFields = true
		if !havePeople[roleDeciders] {
			s.people[roleDeciders] = append(s.people[roleDeciders], value)
		}
	case "consulted":
		if !havePeople[roleConsulted] {
			s.people[roleConsulted] = append(s.people[roleConsulted], value)
		}
	case "informed":
		if !havePeople[roleInformed] {
			s.people[roleInformed] = append(s.people[roleInformed], value)
		}
	case "tags":
		s.tags = append(s.tags, value)
	}
}

// statusLine reads one line of a status: a status word, a status wrapped
// in a link ("[Deprecated](https://...)"), a supersession with or
// without a link ("Superceded by [3. X](0003-x.md)", "superseded by
// ADR-0123"), or another link ("Amended by [...](...)").
func (s *signals) statusLine(line string) {
	text := strings.TrimSpace(htmlComment.ReplaceAllString(lineBody(line), ""))
	if text == "" {
		return
	}
	locs := mdLink.FindAllStringSubmatchIndex(text, -1)
	if plain := cleanText(text); textReverted.MatchString(plain) || textPartly.MatchString(plain) {
		// Neither makes the decision superseded: a reverted one is
		// deprecated, a partly replaced one still holds in part. The
		// decision named is a relation.
		s.statusText = append(s.statusText, plain)
		m := textPartly.FindStringSubmatch(plain)
		if m != nil {
			s.partly = append(s.partly, plain)
		} else {
			m = textReverted.FindStringSubmatch(plain)
			s.reverted = append(s.reverted, plain)
			s.statuses = append(s.statuses, "reverted")
		}
		switch {
		case len(locs) > 0:
			s.addLinks(text, locs, relRelates)
		default:
			if n := numberRef.FindStringSubmatch(undated(m[1])); n != nil {
				s.links = append(s.links, link{rel: relRelates, number: n[1], text: plain})
			}
		}
		return
	}
	if verb := cleanText(text); len(locs) == 0 || locs[0][0] == 0 || relationOf(cleanText(text[:locs[0][0]])) == relSupersededBy {
		s.statusText = append(s.statusText, verb)
	}
	if len(locs) == 0 {
		plain := cleanText(text)
		if m := textSuperseded.FindStringSubmatch(undated(plain)); m != nil {
			s.statuses = append(s.statuses, "superseded")
			if n := numberRef.FindStringSubmatch(m[2]); n != nil {
				s.links = append(s.links, link{rel: relSupersededBy, number: n[1], text: plain})
			}
			return
		}
		if m := textSupersedes.FindStringSubmatch(undated(plain)); m != nil {
			if n := numberRef.FindStringSubmatch(m[2]); n != nil {
				s.links = append(s.links, link{rel: relSupersedes, number: n[1], text: plain})
			}
			return
		}
		s.statuses = append(s.statuses, plain)
		return
	}
	verb := cleanText(text[:locs[0][0]])
	if verb == "" {
		// The whole status is a link: its text is the status.
		s.statuses = append(s.statuses, cleanText(text))
		return
	}
	rel := relationOf(verb)
	if rel == relRelates {
		// "Accepted, amended by [...](...)", "Accepted (supersedes
		// [...](...))": a status word, then the verb of the links.
		if word, rest, ok := statusPrefix(verb); ok {
			s.statuses = append(s.statuses, word)
			s.statusText = append(s.statusText, word)
			rel = relationOf(rest)
			// "Accepted, partly superseded by [...]", "Accepted, reverted
			// by [...]": the words after the status say what the links are.
			switch plain := cleanText(text); {
			case textPartly.MatchString(rest):
				s.partly = append(s.partly, plain)
			case textReverted.MatchString(rest):
				s.reverted = append(s.reverted, plain)
				s.statuses = append(s.statuses, "reverted")
			}
		}
	}
	if rel == relSupersededBy {
		s.statuses = append(s.statuses, "superseded")
	}
	s.addLinks(text, locs, rel)
}

// linkLine reads a line of a "Links" section: "* Supersedes [...](...)".
func (s *signals) linkLine(line string) {
	text := strings.TrimSpace(htmlComment.ReplaceAllString(lineBody(line), ""))
	locs := mdLink.FindAllStringSubmatchIndex(text, -1)
	if len(locs) == 0 {
		plain := cleanText(text)
		for _, re := range []struct {
			re  *lazyregexp.Regexp
			rel relation
		}{{textSuperseded, relSupersededBy}, {textSupersedes, relSupersedes}} {
			if m := re.re.FindStringSubmatch(undated(plain)); m != nil {
				if n := numberRef.FindStringSubmatch(m[2]); n != nil {
					s.links = append(s.links, link{rel: re.rel, number: n[1], text: plain})
				}
			}
		}
		return
	}
	verb := cleanText(text[:locs[0][0]])
	if verb == "" {
		return
	}
	s.addLinks(text, locs, relationOf(verb))
}

func (s *signals) addLinks(text string, locs [][]int, rel relation) {
	for _, l := range locs {
		s.links = append(s.links, link{rel: rel, target: text[l[4]:l[5]], text: cleanText(text[l[0]:l[1]])})
	}
}

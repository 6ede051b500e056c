package corpusgen

import (
	"fmt"
	"strconv"
	"strings"
)

// minSize and maxSize bound a valid record file, in bytes.
const (
	minSize = 1024
	maxSize = 4096
)

// oversizedBytes is the length of an oversized broken file: past the
// reader's 64 KiB cap, so it is excluded before it is read.
const oversizedBytes = 66 * 1024

// render writes one record file, counting its matchers into st when it
// is valid.
func (g *gen) render(r *record, st *Stats) []byte {
	if r.broken >= 0 {
		r.status = "proposed"
	}
	var fm strings.Builder
	fm.WriteString("---\n")
	fm.WriteString("schemaVersion: 0.1.0\n")
	fmt.Fprintf(&fm, "id: %q\n", r.id)
	if r.broken != brokenTitle {
		fmt.Fprintf(&fm, "title: %s\n", yamlString(r.title))
	}
	status := r.status
	if r.broken == brokenStatus {
		status = "approved"
	}
	fmt.Fprintf(&fm, "status: %s\n", status)
	fmt.Fprintf(&fm, "date: %s\n", g.date())
	deciders := g.identities(1 + g.rng.IntN(3))
	fmt.Fprintf(&fm, "deciders: %s\n", flow(deciders, true))
	if g.chance(0.3) {
		fmt.Fprintf(&fm, "consulted: %s\n", flow(g.identities(1+g.rng.IntN(2)), true))
	}
	if r.broken == brokenYAML {
		// An unterminated flow sequence: one YAML syntax error.
		fmt.Fprintf(&fm, "tags: [%s\n", strings.Join(r.tags, ", "))
	} else {
		fmt.Fprintf(&fm, "tags: %s\n", flow(r.tags, false))
	}
	fmt.Fprintf(&fm, "scope: %s\n", r.scope)
	svc := g.pick(services)
	if r.scope == "domain" {
		fmt.Fprintf(&fm, "domain: %s\n", g.pick(domains))
	}
	oneWay := g.chance(0.15)
	if oneWay {
		fm.WriteString("reversibility: one-way-door\n")
	} else if g.chance(0.5) {
		fm.WriteString("reversibility: two-way-door\n")
	}
	if g.chance(0.6) {
		fmt.Fprintf(&fm, "blastRadius: %s\n", g.pick([]string{"component", "team", "cross-team", "org"}))
	}
	if len(r.supersedes) > 0 {
		fmt.Fprintf(&fm, "supersedes: %s\n", flow(r.supersedes, true))
	}
	if r.supersededBy != "" {
		fmt.Fprintf(&fm, "supersededBy: %q\n", r.supersededBy)
	}
	if len(r.relatesTo) > 0 {
		fmt.Fprintf(&fm, "relatesTo: %s\n", flow(r.relatesTo, true))
	}
	if len(r.conflicts) > 0 {
		fmt.Fprintf(&fm, "conflictsWith: %s\n", flow(r.conflicts, true))
	}
	g.affects(&fm, svc, r.broken < 0, st)
	agent := g.chance(0.2)
	if agent {
		fm.WriteString("provenance:\n  authoredBy: agent\n  agent:\n    name: coding-agent\n")
		fmt.Fprintf(&fm, "    model: model-%d\n", 1+g.rng.IntN(4))
		fmt.Fprintf(&fm, "    runId: run-%06d\n", g.rng.IntN(1000000))
		// An accepted agent-authored record needs its human ratifier.
		fmt.Fprintf(&fm, "  ratifiedBy: %q\n", deciders[0])
	}
	if oneWay || g.chance(0.2) {
		tier := g.pick([]string{"async", "arb"})
		if !oneWay && g.chance(0.3) {
			tier = "auto"
		}
		fmt.Fprintf(&fm, "review:\n  tier: %s\n  slaDays: %d\n  approvals: %s\n", tier, 3+g.rng.IntN(12), flow(g.identities(1+g.rng.IntN(2)), true))
	}
	if g.chance(0.35) {
		fm.WriteString("externalRefs:\n")
		for range 1 + g.rng.IntN(2) {
			kind := g.pick([]string{"issue", "pr", "rfc", "doc", "incident"})
			fmt.Fprintf(&fm, "  - type: %s\n    id: %q\n    url: https://git.example.com/acme/%s/%s/%d\n", kind, strconv.Itoa(100+g.rng.IntN(9000)), svc, kind, 1+g.rng.IntN(5000))
		}
	}
	if g.chance(0.1) {
		fmt.Fprintf(&fm, "reviewBy: %s\n", g.date())
	}
	if r.broken != brokenFence {
		fm.WriteString("---\n")
	}

	// Aim inside the bounds: the body stops short of its budget by up to
	// a sentence, and a short frontmatter with one-sentence sections can
	// overshoot a tiny one.
	target := minSize + 256 + g.rng.IntN(maxSize-minSize-512)
	if r.broken == brokenOversized {
		target = oversizedBytes
	}
	body := g.body(r.title, svc, target-fm.Len())
	return []byte(fm.String() + body)
}

// affects writes 1–4 matchers: mostly path globs (with "**", braces and
// the odd negation), now and then a package or entity matcher.
func (g *gen) affects(b *strings.Builder, svc string, count bool, st *Stats) {
	k := 1 + g.rng.IntN(4)
	b.WriteString("affects:\n")
	for range k {
		switch x := g.rng.IntN(100); {
		case x < 4:
			pkg := g.pick(packages)
			fmt.Fprintf(b, "  - type: package\n    pattern: %q\n", pkg)
			if count {
				st.PackageMatchers++
			}
		case x < 7:
			fmt.Fprintf(b, "  - type: entity\n    pattern: \"component:%s\"\n", svc)
			if count {
				st.EntityMatchers++
			}
		case x < 17:
			fmt.Fprintf(b, "  - type: path\n    pattern: %q\n    negate: true\n    note: Fixtures follow their own conventions.\n",
				"services/"+svc+"/**/testdata/**")
			if count {
				st.PathMatchers++
			}
		default:
			p := strings.NewReplacer("{svc}", svc, "{area}", g.pick(areas)).Replace(g.pick(pathPatterns))
			fmt.Fprintf(b, "  - type: path\n    pattern: %q\n", p)
			if count {
				st.PathMatchers++
			}
		}
	}
}

// body writes the Markdown body (after the closing fence) of about
// budget bytes: a heading and Context, Decision, Consequences and
// sometimes Alternatives sections of generated prose.
func (g *gen) body(title, svc string, budget int) string {
	var b strings.Builder
	b.WriteString("\n# ")
	b.WriteString(title)
	b.WriteString("\n")
	sections := []string{"Context", "Decision", "Consequences"}
	if g.chance(0.4) {
		sections = append(sections, "Alternatives considered")
	}
	share := max(budget-b.Len(), 0) / len(sections)
	for _, s := range sections {
		b.WriteString("\n## ")
		b.WriteString(s)
		b.WriteString("\n\n")
		end := b.Len() + share - len(s) - 8
		bullets := s != "Context" && g.chance(0.6)
		for first := true; first || b.Len()+40 < end; first = false {
			if bullets {
				sentence := g.sentence(svc)
				if !first && b.Len()+len(sentence) > end {
					break
				}
				b.WriteString("- ")
				b.WriteString(sentence)
				b.WriteString("\n")
				continue
			}
			if !first {
				b.WriteString("\n")
			}
			g.paragraph(&b, svc, end)
		}
	}
	return b.String()
}

// paragraph writes one to five sentences wrapped at 76 columns, stopping
// before a sentence would pass end bytes.
func (g *gen) paragraph(b *strings.Builder, svc string, end int) {
	col := 0
	for k := range 5 {
		sentence := g.sentence(svc)
		if k > 0 && b.Len()+len(sentence) > end {
			break
		}
		for _, w := range strings.Fields(sentence) {
			if col > 0 && col+1+len(w) > 76 {
				b.WriteString("\n")
				col = 0
			} else if col > 0 {
				b.WriteString(" ")
				col++
			}
			b.WriteString(w)
			col += len(w)
		}
	}
	b.WriteString("\n")
}

func (g *gen) sentence(svc string) string {
	k := 8 + g.rng.IntN(12)
	words := make([]string, k)
	for i := range words {
		switch x := g.rng.IntN(20); {
		case x == 0:
			words[i] = svc
		case x == 1:
			words[i] = g.pick(techs)
		case x == 2:
			words[i] = "`" + g.pick(services) + "/" + g.pick(areas) + "`"
		default:
			words[i] = g.pick(vocabulary)
		}
	}
	s := strings.Join(words, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g *gen) date() string {
	return fmt.Sprintf("%d-%02d-%02d", 2019+g.rng.IntN(8), 1+g.rng.IntN(12), 1+g.rng.IntN(28))
}

func (g *gen) identities(k int) []string {
	var out []string
	for range k {
		id := g.pick(people)
		if !containsString(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// flow writes a YAML flow sequence, double-quoting the items when quote
// is set (ids must stay strings; "@" cannot start a plain scalar).
func flow(items []string, quote bool) string {
	parts := make([]string, len(items))
	for i, s := range items {
		if quote {
			parts[i] = strconv.Quote(s)
		} else {
			parts[i] = s
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// yamlString double-quotes s (titles hold ":" and other indicators).
func yamlString(s string) string { return strconv.Quote(s) }

// Package corpusgen writes deterministic, realistic ADR corpora for
// benchmarks and scale tests.
//
// A generated record looks like what a busy team accumulates: every
// status, supersession chains, relatesTo and conflictsWith links, tags,
// all three scopes, path matchers with "**", braces and negations, a few
// package and entity matchers, provenance, review and external references,
// and a Markdown body of one to four kilobytes with the usual sections.
// Every record is schema-valid and the corpus raises no cross-record
// finding, except where Config asks for deliberately broken files and
// federated supersessions, whose findings Stats predicts exactly.
//
// The same Config always gives the same bytes: the generator draws from
// its own seeded PCG stream and never iterates a map into output. It
// parses nothing, so it can check the parser rather than mirror it.
package corpusgen

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Config says what to generate.
type Config struct {
	// N is the number of record files.
	N int
	// Seed selects the corpus; the same seed gives the same bytes.
	Seed int64
	// Broken is the fraction (0 to 1) of files made deliberately invalid,
	// one finding each: an unclosed fence, a YAML syntax error, an unknown
	// status, a missing title, or a file over the 64 KiB cap.
	Broken float64
	// Federated is how many superseded records name their replacement in
	// another decision log ("platform:0042"): each is valid but raises one
	// dangling-supersededBy finding, as such a record does in real life.
	Federated int
}

// Generated is the files of a generated corpus, by bare name
// (NNNN-slug.md), and what a projection of them must report.
type Generated struct {
	Files map[string][]byte
	Stats Stats
}

// Stats is what projecting the corpus must give.
type Stats struct {
	// Valid is the expected record count, Broken the expected excluded
	// count (Valid+Broken = N).
	Valid, Broken int
	// Oversized is how many broken files exceed the size cap.
	Oversized int
	// Findings is the expected number of corpus findings: one per broken
	// file and one per federated supersession.
	Findings int
	// ByStatus counts valid records per status.
	ByStatus map[string]int
	// PathMatchers, PackageMatchers and EntityMatchers count the affects
	// matchers of valid records by type (negated path matchers included).
	PathMatchers, PackageMatchers, EntityMatchers int
}

// Names returns the file names in byte order, which is also code-unit
// order for these ASCII names.
func (c *Generated) Names() []string { return slices.Sorted(maps.Keys(c.Files)) }

// Size is the total number of bytes of every file.
func (c *Generated) Size() int64 {
	var n int64
	for _, b := range c.Files {
		n += int64(len(b))
	}
	return n
}

// Write generates cfg into dir (created if missing; existing files of the
// same names are overwritten) and returns what it wrote.
func Write(dir string, cfg Config) (*Generated, error) {
	c := New(cfg)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, name := range c.Names() {
		if err := os.WriteFile(filepath.Join(dir, name), c.Files[name], 0o644); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// WriteRepo lays out a repository root for the working-tree reader: an
// empty .git directory (all the reader checks for) and the corpus in
// root/docs/adr. It returns the ADR directory.
func WriteRepo(root string, cfg Config) (string, *Generated, error) {
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		return "", nil, err
	}
	dir := filepath.Join(root, "docs", "adr")
	c, err := Write(dir, cfg)
	return dir, c, err
}

// Width is the number of digits of the ids of an n-record corpus: four,
// or more when n needs them, so every id has the same width and the file
// order is the id order.
func Width(n int) int { return max(4, len(strconv.Itoa(n))) }

// ID is the id of the i-th record (0-based) of an n-record corpus.
func ID(i, n int) string { return fmt.Sprintf("%0*d", Width(n), i+1) }

// ContextFiles is a file list for get_decision_context that fires path
// matchers of many records (and a negation or two) in any generated
// corpus.
func ContextFiles() []string {
	return []string{
		"services/payments/api/handler.go",
		"services/payments/api/testdata/golden.json",
		"web/src/checkout/cart.tsx",
		"infra/terraform/ledger/main.tf",
		"proto/billing/v1/invoice.proto",
	}
}

// Statuses are the six statuses, in schema order.
var Statuses = []string{"draft", "proposed", "accepted", "rejected", "superseded", "deprecated"}

// statusWeights is how often each status is drawn, in Statuses order;
// superseded ones that cannot get a successor become accepted.
var statusWeights = []int{8, 14, 46, 6, 18, 8}

// brokenKinds are the ways a broken file is broken, each giving exactly
// one finding.
const (
	brokenFence = iota
	brokenYAML
	brokenStatus
	brokenTitle
	brokenOversized
	brokenKinds
)

// record is one generated record before rendering.
type record struct {
	idx          int
	id           string
	slug, title  string
	status       string
	broken       int // -1 when valid
	supersedes   []string
	supersededBy string
	relatesTo    []string
	conflicts    []string
	tags         []string
	scope        string
}

// New generates cfg in memory.
func New(cfg Config) *Generated {
	n := max(cfg.N, 0)
	rng := rand.New(rand.NewPCG(uint64(cfg.Seed), 0x9e3779b97f4a7c15))
	g := &gen{rng: rng, n: n}
	recs := g.plan(cfg)

	c := &Generated{Files: make(map[string][]byte, n), Stats: Stats{ByStatus: map[string]int{}}}
	for i := range recs {
		r := &recs[i]
		name := r.id + "-" + r.slug + ".md"
		c.Files[name] = g.render(r, &c.Stats)
		if r.broken >= 0 {
			c.Stats.Broken++
			c.Stats.Findings++
			if r.broken == brokenOversized {
				c.Stats.Oversized++
			}
			continue
		}
		c.Stats.Valid++
		c.Stats.ByStatus[r.status]++
		if strings.Contains(r.supersededBy, ":") {
			c.Stats.Findings++
		}
	}
	return c
}

type gen struct {
	rng *rand.Rand
	n   int
}

func (g *gen) pick(list []string) string { return list[g.rng.IntN(len(list))] }

// chance reports true with probability p.
func (g *gen) chance(p float64) bool { return g.rng.Float64() < p }

// plan decides every record's identity, status and links. Links only
// ever point at valid records, so the only cross-record findings are the
// federated ones Config asks for.
func (g *gen) plan(cfg Config) []record {
	n := g.n
	recs := make([]record, n)
	nBroken := min(int(cfg.Broken*float64(n)+0.5), n)
	if cfg.Broken > 0 && nBroken == 0 && n > 0 {
		nBroken = 1
	}
	brokenAt := map[int]int{}
	for k, i := range g.rng.Perm(n)[:nBroken] {
		brokenAt[i] = k % brokenKinds
	}
	for i := range recs {
		r := &recs[i]
		r.idx, r.id, r.broken = i, ID(i, n), -1
		if k, ok := brokenAt[i]; ok {
			r.broken = k
		}
		r.title = g.title()
		r.slug = slugOf(r.title)
		r.status = Statuses[g.weighted(statusWeights)]
		r.scope = []string{"component", "component", "domain", "org"}[g.rng.IntN(4)]
		r.tags = g.tags()
	}
	valid := func(i int) bool { return i >= 0 && i < n && recs[i].broken < 0 }

	// Supersession: a superseded record points at a later valid record a
	// few places on, which lists it in supersedes; the later one may be
	// superseded in turn, giving chains.
	federated := cfg.Federated
	for i := range recs {
		r := &recs[i]
		if r.status != "superseded" || r.broken >= 0 {
			continue
		}
		if federated > 0 {
			federated--
			r.supersededBy = fmt.Sprintf("platform:%04d", 1+g.rng.IntN(9999))
			continue
		}
		j := i + 1 + g.rng.IntN(5)
		for j < n && !valid(j) {
			j++
		}
		if j >= n {
			r.status = "accepted"
			continue
		}
		r.supersededBy = recs[j].id
		recs[j].supersedes = append(recs[j].supersedes, r.id)
	}
	for i := range recs {
		r := &recs[i]
		if r.broken >= 0 || n < 2 {
			continue
		}
		seen := map[string]bool{r.id: true}
		for range g.rng.IntN(4) {
			j := g.rng.IntN(n)
			if valid(j) && !seen[recs[j].id] {
				seen[recs[j].id] = true
				r.relatesTo = append(r.relatesTo, recs[j].id)
			}
		}
		// Only open proposals and history name conflicts: an accepted
		// record doing so is itself a finding (accepted-conflictsWith).
		if r.status != "accepted" && g.chance(0.12) {
			if j := g.rng.IntN(n); valid(j) && j != i {
				r.conflicts = append(r.conflicts, recs[j].id)
			}
		}
	}
	return recs
}

func (g *gen) weighted(weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	x := g.rng.IntN(total)
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

func (g *gen) title() string {
	return fmt.Sprintf("%s %s for %s in %s", g.pick(verbs), g.pick(techs), g.pick(concerns), g.pick(services))
}

func (g *gen) tags() []string {
	k := 1 + g.rng.IntN(4)
	var out []string
	for range k {
		t := g.pick(tagPool)
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// slugOf turns a title into a file-name slug.
func slugOf(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

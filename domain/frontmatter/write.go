package frontmatter

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// SchemaVersion is the schema version adrkit writes, and the default a
// record without schemaVersion reads as.
const SchemaVersion = "0.1.0"

// ErrUnwritable is wrapped by Marshal's error when the frontmatter cannot
// be written: it is not schema-valid, it sets a field the writer does not
// write, or a value would not read back as it is (see Marshal).
var ErrUnwritable = errors.New("frontmatter cannot be written")

// Marshal writes fm as a complete frontmatter block: the opening fence,
// the YAML, the closing fence, each line ended by newline ("\n" or
// "\r\n"). Fields holding their schema default (or nothing) are left out;
// the others follow the schema's order. comment, when not empty, is
// written as YAML comment lines after the fields, one "# " line per line
// of comment: the reader ignores comments, so they keep text for people
// without changing the record.
//
// Each field's value is encoded by sigs.k8s.io/yaml. Its YAML 1.1 emitter
// treats NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR as line breaks,
// which the YAML 1.2 reader does not, so strings holding them are
// refused. Marshal checks its own output: the block, read back through
// ParseRecord (the corpus reader's path), must give a valid record with
// exactly fm's fields (defaults applied). Anything else is an error
// wrapping ErrUnwritable, and nothing is returned. So a block Marshal
// returns is always a valid record's.
//
// Only the fields adrkit's authoring commands set are written: every
// field but affects, assertions, review, evaluation and externalRefs,
// which must be empty.
func Marshal(fm *adr.Frontmatter, newline, comment string) ([]byte, error) {
	if newline != "\n" && newline != "\r\n" {
		return nil, fmt.Errorf("%w: newline must be \\n or \\r\\n", ErrUnwritable)
	}
	if err := writable(fm); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("---" + newline)
	for _, f := range fields(fm) {
		out, err := yaml.Marshal(map[string]any{f.key: f.value})
		if err != nil {
			return nil, fmt.Errorf("%w: encoding %s: %v", ErrUnwritable, f.key, err)
		}
		b.WriteString(withNewline(string(out), newline))
	}
	if comment != "" {
		for line := range strings.SplitSeq(comment, "\n") {
			if strings.ContainsAny(line, "\r\u0085\u2028\u2029") {
				return nil, fmt.Errorf("%w: a comment line holds a line-break character", ErrUnwritable)
			}
			b.WriteString(strings.TrimRight("# "+line, " ") + newline)
		}
	}
	b.WriteString("---" + newline)
	block := b.String()
	if err := readsBack(block, fm); err != nil {
		return nil, err
	}
	return []byte(block), nil
}

// withNewline ends every line of the encoder's LF output with newline.
func withNewline(s, newline string) string {
	if newline == "\n" {
		return s
	}
	return strings.ReplaceAll(s, "\n", newline)
}

// entry is one top-level key and the value to encode.
type entry struct {
	key   string
	value any
}

// fields lists what fm sets, in schema order, leaving out defaults.
func fields(fm *adr.Frontmatter) []entry {
	var out []entry
	str := func(key, v, def string) {
		if v != "" && v != def {
			out = append(out, entry{key, v})
		}
	}
	list := func(key string, v []string) {
		if len(v) > 0 {
			out = append(out, entry{key, v})
		}
	}
	str("schemaVersion", fm.SchemaVersion, SchemaVersion)
	str("id", fm.ID, "")
	str("title", fm.Title, "")
	str("status", string(fm.Status), "")
	str("date", fm.Date, "")
	str("created", fm.Created, "")
	list("deciders", fm.Deciders)
	list("consulted", fm.Consulted)
	list("informed", fm.Informed)
	list("tags", fm.Tags)
	str("scope", string(fm.Scope), string(adr.ScopeComponent))
	str("domain", fm.Domain, "")
	str("reversibility", fm.Reversibility, "unknown")
	str("blastRadius", fm.BlastRadius, "component")
	list("supersedes", fm.Supersedes)
	str("supersededBy", fm.SupersededBy, "")
	list("relatesTo", fm.RelatesTo)
	list("conflictsWith", fm.ConflictsWith)
	if p := fm.Provenance; p != nil {
		out = append(out, entry{"provenance", provenanceValue(p)})
	}
	list("complianceControls", fm.ComplianceControls)
	str("reviewBy", fm.ReviewBy, "")
	return out
}

// provenanceValue is the provenance block as the encoder takes it.
func provenanceValue(p *adr.Provenance) map[string]any {
	m := map[string]any{}
	set := func(m map[string]any, key, v string) {
		if v != "" {
			m[key] = v
		}
	}
	if p.AuthoredBy != "" && p.AuthoredBy != "human" {
		m["authoredBy"] = p.AuthoredBy
	}
	if a := p.Agent; a != nil {
		am := map[string]any{}
		set(am, "name", a.Name)
		set(am, "model", a.Model)
		set(am, "harness", a.Harness)
		set(am, "runId", a.RunID)
		m["agent"] = am
	}
	set(m, "ratifiedBy", p.RatifiedBy)
	set(m, "sourceArtifact", p.SourceArtifact)
	if i := p.ImportedFrom; i != nil {
		im := map[string]any{"sourceKind": i.SourceKind, "sourceRef": i.SourceRef, "fingerprint": i.Fingerprint}
		set(im, "importedAt", i.ImportedAt)
		m["importedFrom"] = im
	}
	return m
}

// writable refuses what Marshal does not write.
func writable(fm *adr.Frontmatter) error {
	switch {
	case len(fm.Affects) > 0, len(fm.Assertions) > 0, fm.Review != nil, fm.Evaluation != nil, len(fm.ExternalRefs) > 0:
		return fmt.Errorf("%w: affects, assertions, review, evaluation and externalRefs are not written by adrkit", ErrUnwritable)
	}
	return nil
}

// readsBack checks that block, read as a record, has exactly fm's fields.
func readsBack(block string, fm *adr.Frontmatter) error {
	rec, findings := ParseRecord("frontmatter.md", block)
	if rec == nil {
		msgs := make([]string, len(findings))
		for i, f := range findings {
			msgs[i] = f.Message
			if f.Field != "" {
				msgs[i] = f.Field + ": " + f.Message
			}
		}
		return fmt.Errorf("%w: not a valid record: %s", ErrUnwritable, strings.Join(msgs, "; "))
	}
	if !SameFrontmatter(Defaulted(fm), rec.Frontmatter) {
		return fmt.Errorf("%w: a value would not read back as written (a string with a NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR?)", ErrUnwritable)
	}
	return nil
}

// Defaulted returns a copy of fm with the schema's defaults filled in,
// as the reader returns a record: absent lists empty, scope, reversibility,
// blastRadius and schemaVersion at their defaults, provenance authored by
// a human unless it says otherwise. YAML and Canonical are dropped.
func Defaulted(fm *adr.Frontmatter) *adr.Frontmatter {
	c := *fm
	c.YAML, c.Canonical = "", ""
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&c.SchemaVersion, SchemaVersion)
	if c.Scope == "" {
		c.Scope = adr.ScopeComponent
	}
	def(&c.Reversibility, "unknown")
	def(&c.BlastRadius, "component")
	for _, l := range []*[]string{&c.Deciders, &c.Consulted, &c.Informed, &c.Tags, &c.Supersedes, &c.RelatesTo, &c.ConflictsWith, &c.ComplianceControls} {
		if *l == nil {
			*l = []string{}
		}
	}
	if c.Affects == nil {
		c.Affects = []adr.Matcher{}
	}
	if c.Assertions == nil {
		c.Assertions = []adr.Assertion{}
	}
	if c.ExternalRefs == nil {
		c.ExternalRefs = []adr.ExternalRef{}
	}
	if c.Provenance != nil {
		p := *c.Provenance
		def(&p.AuthoredBy, "human")
		c.Provenance = &p
	}
	return &c
}

// SameFrontmatter reports whether two typed frontmatters hold the same
// fields, ignoring YAML and Canonical.
func SameFrontmatter(a, b *adr.Frontmatter) bool {
	x, y := *a, *b
	x.YAML, y.YAML, x.Canonical, y.Canonical = "", "", "", ""
	return reflect.DeepEqual(&x, &y)
}

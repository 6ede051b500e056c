package ask

import (
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// Field is a part of a record that is weighted on its own.
type Field int

// The fields, the strongest evidence first.
const (
	FieldID Field = iota
	FieldTitle
	FieldTags
	// FieldDecision is the sentence that states the decision
	// (adr.DecisionSentence).
	FieldDecision
	// FieldAlternatives is the options a record weighed: its sections
	// whose heading names options, alternatives or what was considered.
	FieldAlternatives
	// FieldBody is the rest of the body.
	FieldBody
	numFields
)

// Doc is a record's text, field by field.
type Doc [numFields]string

// DocOf splits a record into its fields. The decision sentence is also
// part of the body, as the record reads.
func DocOf(r *adr.Record) Doc {
	var d Doc
	d[FieldID] = r.Frontmatter.ID
	d[FieldTitle] = r.Frontmatter.Title
	d[FieldTags] = strings.Join(r.Frontmatter.Tags, " ")
	d[FieldDecision] = adr.DecisionSentence(r.Body)
	var body, alts strings.Builder
	into := &body
	for line := range strings.Lines(r.Body) {
		if h, ok := strings.CutPrefix(line, "##"); ok {
			into = &body
			if h = strings.ToLower(h); strings.Contains(h, "option") || strings.Contains(h, "alternative") || strings.Contains(h, "considered") {
				into = &alts
			}
			continue
		}
		into.WriteString(line)
	}
	d[FieldBody], d[FieldAlternatives] = body.String(), alts.String()
	return d
}

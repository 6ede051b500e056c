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
	// FieldDecision is the sentence that states the decision: the first
	// sentence of the body's Decision (or Decision Outcome) section.
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

// DocOf splits a record into its fields.
func DocOf(r *adr.Record) Doc {
	var d Doc
	d[FieldID] = r.Frontmatter.ID
	d[FieldTitle] = r.Frontmatter.Title
	d[FieldTags] = strings.Join(r.Frontmatter.Tags, " ")
	var body, alts strings.Builder
	section := FieldBody
	for line := range strings.Lines(r.Body) {
		if h, ok := strings.CutPrefix(line, "##"); ok {
			section = sectionOf(strings.ToLower(h))
			continue
		}
		switch {
		case section == FieldAlternatives:
			alts.WriteString(line)
		case section == FieldDecision && d[FieldDecision] == "" && strings.TrimSpace(line) != "":
			d[FieldDecision] = line
		case section == FieldDecision && d[FieldDecision] != "" && !sentenceEnds(d[FieldDecision]):
			d[FieldDecision] += line
		default:
			body.WriteString(line)
		}
	}
	if s, rest, ok := cutSentence(d[FieldDecision]); ok {
		d[FieldDecision] = s
		body.WriteString(rest)
	}
	d[FieldBody], d[FieldAlternatives] = body.String(), alts.String()
	return d
}

// sectionOf is the field a section's text goes to, by its heading.
func sectionOf(heading string) Field {
	switch {
	case strings.Contains(heading, "option"), strings.Contains(heading, "alternative"),
		strings.Contains(heading, "considered"):
		return FieldAlternatives
	case strings.Contains(heading, "decision"):
		return FieldDecision
	}
	return FieldBody
}

// sentenceEnds reports whether s holds the end of a sentence, or of a
// paragraph (a blank line).
func sentenceEnds(s string) bool {
	_, _, ok := cutSentence(s)
	return ok || strings.HasSuffix(s, "\n\n")
}

// cutSentence cuts s after its first sentence: a period, question or
// exclamation mark followed by white space.
func cutSentence(s string) (sentence, rest string, ok bool) {
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '?' || s[i] == '!') && (s[i+1] == ' ' || s[i+1] == '\n') {
			return s[:i+1], s[i+1:], true
		}
	}
	return s, "", false
}

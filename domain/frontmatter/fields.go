package frontmatter

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/yaml12"
)

// FieldEdit sets one top-level field of a record's frontmatter. Value is
// a string (status, id, supersededBy) or a []string (deciders,
// supersedes, relatesTo, conflictsWith); nil, or an empty list, removes the field.
type FieldEdit struct {
	Key   string
	Value any
}

// LineChange is a run of lines one edit replaced: Line is the 1-based
// line of the edited file where the new lines start (where the old ones
// were, when there are no new ones), Old and New the lines without their
// endings.
type LineChange struct {
	Line int      `json:"line"`
	Old  []string `json:"old"`
	New  []string `json:"new"`
}

// editableKeys are the fields EditFields may set, in the schema's order,
// which is also where a field that is not there yet is added: after the
// nearest field before it that is.
var editableKeys = []string{"id", "status", "deciders", "supersedes", "supersededBy", "relatesTo", "conflictsWith"}

// schemaOrder is the order of the schema's top-level keys, for placing a
// new field.
var schemaOrder = []string{
	"schemaVersion", "id", "title", "status", "date", "created", "deciders", "consulted", "informed",
	"tags", "scope", "domain", "reversibility", "blastRadius", "supersedes", "supersededBy", "relatesTo",
	"conflictsWith", "affects", "assertions", "provenance", "review", "evaluation", "externalRefs",
	"complianceControls", "reviewBy",
}

// EditFields returns the record text with the edits applied, changing
// only the lines of the fields edited: a field's lines (its key line and
// the lines continuing its value) are replaced by the field written
// afresh unless it already holds the value, a new field is added after
// the nearest field that precedes it in the schema's order (supersededBy
// after status), and every other byte of the file, body and
// comments included, stays as it is. A list is written as a block list.
// The result is checked: it must read back as the same record but for
// the edited fields, or nothing is returned. A scalar field whose value
// is not on its key's line (a block scalar) is refused: that edit is a
// person's to make.
func EditFields(path, text string, edits []FieldEdit) (string, []LineChange, error) {
	old, findings := ParseRecord(path, text)
	if old == nil {
		return "", nil, fmt.Errorf("%s is not a valid record (%s)", path, findings[0].Message)
	}
	parts, err := Split(text)
	if err != nil {
		return "", nil, err
	}
	want := *old.Frontmatter
	lines := strings.SplitAfter(parts.YAML, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	ending := "\n"
	if len(lines) > 0 {
		ending = lineEnding(lines[0])
	}
	var changes []LineChange
	for _, e := range edits {
		if !slices.Contains(editableKeys, e.Key) {
			return "", nil, fmt.Errorf("the field %s cannot be edited", e.Key)
		}
		before := *normalLists(&want)
		if err := setField(&want, e); err != nil {
			return "", nil, err
		}
		if SameFrontmatter(&before, normalLists(&want)) {
			continue // already so: the line, and its comment, stay
		}
		doc, err := yaml12.Parse(strings.Join(lines, ""))
		if err != nil {
			return "", nil, err
		}
		start, end, present := fieldLines(lines, doc, e.Key)
		if present && start < 0 {
			return "", nil, fmt.Errorf("the %s of %s is not written as adrkit can edit it; change it by hand", e.Key, path)
		}
		written, err := encodeField(e, ending)
		if err != nil {
			return "", nil, err
		}
		if !present {
			start = insertAt(lines, doc, e.Key)
			end = start
		}
		oldLines := slices.Clone(lines[start:end])
		if slices.Equal(oldLines, written) {
			continue
		}
		lines = slices.Concat(lines[:start], written, lines[end:])
		changes = append(changes, LineChange{Line: parts.YAMLLine + start, Old: trimEndings(oldLines), New: trimEndings(written)})
	}
	yamlStart := strings.IndexByte(text, '\n') + 1
	closing := text[yamlStart+len(parts.YAML) : len(text)-len(parts.Body)]
	out := text[:yamlStart] + strings.Join(lines, "") + closing + parts.Body
	updated, findings := ParseRecord(path, out)
	if updated == nil {
		return "", nil, fmt.Errorf("the change would make %s invalid (%s)", path, findings[0].Message)
	}
	if !SameFrontmatter(normalLists(&want), normalLists(updated.Frontmatter)) || updated.Body != old.Body {
		return "", nil, fmt.Errorf("the change to %s would change more than the fields edited; change it by hand", path)
	}
	return out, changes, nil
}

// setField applies an edit to the typed frontmatter the result must read
// back as.
func setField(fm *adr.Frontmatter, e FieldEdit) error {
	str, isStr := e.Value.(string)
	list, isList := e.Value.([]string)
	if e.Value != nil && !isStr && !isList {
		return fmt.Errorf("the value of %s must be a string or a list of strings", e.Key)
	}
	switch e.Key {
	case "id":
		fm.ID = str
	case "status":
		fm.Status = adr.Status(str)
	case "supersededBy":
		fm.SupersededBy = str
	case "deciders":
		fm.Deciders = list
	case "supersedes":
		fm.Supersedes = list
	case "relatesTo":
		fm.RelatesTo = list
	case "conflictsWith":
		fm.ConflictsWith = list
	}
	return nil
}

// normalLists is a copy of fm whose empty relation lists are nil, so
// that an absent list and an empty one compare equal.
func normalLists(fm *adr.Frontmatter) *adr.Frontmatter {
	c := *fm
	for _, l := range []*[]string{&c.Deciders, &c.Supersedes, &c.RelatesTo, &c.ConflictsWith} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	return &c
}

// fieldLines returns the half-open range of lines holding top-level key:
// its key line and the lines after it that continue its value (indented,
// or list items). start is -1 when the key is there but not in a shape
// that can be edited by lines (not at the start of its line, or a scalar
// whose value is not on the key's line).
func fieldLines(lines []string, doc *yaml12.Document, key string) (start, end int, present bool) {
	l, ok := doc.Lines[key]
	if !ok {
		return 0, 0, false
	}
	i := l - 1
	if i < 0 || i >= len(lines) || !strings.HasPrefix(lines[i], key+":") {
		return -1, -1, true
	}
	end = i + 1
	for end < len(lines) {
		next := lines[end]
		if strings.HasPrefix(next, " ") || strings.HasPrefix(next, "\t") || strings.HasPrefix(next, "-") {
			end++
			continue
		}
		break
	}
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimRight(lines[i], "\r\n"), key+":"))
	if rest == "|" || rest == ">" || strings.HasPrefix(rest, "|") || strings.HasPrefix(rest, ">") {
		return -1, -1, true
	}
	if rest == "" && end == i+1 {
		// A key with nothing after it and nothing below: null, which
		// the schema refuses; nothing valid has it.
		return -1, -1, true
	}
	return i, end, true
}

// insertAt is the line index where a new field key goes: after the lines
// of the nearest present field that comes before it in schema order, or
// at the end of the YAML.
func insertAt(lines []string, doc *yaml12.Document, key string) int {
	if key == "supersededBy" {
		// Next to the status it explains, as adrkit new writes it.
		if start, end, present := fieldLines(lines, doc, "status"); present && start >= 0 {
			return end
		}
	}
	at := slices.Index(schemaOrder, key)
	for k := at - 1; k >= 0; k-- {
		if start, end, present := fieldLines(lines, doc, schemaOrder[k]); present && start >= 0 {
			return end
		}
	}
	return len(lines)
}

// encodeField writes one field as YAML lines ended by ending: nothing
// for a removal.
func encodeField(e FieldEdit, ending string) ([]string, error) {
	var v any
	switch val := e.Value.(type) {
	case nil:
		return nil, nil
	case string:
		if val == "" {
			return nil, nil
		}
		v = val
	case []string:
		if len(val) == 0 {
			return nil, nil
		}
		v = val
	}
	b, err := yaml.Marshal(map[string]any{e.Key: v})
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", e.Key, err)
	}
	out := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	for i, l := range out {
		out[i] = strings.TrimSuffix(l, "\n") + ending
	}
	return out, nil
}

// trimEndings returns the lines without their line endings.
func trimEndings(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, "\r\n")
	}
	return out
}

func lineEnding(line string) string {
	if strings.HasSuffix(line, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// CopyAffects returns block, a frontmatter block as Marshal writes it
// ("---\n...---\n"), with the affects field of the record text from
// added in its schema place, line for line as from writes it (comments
// between its lines included), so that a replacing record starts with
// the files of the record it replaces (adrkit new --supersedes, ADR
// 0045). Marshal does not write matchers: copying the lines keeps every
// matcher type, and the result is checked to read back with from's
// affects and block's other fields. block is returned as it is when from
// has no affects.
func CopyAffects(block, from string) (string, error) {
	src, findings := ParseRecord("from.md", from)
	if src == nil {
		return "", fmt.Errorf("the record to copy affects from is not valid (%s)", findings[0].Message)
	}
	if len(src.Frontmatter.Affects) == 0 {
		return block, nil
	}
	fromParts, err := Split(from)
	if err != nil {
		return "", err
	}
	fromLines := strings.SplitAfter(fromParts.YAML, "\n")
	doc, err := yaml12.Parse(fromParts.YAML)
	if err != nil {
		return "", err
	}
	start, end, _ := fieldLines(fromLines, doc, "affects")
	if start < 0 {
		return "", errors.New("its affects are not written as adrkit can copy them; copy them by hand")
	}
	copied := make([]string, 0, end-start)
	for _, l := range fromLines[start:end] {
		copied = append(copied, strings.TrimRight(l, "\r\n")+"\n")
	}
	old, _ := ParseRecord("new.md", block)
	if old == nil {
		return "", errors.New("the new frontmatter block is not a valid record")
	}
	parts, err := Split(block)
	if err != nil {
		return "", err
	}
	lines := strings.SplitAfter(strings.TrimSuffix(parts.YAML, "\n"), "\n")
	lines[len(lines)-1] += "\n"
	if doc, err = yaml12.Parse(parts.YAML); err != nil {
		return "", err
	}
	at := insertAt(lines, doc, "affects")
	out := "---\n" + strings.Join(slices.Concat(lines[:at], copied, lines[at:]), "") + "---\n"
	want := *old.Frontmatter
	want.Affects = src.Frontmatter.Affects
	got, _ := ParseRecord("new.md", out)
	if got == nil || !SameFrontmatter(&want, got.Frontmatter) {
		return "", errors.New("its affects would not read back as written; copy them by hand")
	}
	return out, nil
}

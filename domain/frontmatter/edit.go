package frontmatter

import (
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/yaml12"
)

// MarkSuperseded returns the record text with its status set to
// superseded and its supersededBy set to by, changing only those lines:
// the status line is replaced, and the supersededBy line replaced or, when
// there is none, added after the status line. Every other byte of the
// file stays as it is. The result is checked: it must read back as the
// same record but for those two fields. A status or supersededBy that is
// not written on one line of its own is refused (the edit is then a
// person's to make).
func MarkSuperseded(path, text, by string) (string, error) {
	old, findings := ParseRecord(path, text)
	if old == nil {
		return "", fmt.Errorf("%s is not a valid record (%s)", path, findings[0].Message)
	}
	parts, err := Split(text)
	if err != nil {
		return "", err
	}
	doc, err := yaml12.Parse(parts.YAML)
	if err != nil {
		return "", err
	}
	lines := strings.SplitAfter(parts.YAML, "\n")
	statusAt, ok := oneLineField(lines, doc, "status")
	if !ok {
		return "", fmt.Errorf("the status of %s is not on a line of its own; change it by hand", path)
	}
	ending := lineEnding(lines[statusAt])
	encode := func(key, value string) (string, error) {
		b, err := yaml.Marshal(map[string]string{key: value})
		if err != nil {
			return "", fmt.Errorf("encoding %s: %w", key, err)
		}
		return strings.TrimSuffix(string(b), "\n") + ending, nil
	}
	statusLine, err := encode("status", string(adr.StatusSuperseded))
	if err != nil {
		return "", err
	}
	byLine, err := encode("supersededBy", by)
	if err != nil {
		return "", err
	}
	lines[statusAt] = statusLine
	if at, ok := oneLineField(lines, doc, "supersededBy"); ok {
		lines[at] = byLine
	} else if _, present := doc.Lines["supersededBy"]; present {
		return "", fmt.Errorf("the supersededBy of %s is not on a line of its own; change it by hand", path)
	} else {
		lines = append(lines[:statusAt+1], append([]string{byLine}, lines[statusAt+1:]...)...)
	}
	// The opening fence is the first line; the closing fence line sits
	// between the YAML and the body.
	yamlStart := strings.IndexByte(text, '\n') + 1
	closing := text[yamlStart+len(parts.YAML) : len(text)-len(parts.Body)]
	out := text[:yamlStart] + strings.Join(lines, "") + closing + parts.Body
	updated, findings := ParseRecord(path, out)
	if updated == nil {
		return "", fmt.Errorf("marking %s superseded would make it invalid (%s)", path, findings[0].Message)
	}
	want := *old.Frontmatter
	want.Status, want.SupersededBy = adr.StatusSuperseded, by
	if !SameFrontmatter(&want, updated.Frontmatter) || updated.Body != old.Body {
		return "", fmt.Errorf("marking %s superseded would change more than its status; change it by hand", path)
	}
	return out, nil
}

// oneLineField returns the index of the line holding top-level key, when
// the key and its whole value are on that one line.
func oneLineField(lines []string, doc *yaml12.Document, key string) (int, bool) {
	l, ok := doc.Lines[key]
	if !ok || l < 1 || l > len(lines) {
		return 0, false
	}
	i := l - 1
	if !strings.HasPrefix(lines[i], key+":") {
		return 0, false
	}
	if rest := strings.TrimSpace(strings.TrimPrefix(lines[i], key+":")); rest == "" || rest == "|" || rest == ">" {
		return 0, false
	}
	// The next line must not continue the value (indented, or a list item).
	if i+1 < len(lines) {
		next := lines[i+1]
		if strings.HasPrefix(next, " ") || strings.HasPrefix(next, "\t") || strings.HasPrefix(next, "-") {
			return 0, false
		}
	}
	return i, true
}

func lineEnding(line string) string {
	if strings.HasSuffix(line, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

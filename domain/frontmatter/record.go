package frontmatter

import (
	"errors"
	"fmt"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
	"github.com/adrkit/adrkit-go/domain/js/yaml12"
)

// The rules ParseRecord emits besides the schema rules.
const (
	RuleFence = "frontmatter-fence"
	RuleParse = "frontmatter-parse"
	RuleRead  = "file-read"
)

// fieldFrontmatter is the field of fence and YAML findings: the problem
// is the frontmatter block as a whole.
const fieldFrontmatter = "frontmatter"

// yamlFirstLine is the file line the YAML text starts on: the opening
// fence is always line 1.
const yamlFirstLine = 2

// ParseRecord runs the whole per-file pipeline on a decoded file: split,
// YAML, schema. It returns a record, or nil and at least one finding
// (frontmatter-fence, frontmatter-parse, file-read, or schema findings),
// each carrying path. The record's strings may be parts of text.
func ParseRecord(path, text string) (*adr.Record, []adr.Finding) {
	parts, err := Split(text)
	if err != nil {
		return nil, []adr.Finding{fenceFinding(path, text, err)}
	}
	// Lines are only needed to point at schema issues, so the YAML is read
	// without them, and again with them in the rare file that has issues.
	value, err := yaml12.ParseValue(parts.YAML)
	if err != nil {
		return nil, []adr.Finding{yamlFinding(path, err)}
	}
	raw, issues := validate(value)
	if len(issues) > 0 {
		var lines map[string]int
		if doc, err := yaml12.Parse(parts.YAML); err == nil {
			lines = doc.Lines
		}
		id := rawID(value)
		out := make([]adr.Finding, len(issues))
		for i, is := range issues {
			out[i] = adr.Finding{
				Rule:     is.Rule,
				Severity: adr.SeverityError,
				Message:  is.Message,
				Path:     path,
				ID:       id,
				Field:    is.Field,
				Line:     lineOf(lines, is.Path),
			}
		}
		return nil, out
	}
	fm := typed(raw)
	fm.YAML = parts.YAML
	return &adr.Record{SourcePath: path, Frontmatter: fm, Body: parts.Body}, nil
}

// JSON is the validated value of a record's frontmatter (defaults
// applied, members in schema order) as JSON.stringify writes it, worked
// out again from fm.YAML: a record that ParseRecord returned always has
// one. A frontmatter without YAML, or with YAML that no longer validates,
// is an error.
func JSON(fm *adr.Frontmatter) (string, error) {
	value, err := yaml12.ParseValue(fm.YAML)
	if err != nil {
		return "", fmt.Errorf("the frontmatter YAML cannot be read again: %w", err)
	}
	raw, issues := validate(value)
	if len(issues) > 0 {
		return "", fmt.Errorf("the frontmatter YAML does not validate again: %s", issues[0].Message)
	}
	return string(jsvalue.AppendJSON(nil, raw)), nil
}

func fenceFinding(path, text string, err error) adr.Finding {
	var fe *FenceError
	msg := `the file must begin with a "---" line that opens the YAML frontmatter`
	switch {
	case errors.As(err, &fe) && fe.Unterminated:
		msg = `the frontmatter opened by the first "---" line is never closed by another "---" line`
	case text == "":
		msg = "the file is empty; " + msg
	case strings.HasPrefix(text, "\uFEFF"):
		msg += "; this one starts with a byte-order mark before it"
	}
	return adr.Finding{Rule: RuleFence, Severity: adr.SeverityError, Message: msg, Path: path, Field: fieldFrontmatter, Line: 1}
}

func yamlFinding(path string, err error) adr.Finding {
	var syn *yaml12.SyntaxError
	var res *yaml12.ResolveError
	switch {
	case errors.As(err, &syn):
		msg := "the frontmatter is not valid YAML"
		line := 0
		if len(syn.Problems) > 0 {
			texts := make([]string, len(syn.Problems))
			for i, p := range syn.Problems {
				texts[i] = p.Message
			}
			msg += ": " + strings.Join(texts, "; ")
			line = fileLine(syn.Problems[0].Line)
		}
		return adr.Finding{Rule: RuleParse, Severity: adr.SeverityError, Message: msg, Path: path, Field: fieldFrontmatter, Line: line}
	case errors.As(err, &res):
		return adr.Finding{Rule: RuleRead, Severity: adr.SeverityError,
			Message: "the frontmatter YAML cannot be turned into a value: " + res.Message, Path: path, Line: fileLine(res.Line)}
	}
	// Parse promises one of the two types above; anything else still
	// excludes the file rather than passing it through unchecked.
	return adr.Finding{Rule: RuleRead, Severity: adr.SeverityError,
		Message: "the frontmatter YAML cannot be read: " + err.Error(), Path: path}
}

// rawID is the id schema findings carry: the YAML id if it is a string,
// valid or not, so a broken record can still be traced to its id.
func rawID(root any) string {
	obj, _ := root.(*jsvalue.Object)
	v, _ := obj.Get("id")
	s, _ := v.(string)
	return s
}

// lineOf maps an issue path to the file line of its value, or of its
// nearest ancestor present in the YAML (a missing key points at the
// mapping that lacks it), or 0 when nothing on the path is known.
func lineOf(lines map[string]int, path []string) int {
	for k := len(path); k >= 0; k-- {
		if l, ok := lines[strings.Join(path[:k], ".")]; ok && l > 0 {
			return fileLine(l)
		}
	}
	return 0
}

func fileLine(yamlLine int) int {
	if yamlLine <= 0 {
		return 0
	}
	return yamlLine + yamlFirstLine - 1
}

package frontmatter

import (
	"errors"
	"strings"
	"sync"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/jsvalue"
	"github.com/adrkit/adrkit-go/domain/yaml12"
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
// each carrying path.
//
// What it returns shares no memory with text: the body is a copy, the
// frontmatter is frozen into text of its own (see compactRecord), and
// findings copy what they quote. So a record kept for long does not keep
// its file's text alive, and a caller may pass text that views a buffer
// it reuses afterwards.
func ParseRecord(path, text string) (*adr.Record, []adr.Finding) {
	return parseRecord(path, text, false)
}

// parseRecord is ParseRecord; owned says text is a copy of ParseRecord's
// own, which the result may then keep.
func parseRecord(path, text string, owned bool) (*adr.Record, []adr.Finding) {
	parts, err := Split(text)
	if err != nil {
		return nil, []adr.Finding{fenceFinding(path, text, err)}
	}
	// Lines are only needed to point at schema issues, so the YAML is read
	// without them, and again with them in the rare file that has issues.
	value, err := yaml12.ParseValue(parts.YAML)
	if err != nil {
		f := yamlFinding(path, err)
		f.Message = strings.Clone(f.Message)
		return nil, []adr.Finding{f}
	}
	raw, issues := validate(value)
	if len(issues) > 0 {
		var lines map[string]int
		if doc, err := yaml12.Parse(parts.YAML); err == nil {
			lines = doc.Lines
		}
		// Values read from the YAML may be parts of text.
		id := strings.Clone(rawID(value))
		out := make([]adr.Finding, len(issues))
		for i, is := range issues {
			out[i] = adr.Finding{
				Rule:     is.Rule,
				Severity: adr.SeverityError,
				Message:  strings.Clone(is.Message),
				Path:     path,
				ID:       id,
				Field:    strings.Clone(is.Field),
				Line:     lineOf(lines, is.Path),
			}
		}
		return nil, out
	}
	if jsvalue.Freezable(raw) {
		return compactRecord(path, parts.Body, raw), nil
	}
	if !owned {
		// The value cannot be frozen, so the typed view and the value
		// keep strings of text: parse a copy that they may keep.
		return parseRecord(path, strings.Clone(text), true)
	}
	return &adr.Record{SourcePath: path, Frontmatter: typed(raw), Body: parts.Body}, nil
}

// recordBlock is a record, its typed frontmatter and its frozen value,
// which live and die together, in one allocation.
type recordBlock struct {
	rec adr.Record
	fm  adr.Frontmatter
	raw jsvalue.Object
}

// compactRecord is the record of a validated, freezable value as it is
// best kept for long. The value is frozen as its JSON text
// (jsvalue.MakeFrozen), in one string with copies of the path and the
// body, and the typed fields are read from that text, so that their
// strings are parts of it too rather than of the file's text or of
// allocations of their own. The record, the typed view and the frozen
// value share a second allocation, and the string lists a third. A
// record then takes about two thirds of the memory it took as a value
// tree with a separate typed view, and, being a few large objects rather
// than dozens of small ones, does not leave the heap it was parsed in
// full of small holes once the parse's garbage is gone.
func compactRecord(path, body string, raw *jsvalue.Object) *adr.Record {
	buf := textBuffers.Get().(*[]byte)
	b := append((*buf)[:0], path...)
	b = append(b, body...)
	b = jsvalue.AppendJSON(b, raw)
	all := string(b)
	if cap(b) <= maxPooledText {
		*buf = b
		textBuffers.Put(buf)
	}
	blk := new(recordBlock)
	text := all[len(path)+len(body):]
	jsvalue.MakeFrozen(&blk.raw, text)
	r := rebaser{text: text}
	typedInto(&blk.fm, raw, r.str)
	blk.fm.Raw = &blk.raw
	blk.rec = adr.Record{SourcePath: all[:len(path)], Frontmatter: &blk.fm, Body: all[len(path) : len(path)+len(body)]}
	return &blk.rec
}

// textBuffers recycles compactRecord's buffers; one larger than
// maxPooledText (a record past the size cap) is left to the collector.
var textBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, 8<<10)
	return &b
}}

const maxPooledText = 128 << 10

// rebaser hands out, for a string, an equal substring of text (the
// frozen JSON the string was written into), so that the typed view holds
// no string memory of its own. Strings JSON had to escape are not in the
// text as they are, and are copied instead. The typed fields are read
// mostly in the order JSON wrote them, so the search resumes where the
// previous one ended and falls back to the whole text; any equal
// substring will do.
type rebaser struct {
	text string
	at   int
}

func (r *rebaser) str(s string) string {
	if i := strings.Index(r.text[r.at:], s); i >= 0 {
		i += r.at
		r.at = i + len(s)
		return r.text[i:r.at]
	}
	if i := strings.Index(r.text, s); i >= 0 {
		return r.text[i : i+len(s)]
	}
	return strings.Clone(s)
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

package frontmatter

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/jsvalue"
	"github.com/adrkit/adrkit-go/domain/yaml12"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// compactInputs are valid records of every shape the tests know: the
// fixtures, generated corpora, and a few with strings JSON escapes or
// values that cannot be frozen.
func compactInputs(t *testing.T) map[string]string {
	t.Helper()
	in := map[string]string{}
	files, _ := filepath.Glob("testdata/records/*.md")
	for _, f := range files {
		in[f] = readFile(t, f)
	}
	c := corpusgen.New(corpusgen.Config{N: 200, Seed: 5})
	for _, name := range c.Names() {
		in[name] = string(c.Files[name])
	}
	in["escapes"] = "---\nid: \"0001\"\ntitle: \"Say \\\"hi\\\"\\n\\ttwice\"\nstatus: draft\ndate: 2026-01-01\n" +
		"tags: [a]\nevaluation:\n  scores:\n    b: 1\n    a: 2.5\n  confidence: 0.5\n---\nbody\n"
	in["negative zero"] = "---\nid: \"0002\"\ntitle: Zero\nstatus: draft\ndate: 2026-01-01\nevaluation:\n  confidence: -0.0\n---\n"
	return in
}

// TestCompactRecordsReadAlike holds ParseRecord's compact records to the
// plain pipeline (Validate's typed view and value): the same typed
// fields, the same JSON, and every string of the typed view inside the
// frozen text, so that a kept record holds no other string memory.
func TestCompactRecordsReadAlike(t *testing.T) {
	frozen := 0
	for name, text := range compactInputs(t) {
		rec, _ := ParseRecord("docs/adr/x.md", text)
		if rec == nil {
			continue
		}
		parts, err := Split(text)
		if err != nil {
			t.Fatal(err)
		}
		want := parseTyped(t, parts.YAML)
		got := *rec.Frontmatter
		if string(appendRaw(got.Raw)) != string(appendRaw(want.Raw)) {
			t.Errorf("%s: frontmatter JSON\n got %s\nwant %s", name, appendRaw(got.Raw), appendRaw(want.Raw))
		}
		got.Raw, want.Raw = nil, nil
		if !reflect.DeepEqual(got, *want) {
			t.Errorf("%s: typed view\n got %+v\nwant %+v", name, got, *want)
		}
		text := rec.Frontmatter.Raw.FrozenText()
		if text == "" {
			if name != "negative zero" {
				t.Errorf("%s: not frozen", name)
			}
			continue
		}
		frozen++
		forEachString(reflect.ValueOf(rec.Frontmatter).Elem(), func(s string) {
			if s != "" && !within(s, text) && !strings.ContainsAny(s, "\"\\\n\t") {
				t.Errorf("%s: %q is not part of the frozen text", name, s)
			}
		})
	}
	if frozen < 100 {
		t.Errorf("only %d records were frozen", frozen)
	}
}

func parseTyped(t *testing.T, yaml string) *adr.Frontmatter {
	t.Helper()
	v := mustValue(t, yaml)
	fm, issues := Validate(v)
	if len(issues) > 0 {
		t.Fatalf("issues %+v", issues)
	}
	return fm
}

// within reports whether s's bytes lie inside text's.
func within(s, text string) bool {
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(text)))
	return p >= lo && p+uintptr(len(s)) <= lo+uintptr(len(text))
}

// forEachString calls fn with every string reachable from v, except
// through Raw.
func forEachString(v reflect.Value, fn func(string)) {
	switch v.Kind() {
	case reflect.String:
		fn(v.String())
	case reflect.Pointer:
		if !v.IsNil() {
			forEachString(v.Elem(), fn)
		}
	case reflect.Slice:
		for i := range v.Len() {
			forEachString(v.Index(i), fn)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).Name != "Raw" {
				forEachString(v.Field(i), fn)
			}
		}
	}
}

func mustValue(t *testing.T, yaml string) any {
	t.Helper()
	v, err := yaml12.ParseValue(yaml)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func appendRaw(o *jsvalue.Object) []byte { return jsvalue.AppendJSON(nil, o) }

// outcomeStrings is every string a ParseRecord outcome holds, the typed
// view included, in a fixed order.
func outcomeStrings(rec *adr.Record, findings []adr.Finding) string {
	var b strings.Builder
	b.WriteString(render(rec, findings))
	if rec != nil {
		forEachString(reflect.ValueOf(rec.Frontmatter).Elem(), func(s string) {
			b.WriteString(s)
			b.WriteByte(0)
		})
	}
	return b.String()
}

// checkSharesNoText holds ParseRecord to its promise that the outcome
// shares no memory with text: it parses text viewed from a buffer, then
// overwrites the buffer, and the outcome must read the same.
func checkSharesNoText(t testing.TB, path, text string) {
	t.Helper()
	buf := []byte(text)
	view := unsafe.String(unsafe.SliceData(buf), len(buf))
	rec, findings := ParseRecord(path, view)
	before := outcomeStrings(rec, findings)
	for i := range buf {
		buf[i] = '#'
	}
	if after := outcomeStrings(rec, findings); after != before {
		t.Errorf("the outcome of %q changed with the text it was parsed from:\n%s\n%s", text, before, after)
	}
}

// TestParseRecordSharesNoText runs checkSharesNoText over the fixtures
// (one per rule), a generated corpus with broken files, and records that
// cannot be frozen.
func TestParseRecordSharesNoText(t *testing.T) {
	in := compactInputs(t)
	c := corpusgen.New(corpusgen.Config{N: 300, Seed: 9, Broken: 0.2, Federated: 2})
	for _, name := range c.Names() {
		in[name] = string(c.Files[name])
	}
	for name, text := range in {
		checkSharesNoText(t, "docs/adr/"+name, text)
	}
}

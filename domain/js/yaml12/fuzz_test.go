package yaml12

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// FuzzParse checks that Parse never panics, answers the same way twice,
// and that what it accepts serialises to valid JSON. Seeds live in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add("id: \"0001\"\ntitle: Adopt\nstatus: accepted\ndate: 2026-01-01\ntags: [a, b]\n")
	f.Fuzz(func(t *testing.T, text string) {
		first, err1 := Parse(text)
		second, err2 := Parse(text)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("Parse(%q) is not deterministic: %v then %v", text, err1, err2)
		}
		if err1 != nil {
			var se *SyntaxError
			var re *ResolveError
			if !errors.As(err1, &se) && !errors.As(err1, &re) {
				t.Fatalf("Parse(%q) returned %T", text, err1)
			}
			if err1.Error() != err2.Error() || err1.Error() == "" {
				t.Fatalf("Parse(%q) errors differ or are empty: %q, %q", text, err1, err2)
			}
			return
		}
		if describeString(first.Value) != describeString(second.Value) {
			t.Fatalf("Parse(%q) values differ", text)
		}
		if len(first.Lines) != len(second.Lines) {
			t.Fatalf("Parse(%q) lines differ", text)
		}
		for k, v := range first.Lines {
			if second.Lines[k] != v {
				t.Fatalf("Parse(%q) Lines[%q] differs", text, k)
			}
		}
		if out := jsvalue.AppendJSON(nil, first.Value); !json.Valid(out) {
			t.Fatalf("Parse(%q) value serialises to invalid JSON %q", text, out)
		}
	})
}

package frontmatter

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// Markers stand for values JSON cannot spell; tree swaps them in.
const (
	markNaN    = "«NaN»"
	markInf    = "«Inf»"
	markNegInf = "«-Inf»"
	markNegZ   = "«-0»"
	markAbsent = "«absent»" // in an override: drop the key from the base
	// markLoneSurrogate is "\ud800ab" as yaml12 carries it (WTF-8).
	markLoneSurrogate = "«lone-surrogate»"
)

// tree decodes JSON into the values yaml12 produces: ordered objects,
// float64 numbers, markers replaced.
func tree(t testing.TB, src string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(src))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		t.Fatalf("bad test JSON %q: %v", src, err)
	}
	return v
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch x := tok.(type) {
	case json.Delim:
		switch x {
		case '{':
			o := jsvalue.NewObject(4)
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.Set(kt.(string), v)
			}
			_, err := dec.Token()
			return o, err
		case '[':
			a := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token()
			return a, err
		}
	case json.Number:
		return strconv.ParseFloat(string(x), 64)
	case string:
		switch x {
		case markNaN:
			return math.NaN(), nil
		case markInf:
			return math.Inf(1), nil
		case markNegInf:
			return math.Inf(-1), nil
		case markNegZ:
			return math.Copysign(0, -1), nil
		case markLoneSurrogate:
			return "\xed\xa0\x80ab", nil
		}
		if c, ok := strings.CutPrefix(x, "«exotic:"); ok {
			return jsvalue.Exotic{Constructor: strings.TrimSuffix(c, "»")}, nil
		}
		return x, nil
	}
	return tok, nil
}

const baseDoc = `{"id":"0001","title":"A decision","status":"draft","date":"2026-01-01"}`

// doc is baseDoc with the top-level members of override set (or, for
// markAbsent, removed), in override order after the base keys.
func doc(t testing.TB, override string) any {
	t.Helper()
	base := tree(t, baseDoc).(*jsvalue.Object)
	if override == "" {
		return base
	}
	over := tree(t, override).(*jsvalue.Object)
	out := jsvalue.NewObject(base.Len() + over.Len())
	for _, k := range base.Keys() {
		if v, ok := over.Get(k); ok {
			if v == markAbsent {
				continue
			}
			out.Set(k, v)
			continue
		}
		v, _ := base.Get(k)
		out.Set(k, v)
	}
	for _, k := range over.Keys() {
		if base.Has(k) {
			continue
		}
		v, _ := over.Get(k)
		out.Set(k, v)
	}
	return out
}

// summary renders issues as "rule field" lines (field "-" for the root).
func summary(issues []Issue) []string {
	out := make([]string, len(issues))
	for i, is := range issues {
		f := is.Field
		if f == "" {
			f = "-"
		}
		out[i] = is.Rule + " " + f
	}
	return out
}

package glob

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// recording is the reference's answers for a set of patterns, recorded
// by TestOracleRecord (oracle_test.go) from picomatch 4.0.5 itself.
type recording struct {
	// Candidates are tried against every pattern.
	Candidates []string          `json:"candidates"`
	Patterns   []recordedPattern `json:"patterns"`
}

type recordedPattern struct {
	Pattern string `json:"pattern"`
	// Throws is true when the reference's compiler throws.
	Throws bool   `json:"throws,omitempty"`
	Source string `json:"source,omitempty"`
	// Valid is false when JavaScript rejects Source, so that only the
	// literal-equality shortcut can match.
	Valid bool `json:"valid,omitempty"`
	// Extra candidates are tried after the shared ones; Results holds one
	// "1" (match) or "0" per candidate, shared ones first.
	Extra   []string `json:"extra,omitempty"`
	Results string   `json:"results,omitempty"`
}

func TestReferenceRecording(t *testing.T) {
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec recording
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Patterns) < 500 {
		t.Fatalf("only %d recorded patterns", len(rec.Patterns))
	}
	for _, rp := range rec.Patterns {
		g, err := Compile(rp.Pattern)
		if rp.Throws {
			if err == nil {
				t.Errorf("%q: the reference throws, we compiled", rp.Pattern)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", rp.Pattern, err)
			continue
		}
		if got := unitsString(sourceUnits(g)); got != rp.Source {
			t.Errorf("%q:\n got source %s\nwant source %s", rp.Pattern, got, rp.Source)
		}
		if got := g.Source() != "$^"; got != rp.Valid {
			t.Errorf("%q: valid %v, want %v", rp.Pattern, got, rp.Valid)
		}
		cands := append(append([]string(nil), rec.Candidates...), rp.Extra...)
		if len(cands) != len(rp.Results) {
			t.Fatalf("%q: %d candidates, %d results", rp.Pattern, len(cands), len(rp.Results))
		}
		for i, c := range cands {
			if want := rp.Results[i] == '1'; g.Match(c) != want {
				t.Errorf("%q vs %q: got %v, want %v", rp.Pattern, c, !want, want)
			}
		}
	}
}

// regexRecording is JavaScript's verdict on regex sources (validity, and
// matches against shared candidates), recorded by TestOracleRecordRegex.
type regexRecording struct {
	Candidates []string        `json:"candidates"`
	Regexes    []recordedRegex `json:"regexes"`
}

type recordedRegex struct {
	Source  string `json:"source"`
	Valid   bool   `json:"valid"`
	Results string `json:"results,omitempty"`
}

func TestJSRegexRecording(t *testing.T) {
	b, err := os.ReadFile("testdata/jsregex.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec regexRecording
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	for _, rr := range rec.Regexes {
		re, err := parseRegex(toUnits(rr.Source))
		if (err == nil) != rr.Valid {
			t.Errorf("regex %q: our error %v, JavaScript valid %v", rr.Source, err, rr.Valid)
			continue
		}
		if err != nil {
			continue
		}
		var prog *program
		if !re.hasBackrefs {
			// Huge counted repetitions are beyond the memoised matcher
			// (documented); the backtracker still answers below.
			if prog, err = compileProgram(re); err != nil && !errors.Is(err, errProgramTooLarge) {
				t.Fatalf("regex %q: %v", rr.Source, err)
			}
		}
		for i, c := range rec.Candidates {
			want := rr.Results[i] == '1'
			u := toUnits(c)
			if got := re.backtrackMatch(u); got != want {
				t.Errorf("regex %q vs %q: backtracker %v, want %v", rr.Source, c, got, want)
			}
			if prog != nil {
				if got := prog.match(u); got != want {
					t.Errorf("regex %q vs %q: memo matcher %v, want %v", rr.Source, c, got, want)
				}
			}
		}
	}
}

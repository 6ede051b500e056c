package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// fuzzFileSeparator splits a fuzzed blob into candidate files.
const fuzzFileSeparator = "\n%%%%\n"

// maxFuzzCandidates bounds the files of one fuzzed corpus.
const maxFuzzCandidates = 16

// invariantRules are the cross-record rules: the only findings a record
// (rather than an excluded file) can carry.
var invariantRules = []string{
	RuleUniqueID, RuleDanglingSupersedes, RuleDanglingSupersededBy, RuleDanglingRelatesTo,
	RuleDanglingConflictsWith, RuleAcceptedConflictsWith, RuleImportIncomplete,
}

// fuzzCandidates turns a blob and a shape into candidates: one per piece
// of the blob, named NNNN-fI.md with NNNN drawn from shape (so the file
// order differs from the piece order), and every fourth-or-so excluded
// before reading as shape says.
func fuzzCandidates(blob []byte, shape uint64) []Candidate {
	pieces := bytes.Split(blob, []byte(fuzzFileSeparator))
	if len(pieces) > maxFuzzCandidates {
		pieces = pieces[:maxFuzzCandidates]
	}
	cands := make([]Candidate, len(pieces))
	for i, piece := range pieces {
		num := (shape>>(3*uint(i)%60))&7 + 1
		cands[i] = Candidate{Path: fmt.Sprintf("docs/adr/%04d-f%d.md", num, i), Content: piece}
		switch (shape >> (48 + uint(i)%16)) & 0x3 {
		case 1:
			if i%3 == 0 {
				cands[i] = Candidate{Path: cands[i].Path, Exclusion: ExcludedTooLarge}
			}
		case 2:
			if i%3 == 1 {
				cands[i] = Candidate{Path: cands[i].Path, Exclusion: ExcludedStatError}
			}
		case 3:
			if i%3 == 2 {
				cands[i] = Candidate{Path: cands[i].Path, Exclusion: ExcludedReadError, Cause: "permission to read the file was denied"}
			}
		}
	}
	return cands
}

func cloneCandidates(cands []Candidate) []Candidate {
	out := make([]Candidate, len(cands))
	for i, c := range cands {
		c.Content = bytes.Clone(c.Content)
		out[i] = c
	}
	return out
}

// FuzzBuild projects random candidate sets. Properties:
//
//   - Build never panics and does not modify its input;
//   - it is deterministic, and independent of the order the candidates
//     come in (same fingerprint, records and findings);
//   - every candidate is accounted for exactly once: a record with its
//     path, or excluded with at least one finding naming its path (and an
//     excluded candidate carries only per-file findings, a record only
//     cross-record ones); recordCount + excludedCount is the number of
//     candidates;
//   - records are in canonical (id, path) order, byId indexes exactly
//     them, and findings are in canonical order;
//   - unique-id names every holder of a shared id, and nobody else;
//   - the fingerprint is the SHA-256 of the generic canonical JSON of the
//     projection (the independent writer the fingerprint tests use).
func FuzzBuild(f *testing.F) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "corpora", "*"))
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		var pieces [][]byte
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				pieces = append(pieces, b)
			}
		}
		if len(pieces) > 0 {
			f.Add(bytes.Join(pieces, []byte(fuzzFileSeparator)), uint64(0x0123456789abcdef))
		}
	}
	rec := func(id, extra string) string {
		return "---\nid: \"" + id + "\"\ntitle: Record " + id + "\nstatus: accepted\ndate: 2026-01-01\ndeciders: [a]\n" + extra + "---\nbody\n"
	}
	f.Add([]byte(rec("0001", "supersededBy: \"0002\"\n")+fuzzFileSeparator+rec("0001", "conflictsWith: [\"0001\", \"0003\"]\n")+
		fuzzFileSeparator+rec("0002", "relatesTo: [\"x:0009\"]\nsupersedes: [\"0007\"]\n")), uint64(0xfff0000000000001))
	f.Fuzz(func(t *testing.T, blob []byte, shape uint64) {
		cands := fuzzCandidates(blob, shape)
		orig := cloneCandidates(cands)
		p := Build(cands, nil)
		if !reflect.DeepEqual(cands, orig) {
			t.Fatal("Build modified its candidates")
		}
		rev := cloneCandidates(cands)
		slices.Reverse(rev)
		for i, q := range []*Projection{Build(cands, nil), Build(rev, nil)} {
			if q.Fingerprint != p.Fingerprint || !reflect.DeepEqual(q.Findings, p.Findings) || len(q.Records) != len(p.Records) {
				t.Fatalf("build %d differs from the first", i+2)
			}
			for j := range q.Records {
				if q.Records[j].SourcePath != p.Records[j].SourcePath || q.Records[j].Body != p.Records[j].Body {
					t.Fatalf("build %d: record %d differs", i+2, j)
				}
			}
		}

		if p.RecordCount != len(p.Records) || p.RecordCount+p.ExcludedCount != len(cands) {
			t.Fatalf("counts %d+%d with %d records, %d candidates", p.RecordCount, p.ExcludedCount, len(p.Records), len(cands))
		}
		records := map[string]bool{}
		for _, r := range p.Records {
			if records[r.SourcePath] {
				t.Fatalf("%s is two records", r.SourcePath)
			}
			records[r.SourcePath] = true
		}
		findingsOf := map[string][]string{}
		for _, fd := range p.Findings {
			findingsOf[fd.Path] = append(findingsOf[fd.Path], fd.Rule)
		}
		for _, c := range cands {
			rules := findingsOf[c.Path]
			perFile := slices.ContainsFunc(rules, func(r string) bool { return !slices.Contains(invariantRules, r) })
			crossRecord := slices.ContainsFunc(rules, func(r string) bool { return slices.Contains(invariantRules, r) })
			switch {
			case records[c.Path] && perFile:
				t.Fatalf("%s is a record with per-file findings %v", c.Path, rules)
			case !records[c.Path] && (len(rules) == 0 || crossRecord):
				t.Fatalf("%s is excluded with findings %v", c.Path, rules)
			}
			want := map[Exclusion]string{ExcludedTooLarge: RuleRecordTooLarge, ExcludedStatError: RuleRecordStatError, ExcludedReadError: RuleFileRead}[c.Exclusion]
			if want != "" && !slices.Equal(rules, []string{want}) {
				t.Fatalf("%s excluded before reading (%d) has findings %v, want one %s", c.Path, c.Exclusion, rules, want)
			}
		}

		if !slices.IsSortedFunc(p.Records, adr.CompareRecords) {
			t.Fatal("records are not in canonical order")
		}
		if !slices.IsSortedFunc(p.Findings, adr.CompareFindings) {
			t.Fatal("findings are not in canonical order")
		}
		indexed := 0
		for id, bucket := range p.ByID {
			for _, r := range bucket {
				if r.Frontmatter.ID != id {
					t.Fatalf("byId[%q] holds %s", id, r.Frontmatter.ID)
				}
			}
			indexed += len(bucket)
			uniqueIDs := 0
			for _, fd := range p.Findings {
				if fd.Rule == RuleUniqueID && fd.ID == id {
					uniqueIDs++
				}
			}
			if want := len(bucket); (want > 1 && uniqueIDs != want) || (want == 1 && uniqueIDs != 0) {
				t.Fatalf("id %q held by %d records has %d unique-id findings", id, want, uniqueIDs)
			}
		}
		if indexed != len(p.Records) {
			t.Fatalf("byId indexes %d records of %d", indexed, len(p.Records))
		}

		sum := sha256.Sum256([]byte(genericCanonical(p.Records, p.Findings, p.RecordCount, p.ExcludedCount)))
		if p.Fingerprint != hex.EncodeToString(sum[:]) {
			t.Fatal("the fingerprint is not the hash of the canonical projection")
		}
		ids := make([]string, 0, len(p.ByID))
		for id := range p.ByID {
			ids = append(ids, id)
		}
		slices.SortFunc(ids, jsstring.Compare)
		for i, id := range ids {
			if p.ByID[id][0] != p.Records[indexOfFirst(p.Records, id)] {
				t.Fatalf("byId[%q] does not start at its first record (%d)", id, i)
			}
		}
	})
}

// indexOfFirst is the index of the first record holding id.
func indexOfFirst(records []*adr.Record, id string) int {
	return slices.IndexFunc(records, func(r *adr.Record) bool { return r.Frontmatter.ID == id })
}

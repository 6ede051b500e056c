package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
)

// displayDir is where the fixtures pretend to live in a repository, so
// that goldens show realistic repository-relative paths.
const displayDir = "docs/adr/"

// readFixture discovers a fixture corpus the way a reader does: top-level
// regular files only, candidate names only, and anything over the size
// cap excluded unread.
func readFixture(t *testing.T, dir string) []Candidate {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cands []Candidate
	for _, e := range entries {
		if !e.Type().IsRegular() || !IsCandidateName(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		if info.Size() > MaxRecordBytes {
			cands = append(cands, Candidate{Path: displayDir + e.Name(), Exclusion: ExcludedTooLarge})
			continue
		}
		content, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		cands = append(cands, sizedCandidate(displayDir+e.Name(), content))
	}
	return cands
}

// sizedCandidate applies the size cap to bytes in hand: over the cap the
// candidate is excluded and its bytes are dropped, as a reader that never
// reads an oversized file would leave them.
func sizedCandidate(path string, content []byte) Candidate {
	if len(content) > MaxRecordBytes {
		return Candidate{Path: path, Exclusion: ExcludedTooLarge}
	}
	return Candidate{Path: path, Content: content}
}

// maxGoldenBody bounds the bodies written into goldens; longer ones are
// summarised (the fingerprint still pins every byte).
const maxGoldenBody = 2048

type goldenRecord struct {
	SourcePath  string          `json:"sourcePath"`
	Frontmatter json.RawMessage `json:"frontmatter"`
	Body        string          `json:"body"`
}

type goldenFinding struct {
	adr.Finding
	Line int `json:"line,omitempty"`
}

type goldenProjection struct {
	Records       []goldenRecord  `json:"records"`
	Findings      []goldenFinding `json:"findings"`
	RecordCount   int             `json:"recordCount"`
	ExcludedCount int             `json:"excludedCount"`
	Fingerprint   string          `json:"fingerprint"`
}

// renderProjection writes p as indented JSON: frontmatter in its own key
// order, findings with their line, nothing HTML-escaped.
func renderProjection(t *testing.T, p *Projection) []byte {
	t.Helper()
	g := goldenProjection{
		Records:       []goldenRecord{},
		Findings:      []goldenFinding{},
		RecordCount:   p.RecordCount,
		ExcludedCount: p.ExcludedCount,
		Fingerprint:   p.Fingerprint,
	}
	for _, r := range p.Records {
		text, err := frontmatter.JSON(r.Frontmatter)
		if err != nil {
			t.Fatal(err)
		}
		raw := []byte(text)
		body := r.Body
		if len(body) > maxGoldenBody {
			body = fmt.Sprintf("%s… (%d bytes in all)", body[:64], len(body))
		}
		g.Records = append(g.Records, goldenRecord{r.SourcePath, raw, body})
	}
	for _, f := range p.Findings {
		g.Findings = append(g.Findings, goldenFinding{f, f.Line})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(g); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGoldenCorpora(t *testing.T) {
	dirs, err := os.ReadDir("testdata/corpora")
	if err != nil {
		t.Fatal(err)
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"), goldie.WithNameSuffix(".json"))
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			p := Build(readFixture(t, filepath.Join("testdata/corpora", d.Name())), nil)
			g.Assert(t, d.Name(), renderProjection(t, p))
		})
	}
}

// TestGoldenSizeBoundary builds its candidates in code instead of keeping
// 64 KiB fixtures: a record of exactly MaxRecordBytes is kept, one byte
// more is excluded unread.
func TestGoldenSizeBoundary(t *testing.T) {
	record := func(id, title string, size int) []byte {
		head := "---\nid: \"" + id + "\"\ntitle: " + title + "\nstatus: proposed\ndate: 2026-03-02\n---\n\n# " + title + "\n\n"
		pad := strings.Repeat("Padding line to reach the size cap.\n", size/36+1)
		return []byte((head + pad)[:size])
	}
	atCap := record("0001", "Exactly at the size cap", MaxRecordBytes)
	overCap := record("0002", "One byte over the size cap", MaxRecordBytes+1)
	if len(atCap) != MaxRecordBytes || len(overCap) != MaxRecordBytes+1 {
		t.Fatalf("sizes %d/%d", len(atCap), len(overCap))
	}
	cands := []Candidate{
		sizedCandidate(displayDir+"0002-over-cap.md", overCap),
		sizedCandidate(displayDir+"0001-at-cap.md", atCap),
		sizedCandidate(displayDir+"0003-small.md", record("0003", "A small neighbour", 200)),
	}
	p := Build(cands, nil)
	if p.RecordCount != 2 || p.ExcludedCount != 1 {
		t.Errorf("counts = %d/%d, want 2/1", p.RecordCount, p.ExcludedCount)
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"), goldie.WithNameSuffix(".json"))
	g.Assert(t, "size-boundary", renderProjection(t, p))
}

// TestWorkedExampleEndToEnd runs the reference's worked example (corpus.md
// §12) through the real parser. Our record-too-large message differs from
// the reference's, so the published digest is checked with the finding's
// message swapped for the reference's text: everything else (the parsed
// frontmatter with its defaults, the body, the counts, the canonical
// writer) must match byte for byte.
func TestWorkedExampleEndToEnd(t *testing.T) {
	const ordered = "---\nschemaVersion: 0.1.0\nid: \"0001\"\ntitle: Same decision\nstatus: accepted\n" +
		"date: 2026-01-01\ndeciders:\n  - \"@maintainer\"\ntags:\n  - alpha\n  - beta\n---\n\n" +
		"# Same decision\n\nBody text stays byte-for-byte.\n"
	p := Build([]Candidate{
		sizedCandidate(displayDir+"0002-too-big.md", bytes.Repeat([]byte("x"), MaxRecordBytes+1)),
		sizedCandidate(displayDir+"0001-same-decision.md", []byte(ordered)),
	}, nil)
	if len(p.Findings) != 1 || p.Findings[0].Rule != RuleRecordTooLarge {
		t.Fatalf("findings = %+v", p.Findings)
	}
	findings := slices.Clone(p.Findings)
	findings[0].Message = "ADR source exceeds the 64 KiB maximum and was excluded from this response"
	const want = "6153296fd3698e3989886843eaf223d9bfc3fde96aefe730c3176428c8a3954f"
	if got := fingerprint(p.Records, findings, p.RecordCount, p.ExcludedCount); got != want {
		t.Errorf("fingerprint with the reference's message = %s, want %s\ncanonical: %s", got, want,
			genericCanonical(p.Records, findings, p.RecordCount, p.ExcludedCount))
	}
	if p.Fingerprint == want {
		t.Error("our own message should not reproduce the reference's digest")
	}
}

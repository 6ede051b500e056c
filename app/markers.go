package app

import (
	"context"
	"fmt"
	"strconv"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/internal/parallel"
	"github.com/adrkit/adrkit-go/ports"
)

// MarkerReport is what the heads of some files declare with "@adr"
// markers (docs/cli.md, "@adr markers").
type MarkerReport struct {
	// Files are the files asked about, normalised, without repeats and
	// sorted (UTF-16 code units); past markers.BatchFileCap they are
	// Skipped, never dropped.
	Files []markers.FileScan
	// BatchOmitted counts the declarations left out past
	// markers.BatchCap.
	BatchOmitted int
}

// ReadMarkers reads the head of each file through src and scans it. It
// is the command line's: the MCP tools never open the files they are
// asked about. The only error is a cancelled context.
func ReadMarkers(ctx context.Context, src ports.FileHeadReader, files []string) (MarkerReport, error) {
	read, skipped := markers.Select(files)
	rep := MarkerReport{Files: make([]markers.FileScan, len(read), len(read)+len(skipped))}
	errs := make([]error, len(read))
	parallel.For(len(read), 64, func(_, i int) bool {
		h, err := src.ReadHead(ctx, read[i])
		if err != nil {
			errs[i] = err
			return false
		}
		rep.Files[i] = markers.ScanFile(read[i], h)
		return true
	})
	for _, err := range errs {
		if err != nil {
			return MarkerReport{}, fmt.Errorf("reading @adr markers: %w", err)
		}
	}
	for _, p := range skipped {
		rep.Files = append(rep.Files, markers.FileScan{Path: p, State: markers.Skipped, FileBytes: -1})
	}
	rep.BatchOmitted = markers.CapBatch(rep.Files)
	return rep, nil
}

// Declarations lists the kept declarations of every file, in order.
func (m MarkerReport) Declarations() []markers.Declaration { return markers.Declarations(m.Files) }

// Findings are the findings of the scan itself: a file whose
// declarations went past the per-file cap, and the batch going past its
// own.
func (m MarkerReport) Findings() []adr.Finding {
	var out []adr.Finding
	for _, f := range m.Files {
		if f.Omitted > 0 {
			out = append(out, markers.CappedFinding(f.Path, f.Omitted, markers.FileCap))
		}
	}
	if m.BatchOmitted > 0 {
		out = append(out, markers.CappedFinding("", m.BatchOmitted, markers.BatchCap))
	}
	return out
}

// Declared is a place a file declared a record with an "@adr" marker.
type Declared struct {
	Path Text   `json:"path"`
	Line int    `json:"line"`
	Ref  string `json:"ref"`
}

// declarations is what markers bind in one projection: the places each
// record was declared, and the findings of the binding.
type declarations struct {
	sites    map[*adr.Record][]Declared
	findings []adr.Finding
}

// bindMarkers binds decls to the records of p; nil when there are none,
// so that an answer without markers is computed exactly as before.
func bindMarkers(p *corpus.Projection, decls []markers.Declaration) *declarations {
	if len(decls) == 0 {
		return nil
	}
	res := markers.Resolve(p.Records, p.ByID, decls)
	d := &declarations{sites: make(map[*adr.Record][]Declared, len(res.Matches)), findings: res.Findings}
	for _, m := range res.Matches {
		out := make([]Declared, len(m.DeclaredBy))
		for i, s := range m.DeclaredBy {
			out[i] = Declared{Path: Text(s.Path), Line: s.Line, Ref: s.Ref}
		}
		d.sites[m.Record] = out
	}
	return d
}

// of returns the places r was declared.
func (d *declarations) of(r *adr.Record) []Declared {
	if d == nil {
		return nil
	}
	return d.sites[r]
}

// contextShape is what a get_decision_context cursor is bound to: the
// files and the page size, and, when the command line read markers, the
// declarations too, since they change the walk a cursor points into.
func contextShape(files []string, in ContextInput) []any {
	shape := []any{files, in.limit()}
	if len(in.Markers) == 0 {
		return shape
	}
	decls := make([]string, len(in.Markers))
	for i, d := range in.Markers {
		decls[i] = d.Path + ":" + strconv.Itoa(d.Line) + ":" + d.Ref
	}
	return append(shape, decls)
}

// RefuseContext is the refusal get_decision_context gives in, if any, so
// that a caller can refuse bad files before reading their markers.
func RefuseContext(in ContextInput) (Result, bool) { return refuse(in) }

package app

import (
	"context"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

func governReader() *memcorpus.Reader {
	return corpusOf(
		regular("0001-pg.md", "---\nid: \"0001\"\ntitle: Use PostgreSQL\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@a\"]\n"+
			"affects:\n  - type: path\n    pattern: \"db/**\"\n  - type: package\n    pattern: \"pg@not a range\"\n---\n\n## Decision\n\nWe use PostgreSQL. Always.\n"),
		regular("0002-mongo.md", "---\nid: \"0002\"\ntitle: Use MongoDB\nstatus: rejected\ndate: 2026-01-01\n"+
			"affects:\n  - type: path\n    pattern: \"db/**\"\n---\n\n## Decision\n\nNo.\n"),
		regular("0003-logs.md", "---\nid: \"0003\"\ntitle: Log JSON\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@a\"]\n---\n"),
		regular("0004-broken.md", "---\nid: \"0004\"\ntitle: Broken\nstatus: approved\ndate: 2026-01-01\n"+
			"affects:\n  - type: path\n    pattern: \"db/**\"\n---\n"),
	)
}

// Govern answers from the valid records of a corpus with errors, with the
// decision sentence of governing records only, and markers count.
func TestGovern(t *testing.T) {
	s := New(governReader(), Options{})
	rep := MarkerReport{Files: []markers.FileScan{{Path: "db/conn.go", State: markers.Scanned,
		Scan: markers.Scan{Declarations: []markers.Declaration{{Path: "db/conn.go", Ref: "0003", ID: "0003", Line: 2}}}}}}
	g, err := s.Govern(context.Background(), GovernInput{Files: []string{"db/conn.go", "README.md", "db/conn.go"}, Markers: rep})
	if err != nil {
		t.Fatal(err)
	}
	if g.Errors != 1 || len(g.Files) != 2 || g.Files[0].Path != "README.md" || g.Files[0].Covered() {
		t.Fatalf("governance %+v", g)
	}
	f := g.Files[1]
	if len(f.Governing) != 2 || f.Governing[0].ID != "0001" || f.Governing[0].Decision != "We use PostgreSQL." ||
		f.Governing[1].ID != "0003" || len(f.Governing[1].DeclaredBy) != 1 || f.Governing[1].Decision != "" {
		t.Fatalf("governing %+v", f.Governing)
	}
	if len(f.History) != 1 || f.History[0].ID != "0002" || f.History[0].Decision != "" {
		t.Fatalf("history %+v", f.History)
	}
	d, err := s.Digest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if d.Records != 3 || d.Errors != 1 || len(d.Rejected) != 1 || d.Rejected[0].ID != "0002" ||
		len(d.Counts) != 2 || d.Counts[0] != (StatusCount{adr.StatusAccepted, 2}) || d.Counts[1] != (StatusCount{adr.StatusRejected, 1}) {
		t.Fatalf("digest %+v", d)
	}
}

func TestGovernUnavailable(t *testing.T) {
	s := New(openFails(unavailableErr("dir-not-found")), Options{})
	if _, err := s.Govern(context.Background(), GovernInput{Files: []string{"a"}}); err == nil {
		t.Fatal("no error for an unusable corpus")
	}
	if _, err := s.Digest(context.Background()); err == nil {
		t.Fatal("no error for an unusable corpus")
	}
}

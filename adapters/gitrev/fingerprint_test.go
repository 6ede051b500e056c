package gitrev

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/internal/linktest"
	"github.com/adrkit/adrkit-go/ports"
)

// TestFingerprintMatchesWorkingTree is the point of the revision source:
// the same bytes give the same projection, wherever they are read from. A
// corpus committed and checked out is projected through this reader and
// through the working-tree reader, and every part of the two projections,
// fingerprint included, must agree.
func TestFingerprintMatchesWorkingTree(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	var files []file
	entries, err := os.ReadDir(filepath.Join("testdata", "records"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata", "records", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, reg("docs/adr/"+e.Name(), string(b)))
	}
	// What discovery and the pre-read guard must treat alike: a record
	// over the cap, one exactly at it, a symlinked record, a directory
	// named like a record, nested and non-record files.
	files = append(files,
		reg("docs/adr/0007-too-big.md", strings.Repeat("x", corpus.MaxRecordBytes+1)),
		reg("docs/adr/0008-at-the-cap.md", "---\nid: \"0008\"\n---\n"+strings.Repeat("y", corpus.MaxRecordBytes-19)),
		link("docs/adr/0009-link.md", "0001-read-the-corpus-from-a-commit.md"),
		record("docs/adr/0010-folder.md/0011-inside.md", "0011"),
		record("docs/adr/nested/0012-nested.md", "0012"),
		reg("docs/adr/README.md", "# Decisions\n"),
		reg("docs/adr/0000-template.md", "---\n---\n"),
	)
	repo.CommitOn("main", "decisions\n", files...)

	t.Run("frontmatter pipeline", func(t *testing.T) {
		compareProjections(t, repo, files, nil)
	})
	t.Run("raw bytes", func(t *testing.T) {
		// A stand-in parser that makes every candidate a record holding
		// its exact bytes: any difference in discovery, the guard, the
		// display paths or the bytes read shows in the fingerprint.
		compareProjections(t, repo, files, rawParse)
	})
}

// rawParse turns a candidate into a record whose frontmatter holds the
// candidate's bytes, without parsing them.
func rawParse(p string, content []byte) (*adr.Record, []adr.Finding) {
	id, _, _ := strings.Cut(path.Base(p), "-")
	raw := jsvalue.NewObject(2)
	raw.Set("id", id)
	raw.Set("content", string(content))
	return &adr.Record{SourcePath: p, Body: string(content), Frontmatter: &adr.Frontmatter{ID: id, Status: adr.StatusAccepted,
		Canonical: string(jsvalue.AppendCanonical(nil, raw))}}, nil
}

// compareProjections projects the committed and checked-out corpus of repo
// through both readers with parse (nil: the default pipeline) and
// requires every part of the two projections to agree.
func compareProjections(t *testing.T, repo *gittest.Repo, files []file, parse corpus.ParseFunc) {
	ctx := context.Background()
	checkout(t, repo.Root(), files)
	t.Cleanup(func() { uncheckout(t, repo.Root()) })
	project := func(r ports.CorpusReader) *corpus.Projection {
		t.Helper()
		p, err := app.New(r, app.Options{Parse: parse}).Project(ctx)
		if err != nil {
			t.Fatalf("Project: %v", err)
		}
		return p
	}
	fromTree := project(filesystem.New(repo.Root(), "docs/adr"))
	fromCommit := project(New(repo.Root(), "docs/adr", "HEAD"))

	if fromCommit.RecordCount == 0 || len(fromCommit.Findings) == 0 {
		t.Fatalf("the fixture should give records and findings: %d records, %d findings", fromCommit.RecordCount, len(fromCommit.Findings))
	}
	if fromCommit.Fingerprint != fromTree.Fingerprint {
		t.Errorf("fingerprint from the commit %s, from the working tree %s", fromCommit.Fingerprint, fromTree.Fingerprint)
	}
	if fromCommit.RecordCount != fromTree.RecordCount || fromCommit.ExcludedCount != fromTree.ExcludedCount {
		t.Errorf("counts from the commit %d/%d, from the working tree %d/%d",
			fromCommit.RecordCount, fromCommit.ExcludedCount, fromTree.RecordCount, fromTree.ExcludedCount)
	}
	if !reflect.DeepEqual(fromCommit.Findings, fromTree.Findings) {
		t.Errorf("findings differ\nfrom the commit %+v\nfrom the working tree %+v", fromCommit.Findings, fromTree.Findings)
	}
	if len(fromCommit.Records) != len(fromTree.Records) {
		t.Errorf("%d records from the commit, %d from the working tree", len(fromCommit.Records), len(fromTree.Records))
	}
	for i := range min(len(fromCommit.Records), len(fromTree.Records)) {
		if a, b := fromCommit.Records[i], fromTree.Records[i]; a.SourcePath != b.SourcePath || a.Body != b.Body {
			t.Errorf("record %d: %s from the commit, %s from the working tree", i, a.SourcePath, b.SourcePath)
		}
	}

	// A bare clone of the same commit agrees too.
	bare := repo.CloneBare(filepath.Join(base(t), "mirror.git"))
	if fp := project(New(bare.Root(), "docs/adr", "main")).Fingerprint; fp != fromTree.Fingerprint {
		t.Errorf("fingerprint from a bare clone %s, want %s", fp, fromTree.Fingerprint)
	}

	// Editing the working tree changes its projection, not the commit's.
	writeFile(t, filepath.Join(repo.Root(), "docs", "adr", "0003-re-resolve-references.md"), recordText("0003"))
	if fp := project(filesystem.New(repo.Root(), "docs/adr")).Fingerprint; fp == fromTree.Fingerprint {
		t.Fatal("editing a record did not change the working tree's fingerprint")
	}
	if fp := project(New(repo.Root(), "docs/adr", "HEAD")).Fingerprint; fp != fromCommit.Fingerprint {
		t.Errorf("an uncommitted edit changed the commit's fingerprint: %s, was %s", fp, fromCommit.Fingerprint)
	}
}

// checkout writes files into the working tree at root, as a checkout of
// the commit holding them would.
func checkout(t *testing.T, root string, files []file) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		if f.Mode == 0 {
			writeFile(t, p, []byte(f.Content))
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		linktest.Make(t, f.Content, p)
	}
}

// uncheckout empties the working tree again, for the next subtest.
func uncheckout(t *testing.T, root string) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(root, "docs")); err != nil {
		t.Fatal(err)
	}
}

func TestSymlinkInvisibleToDiscovery(t *testing.T) {
	// A committed symlink named like a record is neither a record nor an
	// exclusion: discovery skips it silently, as it skips one on disk.
	repo := gittest.InitBare(t, filepath.Join(base(t), "repo"))
	repo.CommitOn("main", "link\n",
		record("docs/adr/0001-a.md", "0001"),
		link("docs/adr/0002-link.md", "0001-a.md"),
		link("docs/adr/0003-outside.md", "../../README.md"),
		reg("README.md", "# Repo\n"))
	p, err := app.New(New(repo.Root(), "docs/adr", "HEAD"), app.Options{Parse: rawParse}).Project(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if p.RecordCount != 1 || p.ExcludedCount != 0 || len(p.Findings) != 0 || p.Records[0].SourcePath != "docs/adr/0001-a.md" {
		t.Errorf("projection: %d records, %d excluded, findings %v; want only docs/adr/0001-a.md", p.RecordCount, p.ExcludedCount, p.Findings)
	}
}

package gitrev

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/ports"
)

// TestGoldenProjectionInput pins what a small repository gives through the
// port: the listings (names, display paths, kinds, sizes) and the outcome
// of reading every top-level entry, including the wording of each read
// error. The object ids are deterministic (fixed signatures), so they are
// part of the golden. Regenerate with go test ./adapters/gitrev/... -update
// and review the diff.
func TestGoldenProjectionInput(t *testing.T) {
	repo := gittest.Init(t, filepath.Join(base(t), "repo"))
	repo.CommitOn("main", "decisions\n",
		record("docs/decisions/0001-use-git.md", "0001"),
		record("docs/decisions/0002-use-go.md", "0002"),
		reg("docs/decisions/0003-too-big.md", strings.Repeat("x", corpus.MaxRecordBytes+1)),
		link("docs/decisions/0004-link.md", "0001-use-git.md"),
		exe("docs/decisions/0005-script.md", "#!/bin/sh\necho decided\n"),
		reg("docs/decisions/0006-folder.md/0007-inside.md", "inside\n"),
		reg("docs/decisions/README.md", "# Decisions\n"),
		reg("docs/decisions/drafts/0100-draft.md", "draft\n"),
		link("docs/adr", "decisions"),
		reg("README.md", "# Repository\n"),
	)
	r := New(repo.Root(), "docs/adr", "main")
	c := mustOpen(t, r)

	var b strings.Builder
	fmt.Fprintf(&b, "revision main = commit %s, ADR directory docs/adr = %s\n", c.commit, c.displayDir)
	for _, recursive := range []bool{false, true} {
		fmt.Fprintf(&b, "\nList(recursive=%v)\n", recursive)
		for _, e := range listOf(t, c, recursive) {
			fmt.Fprintf(&b, "  %-28s %-40s %s\n", e.Name, e.Path, kindName(e.Kind))
		}
	}
	b.WriteString("\nRead(name, 65536)\n")
	for _, e := range listOf(t, c, false) {
		data, err := c.Read(context.Background(), e.Name, corpus.MaxRecordBytes, nil)
		if err != nil {
			var re *ports.ReadError
			if !errors.As(err, &re) {
				t.Fatalf("Read(%s): %v", e.Name, err)
			}
			fmt.Fprintf(&b, "  %-28s %s: %v\n", e.Name, readKindName(re.Kind), re.Err)
			continue
		}
		fmt.Fprintf(&b, "  %-28s %d bytes, sha256 %x\n", e.Name, len(data), sha256.Sum256(data))
	}
	if err := c.Verify(context.Background()); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	goldie.New(t, goldie.WithFixtureDir("testdata/golden")).Assert(t, "projection-input", []byte(b.String()))
}

func kindName(k ports.EntryKind) string {
	switch k {
	case ports.KindRegular:
		return "regular"
	case ports.KindSymlink:
		return "symlink"
	case ports.KindDirectory:
		return "directory"
	}
	return "other"
}

func readKindName(k ports.ReadErrorKind) string {
	switch k {
	case ports.ReadTooLarge:
		return "ReadTooLarge"
	case ports.ReadStatFailed:
		return "ReadStatFailed"
	}
	return "ReadFailed"
}

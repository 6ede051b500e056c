package main

import (
	"path/filepath"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/adapters/gitrev"
	"github.com/adrkit/adrkit-go/ports"
)

// sourceReader reads the heads of repository files for "@adr" markers
// from where the corpus is read: the working tree, or with --rev the
// revision's tree, so that the files and the decisions are of one
// moment.
func sourceReader(s *settings) ports.SourceReader {
	if s.rev != "" {
		return gitrev.NewHeads(s.cwd, s.rev)
	}
	return filesystem.NewHeads(s.cwd)
}

// slashed is files with the platform's separator written "/", the form
// a marker reader takes: on Windows a backslash separates, elsewhere it
// is part of a name and stays.
func slashed(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = filepath.ToSlash(f)
	}
	return out
}

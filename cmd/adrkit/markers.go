package main

import (
	"path/filepath"

	"github.com/adrkit/adrkit-go/ports"
)

// sourceReader reads the heads of repository files for "@adr" markers
// from where the corpus is read (entry.Location.Heads).
func sourceReader(s *settings) ports.FileHeadReader { return s.where.Heads() }

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

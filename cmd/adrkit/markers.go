package main

import (
	"github.com/adrkit/adrkit-go/adapters/source"
	"github.com/adrkit/adrkit-go/ports"
)

// sourceReader reads the heads of repository files for "@adr" markers
// from where the corpus is read (source.Heads).
func sourceReader(s *settings) ports.SourceReader { return source.Heads(s.cwd, s.rev) }

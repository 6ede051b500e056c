package main

import (
	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/cmd/internal/entry"
)

// init makes --version (and -v) print "adrkit-mcp VERSION", as adrkit
// prints its own.
func init() { cli.VersionPrinter = entry.PrintVersion }

package main

import (
	"fmt"

	"github.com/urfave/cli/v3"
)

// init makes --version (and -v) print "adrkit-mcp VERSION", the form
// adrkit uses, so that both binaries report their build the same way.
// The version is mcp.Version: the release build's -ldflags stamp, or the
// module version Go recorded (see adapters/mcp/version.go).
func init() {
	cli.VersionPrinter = func(cmd *cli.Command) {
		fmt.Fprintf(cmd.Root().Writer, "%s %s\n", cmd.Root().Name, cmd.Root().Version)
	}
}

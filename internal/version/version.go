// Package version is the build's version, the one both binaries report:
// --version, the MCP server's serverInfo, the tool of a SARIF log.
package version

import (
	"runtime/debug"
	"strings"
)

// stamp is the version a release build sets, with
// -ldflags "-X github.com/adrkit/adrkit-go/internal/version.stamp=1.2.3".
var stamp string

// dev is the version of a build that is neither stamped nor installed at
// a module version (a go build in a checkout).
const dev = "0.1.0-dev"

// String is the build's version: the stamp, else the module version that
// `go install module@version` records in the binary, else dev.
func String() string {
	if stamp != "" {
		return stamp
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if mv := bi.Main.Version; mv != "" && mv != "(devel)" {
			return strings.TrimPrefix(mv, "v")
		}
	}
	return dev
}

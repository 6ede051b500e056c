package mcp

import (
	"runtime/debug"
	"strings"
)

// Version is the server version reported to clients and by the binary's
// --version. Release builds set it with
// -ldflags "-X github.com/adrkit/adrkit-go/adapters/mcp.Version=1.2.3";
// when it is left at its default, the module version recorded in the
// binary's build information replaces it, if there is one.
var Version = devVersion

const devVersion = "0.1.0-dev"

func init() {
	Version = resolveVersion(Version)
}

// resolveVersion keeps an explicitly set version and otherwise prefers the
// module version from the build information.
func resolveVersion(v string) string {
	if v != devVersion {
		return v
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if mv := bi.Main.Version; mv != "" && mv != "(devel)" {
			return strings.TrimPrefix(mv, "v")
		}
	}
	return v
}

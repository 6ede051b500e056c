package main

import (
	"regexp"
	"runtime"
)

// windowsEnvVar is how urfave/cli names a flag's environment variable in
// help on Windows: [%ADRKIT_CWD%]. Only adrkit's own variables are
// flags' variables: other %NAME% text, such as SARIF's %SRCROOT%, is
// output and stays as it is.
var windowsEnvVar = regexp.MustCompile(`%(ADRKIT_[A-Z0-9_]*)%`)

// unixEnvNotation turns Windows' %NAME% in help back into the $NAME the
// help goldens hold, so that one golden serves every system.
func unixEnvNotation(help string) string {
	if runtime.GOOS != "windows" {
		return help
	}
	return windowsEnvVar.ReplaceAllString(help, "$$$1")
}

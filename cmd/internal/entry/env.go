package entry

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"
)

// PrintVersion is both binaries' --version: "<name> <version>", the
// binary's name and the build's version (internal/version).
func PrintVersion(cmd *cli.Command) {
	fmt.Fprintf(cmd.Root().Writer, "%s %s\n", cmd.Root().Name, cmd.Root().Version)
}

// envSource is a flag value source reading a run's environment through
// its getenv rather than the process's, so that tests control it.
type envSource struct {
	key    string
	getenv func(string) (string, bool)
}

// Lookup reads the variable; an empty value counts as given.
func (s envSource) Lookup() (string, bool) { return s.getenv(s.key) }

// String names the source in the cli package's messages.
func (s envSource) String() string { return "environment variable " + s.key }

// GoString is String for %#v.
func (s envSource) GoString() string { return "envSource(" + s.key + ")" }

// IsFromEnv lets help text show the variable next to the option.
func (s envSource) IsFromEnv() bool { return true }

// Key is the variable's name.
func (s envSource) Key() string { return s.key }

// FromEnv is the value source of an option that may also come from the
// variable key, looked up with getenv (os.LookupEnv in a binary).
func FromEnv(getenv func(string) (string, bool), key string) cli.ValueSourceChain {
	return cli.NewValueSourceChain(envSource{key: key, getenv: getenv})
}

// DescribeParseError words a flag-parsing failure of the cli package, the
// same for both binaries.
func DescribeParseError(err error) string {
	msg := err.Error()
	const unknown, missing, invalid = "flag provided but not defined: -", "flag needs an argument: ", "invalid value "
	switch {
	case strings.HasPrefix(msg, unknown):
		return fmt.Sprintf("unknown option --%s", strings.TrimLeft(strings.TrimPrefix(msg, unknown), "-"))
	case strings.HasPrefix(msg, missing):
		return fmt.Sprintf("option --%s needs a value", strings.TrimLeft(strings.TrimPrefix(msg, missing), "-"))
	case strings.HasPrefix(msg, invalid):
		// invalid value "x" for flag -limit: strconv.ParseInt: ...
		rest := strings.TrimPrefix(msg, invalid)
		if val, flag, ok := strings.Cut(rest, " for flag "); ok {
			name, _, _ := strings.Cut(strings.TrimLeft(flag, "-"), ":")
			return fmt.Sprintf("option --%s needs a whole number, got %s", name, val)
		}
	}
	return msg
}

// ReportUsage writes adrkit's words for a command-line mistake in
// command (e.g. "adrkit lint"): the message and where the help is.
func ReportUsage(w io.Writer, command, msg string) {
	fmt.Fprintf(w, "adrkit: %s\nRun '%s --help' for usage.\n", msg, command)
}

// ReportFailure writes adrkit's words for a failure, msg on one line.
func ReportFailure(w io.Writer, msg string) {
	fmt.Fprintf(w, "adrkit: %s\n", msg)
}

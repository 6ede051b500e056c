package ports

import "context"

// Processes starts the commands an agent host's configuration names, as
// the host would: "adrkit doctor" checks that they are there, start and
// answer. A command that cannot be started, or does not finish in the
// implementation's time bound, is an error; one that ran and failed is a
// ProcessResult with its exit code.
type Processes interface {
	// LookPath finds an executable on PATH (or checks a path).
	LookPath(name string) (string, error)
	// Run runs argv in dir with stdin.
	Run(ctx context.Context, argv []string, dir string, stdin []byte) (ProcessResult, error)
}

// ProcessResult is what a command printed and how it ended.
type ProcessResult struct {
	Stdout, Stderr []byte
	Code           int
}

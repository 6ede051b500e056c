package entry

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/domain/corpus"
)

// Env is the prefix of the corpus options' environment variables: each
// option --name is also read from the variable Env + NAME.
type Env string

// The two sets of variable names.
const (
	// ServerEnv: adrkit-mcp's names, the reference server's, which
	// adrkit mcp reads too (ADRKIT_MCP_CWD, ...).
	ServerEnv Env = "ADRKIT_MCP_"
	// CLIEnv: the command line's own names (ADRKIT_CWD, ...).
	CLIEnv Env = "ADRKIT_"
)

// Var is the variable of option name ("dir": ADRKIT_MCP_DIR).
func (e Env) Var(name string) string { return string(e) + strings.ToUpper(name) }

// option names option name and its variable for a sentence: "--dir (or
// ADRKIT_DIR)".
func (e Env) option(name string) string { return "--" + name + " (or " + e.Var(name) + ")" }

// CorpusFlags are the options that say where the decisions are, the same
// for every command of both binaries: each also read from its variable
// of env through getenv (an empty value counts as given).
func CorpusFlags(getenv func(string) (string, bool), env Env) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{
			Name:      "cwd",
			Usage:     "repository root, a Git worktree (default: the nearest directory with a .git entry, from the working directory up)",
			Sources:   FromEnv(getenv, env.Var("cwd")),
			TakesFile: true,
		},
		&cli.StringFlag{
			Name: "dir",
			Usage: `ADR directory, relative to the repository root ("" for the root itself); by default the one an ` +
				`.adr-dir file names, else the first of docs/adr, doc/adr and docs/decisions that exists`,
			Value:     corpus.DefaultDir,
			Sources:   FromEnv(getenv, env.Var("dir")),
			TakesFile: true,
		},
		&cli.StringFlag{
			Name:    "rev",
			Usage:   "read the corpus from this git revision (HEAD, a branch, a tag, HEAD~3, a hash) instead of the working tree",
			Sources: FromEnv(getenv, env.Var("rev")),
		},
	}
}

// ServerVariables gives adrkit mcp what adrkit-mcp reads: each corpus
// option of cmd that neither the command line nor the command line's
// variable (CLIEnv) set is taken from the server's variable (ServerEnv),
// when that is set.
func ServerVariables(cmd *cli.Command, getenv func(string) (string, bool)) error {
	for _, name := range []string{"cwd", "dir", "rev"} {
		if v, ok := getenv(ServerEnv.Var(name)); ok && !cmd.IsSet(name) {
			if err := cmd.Set(name, v); err != nil {
				return fmt.Errorf("reading %s: %w", ServerEnv.Var(name), err)
			}
		}
	}
	return nil
}

// Where the ADR directory came from (Location.DirFrom), besides the
// repository path of the .adr-dir file that named it.
const (
	// DirFromOption: --dir or its variable.
	DirFromOption = "option"
	// DirFromDefault: the first of workspace.DefaultDirs that exists.
	DirFromDefault = "default"
	// DirFromNothing: nothing names one and none of the defaults exists;
	// the directory is the first default.
	DirFromNothing = ""
)

// Location is where a command reads the decisions from, and how each
// part was decided: the words of a failure depend on it ("Configured"
// only for what something configured; where the search looked otherwise).
// Its methods (root.go) build what reads there.
type Location struct {
	// Root is the repository root ("" when --cwd "" named none), Dir the
	// ADR directory relative to it ("." for the root itself), Rev the git
	// revision ("" for the working tree).
	Root, Dir, Rev string
	// WD is the directory FILE arguments are relative to: where the
	// command was started, or the root when --cwd named it.
	WD string
	// RootNamed: --cwd or its variable named the root; otherwise it is
	// the nearest directory with a .git entry at or above the working
	// directory, or the working directory itself when there is none.
	RootNamed bool
	// DirFrom is one of the DirFrom constants, or the repository path of
	// the .adr-dir file that named the directory.
	DirFrom string
	// Env names the options' variables in the words of a failure.
	Env Env
	// noRoot: no option named the root and no directory at or above the
	// working directory has a .git entry.
	noRoot bool
}

// Locate reads the corpus options of cmd (flags of cmd or of a parent)
// and fills in what none names: the root is found upward from the
// working directory, as git finds its own; the directory is the one an
// .adr-dir file names (adr-tools' convention; the nearest between the
// working directory and the root), else the first of
// workspace.DefaultDirs that exists, else the first of them. env is the
// variables cmd's options read (CorpusFlags).
func Locate(cmd *cli.Command, getwd func() (string, error), env Env) Location {
	c := Location{Root: cmd.String("cwd"), Dir: cmd.String("dir"), Rev: cmd.String("rev"), RootNamed: cmd.IsSet("cwd"), Env: env}
	if cmd.IsSet("dir") {
		c.DirFrom = DirFromOption
		if c.Dir == "" {
			c.Dir = "." // the root itself
		}
	}
	if !c.RootNamed {
		c.Root = "."
	}
	c.WD = c.Root
	if c.RootNamed && c.Root == "" {
		return c // names no directory: nothing to look in
	}
	wd, err := getwd()
	if err != nil {
		return c
	}
	if c.RootNamed {
		c.findDir(c.Root)
		return c
	}
	c.WD, c.noRoot = wd, true
	if found := c.Within(wd); !found.noRoot {
		return found
	}
	c.findDir(wd)
	return c
}

// Unlocated says l names no repository: no option named the root, and
// no directory at or above the working directory has a .git entry.
func (l Location) Unlocated() bool { return l.noRoot }

// Within is l as Locate finds it for a command started in wd, unless
// neither wd nor a directory above it has a .git entry: then it is l.
// What an option named is kept.
func (l Location) Within(wd string) Location {
	root, found := workspace.FindRoot(wd)
	if !found {
		return l
	}
	l.Root, l.WD, l.noRoot = root, wd, false
	l.findDir(wd)
	return l
}

// findDir fills in the ADR directory that no option named, for a command
// run in wd: what an .adr-dir file names, the first default that exists,
// or the first default.
func (l *Location) findDir(wd string) {
	if l.DirFrom == DirFromOption {
		return
	}
	l.Dir, l.DirFrom = corpus.DefaultDir, DirFromNothing
	if choice, err := workspace.FindDir(l.Root, wd); err == nil {
		l.Dir, l.DirFrom = choice.Dir, choice.From
	}
}

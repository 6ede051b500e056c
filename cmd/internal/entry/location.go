package entry

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
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
		wd = c.Root
	} else {
		c.WD = wd
		root, found := workspace.FindRoot(wd)
		if found {
			c.Root = root
		}
		c.noRoot = !found
	}
	if !cmd.IsSet("dir") {
		c.Dir = corpus.DefaultDir
		if choice, err := workspace.FindDir(c.Root, wd); err == nil {
			c.Dir, c.DirFrom = choice.Dir, choice.From
		}
	}
	return c
}

// Describe words an unusable corpus for a person, on one line: what is
// wrong ("Configured" only when an option or an .adr-dir file configured
// it), then where the search looked or what to do. It never quotes the
// underlying error, whose text may hold absolute paths, except for a git
// revision that does not resolve, whose cause names only the revision
// and commits. It returns "" when err is not an unusable corpus.
func (c Location) Describe(err error) string {
	var u *ports.UnavailableError
	if !errors.As(err, &u) {
		return ""
	}
	subject := u.Reason.Message()
	configured := u.Reason == corpus.CorpusChangedDuringLoad || c.RootNamed
	if isDirReason(u.Reason) {
		configured = c.DirFrom != DirFromNothing && c.DirFrom != DirFromDefault
	}
	if !configured {
		subject = "The " + strings.TrimPrefix(subject, "Configured ")
	}
	switch {
	case u.Reason == corpus.RootNotFound && c.Rev != "" && revisionCause(u.Err) != "":
		// The repository was found: what failed is the revision, which
		// the root's reason would not say (issue 33).
		return "The revision " + strconv.Quote(c.Rev) + " does not resolve to a commit of the repository: " +
			revisionCause(u.Err) + ". Correct " + c.Env.option("rev") + ": git branch -a and git tag list the names there are."
	case u.Reason == corpus.RootNotGit && c.noRoot && c.Rev == "":
		subject = "No Git repository here:"
	case u.Reason == corpus.DirNotFound && c.DirFrom == DirFromNothing:
		return NoDecisionsYet
	}
	return subject + " " + c.hint(u)
}

// NamedDirMissing says err is an ADR directory that an option named
// (--dir or its variable) and that does not exist or is not a
// directory: a set-up mistake, which the command line reports as a usage
// error (status 2) so that CI can tell it from a lint failure.
func (c Location) NamedDirMissing(err error) bool {
	var u *ports.UnavailableError
	return c.DirFrom == DirFromOption && errors.As(err, &u) &&
		(u.Reason == corpus.DirNotFound || u.Reason == corpus.DirNotDirectory)
}

// isDirReason tells the reasons about the ADR directory from those about
// the root.
func isDirReason(r corpus.UnavailableReason) bool {
	switch r {
	case corpus.DirNotFound, corpus.DirNotDirectory, corpus.DirNotReadable, corpus.DirOutsideRoot:
		return true
	}
	return false
}

// NoDecisionsYet is what every command of both binaries says in a
// repository that has no ADR directory and nothing naming one: where it
// looked, and the next step (issue 27 item 3).
var NoDecisionsYet = "This repository has no decisions yet: there is no " +
	listDirs(workspace.DefaultDirs, "or") + " directory and no " + workspace.AdrDirFile + " file naming one. " +
	"Run adrkit init to set the repository up (the first record included), or adrkit new \"Title\" to write " +
	"the first record in " + corpus.DefaultDir + "."

// hint is the second half of Describe: the one table from a reason to
// what to check or do.
func (c Location) hint(u *ports.UnavailableError) string {
	at := ""
	if c.Rev != "" {
		at = " at revision " + strconv.Quote(c.Rev)
	}
	setting := c.Env.option("dir")
	if c.DirFrom != DirFromOption && c.DirFrom != DirFromNothing && c.DirFrom != DirFromDefault {
		setting = c.DirFrom
	}
	switch u.Reason {
	case corpus.RootNotFound:
		if c.Rev != "" {
			return "Check " + c.Env.option("cwd") + " and " + c.Env.option("rev") + ": the repository or the revision " + strconv.Quote(c.Rev) + " does not exist."
		}
		if c.Root == "" {
			return c.Env.option("cwd") + ` is "", which names no directory; give the repository root.`
		}
		return "Check " + c.Env.option("cwd") + ": it must name an existing directory, the root of a Git repository."
	case corpus.RootNotDirectory:
		return c.Env.option("cwd") + " names a file; give the repository's root directory."
	case corpus.RootNotReadable:
		return "Check the permissions of the repository root."
	case corpus.RootNotGit:
		switch {
		case c.Rev != "":
			return "No Git repository could be opened there; --rev needs a repository (a worktree or a bare one) at --cwd."
		case c.noRoot:
			return "neither the working directory nor any directory above it has a .git entry. Start inside a repository, or name its root with " + c.Env.option("cwd") + "."
		}
		return "It has no .git entry: point " + c.Env.option("cwd") + " at the repository root, the directory that holds .git."
	case corpus.DirNotFound:
		what := "The ADR directory does not exist"
		if d := c.dirName(); strings.HasPrefix(d, `"`) {
			what = "There is no directory " + d
		}
		switch c.DirFrom {
		case DirFromOption, DirFromDefault:
			return what + " in the repository" + at + "; create it, or name the ADR directory with " + c.Env.option("dir") + "."
		}
		return what + " in the repository" + at + ", which " + setting + " names; create it, or correct " + setting + "."
	case corpus.DirNotDirectory:
		return c.dirName() + at + " is a file; " + setting + " must name a directory."
	case corpus.DirNotReadable:
		return c.dirName() + at + " could not be listed; check its permissions (or, with --rev, that the clone has the objects)."
	case corpus.DirOutsideRoot:
		return setting + " must stay inside the repository root (no \"..\" above it, no link out of it)."
	case corpus.CorpusChangedDuringLoad:
		return "Files changed while they were being read; run the command again."
	}
	return ""
}

// dirName is the ADR directory for a sentence: quoted and
// repository-relative, or a description ("the repository root"); an
// absolute one outside the root is not shown.
func (c Location) dirName() string {
	switch d := c.Dir; {
	case d == "" || d == ".":
		return "the repository root"
	case filepath.IsAbs(d):
		root, err := filepath.Abs(c.Root)
		if err != nil {
			return "the ADR directory"
		}
		rel, err := filepath.Rel(root, d)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "the ADR directory"
		}
		return strconv.Quote(filepath.ToSlash(rel))
	default:
		return strconv.Quote(path.Clean(filepath.ToSlash(d)))
	}
}

// listDirs joins names as "a, b or c" (with conjunction "or").
func listDirs(names []string, conjunction string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conjunction + " " + names[len(names)-1]
}

// revisionCause returns gitrev's explanation of a revision that does not
// resolve, when the error carries one: those messages start with
// "revision" or "commit" and name only the revision and hashes. Anything
// else (a repository path problem) is not quoted.
func revisionCause(err error) string {
	cause := ""
	for e := err; e != nil; e = errors.Unwrap(e) {
		// The innermost such message is the most specific one.
		if msg := e.Error(); strings.HasPrefix(msg, "revision ") || strings.HasPrefix(msg, "commit ") {
			cause = msg
		}
	}
	return cause
}

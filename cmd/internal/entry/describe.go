package entry

import (
	"errors"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

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

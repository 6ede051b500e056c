package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// Source says where a corpus is read from, in words fit to print: the
// ADR directory relative to the repository root, and the git revision
// when it is not the working tree.
type Source struct {
	// Dir is the ADR directory as shown: repository-relative, "/"
	// separated, "." for the root itself; "" when it cannot be shown
	// without an absolute path.
	Dir string
	// Rev is the git revision read from; "" for the working tree.
	Rev string
}

// NewSource describes the configured root, directory and revision. An
// absolute dir is shown relative to the root when it lies inside it
// (compared lexically) and not at all otherwise, so that no absolute path
// is ever printed.
func NewSource(root, dir, rev string) Source {
	s := Source{Rev: rev}
	switch {
	case dir == "" || dir == ".":
		s.Dir = "."
	case filepath.IsAbs(dir):
		absRoot, err := filepath.Abs(root)
		if err != nil {
			break
		}
		rel, err := filepath.Rel(absRoot, dir)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			s.Dir = filepath.ToSlash(rel)
		}
	default:
		s.Dir = path.Clean(filepath.ToSlash(dir))
	}
	return s
}

// dirName is the directory for a sentence: quoted, or a description.
func (s Source) dirName() string {
	switch s.Dir {
	case "":
		return "the ADR directory"
	case ".":
		return "the repository root"
	}
	return strconv.Quote(s.Dir)
}

// String is the source for a heading: `docs/adr (working tree)` or
// `docs/adr at revision "v1.2.0"`.
func (s Source) String() string {
	d := s.Dir
	switch d {
	case "":
		d = "the ADR directory"
	case ".":
		d = "the repository root"
	}
	if s.Rev != "" {
		return d + " at revision " + strconv.Quote(s.Rev)
	}
	return d + " (working tree)"
}

// DescribeUnavailable words an unusable corpus for a person: the fixed
// reason sentence, then what to check, naming the options involved. It
// never quotes the underlying error, whose text may hold absolute paths;
// the one exception is a git revision that does not resolve, whose cause
// (from adapters/gitrev) names only the revision and commits. It returns
// "" when err is not an unavailable corpus.
func DescribeUnavailable(err error, src Source) string {
	var u *ports.UnavailableError
	if !errors.As(err, &u) {
		return ""
	}
	return u.Reason.Message() + " " + unavailableHint(u, src)
}

func unavailableHint(u *ports.UnavailableError, src Source) string {
	at := ""
	if src.Rev != "" {
		at = " at revision " + strconv.Quote(src.Rev)
	}
	switch u.Reason {
	case corpus.RootNotFound:
		if src.Rev != "" {
			if cause := revisionCause(u.Err); cause != "" {
				return "The revision could not be resolved: " + cause + "."
			}
			return "Check --cwd (or ADRKIT_MCP_CWD) and --rev (or ADRKIT_MCP_REV): the repository or the revision " + strconv.Quote(src.Rev) + " does not exist."
		}
		return "Check --cwd (or ADRKIT_MCP_CWD): it must name an existing directory, the root of a Git repository."
	case corpus.RootNotDirectory:
		return "--cwd (or ADRKIT_MCP_CWD) names a file; give the repository's root directory."
	case corpus.RootNotReadable:
		return "Check the permissions of the repository root."
	case corpus.RootNotGit:
		if src.Rev != "" {
			return "No Git repository could be opened there; --rev needs a repository (a worktree or a bare one) at --cwd."
		}
		return "It has no .git entry: run adrkit from the repository root, or point --cwd at it."
	case corpus.DirNotFound:
		what := "The ADR directory does not exist"
		if src.Dir != "" && src.Dir != "." {
			what = "There is no directory " + strconv.Quote(src.Dir)
		}
		return what + " in the repository" + at + "; create it, or name the ADR directory with --dir (or ADRKIT_MCP_DIR)."
	case corpus.DirNotDirectory:
		return src.dirName() + at + " is a file; --dir must name a directory."
	case corpus.DirNotReadable:
		return src.dirName() + at + " could not be listed; check its permissions (or, with --rev, that the clone has the objects)."
	case corpus.DirOutsideRoot:
		return "--dir must stay inside the repository root (no \"..\" above it, no link out of it)."
	case corpus.CorpusChangedDuringLoad:
		return "Files changed while they were being read; run the command again."
	}
	return ""
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

// WriteJSON writes v as indented JSON followed by a newline. HTML
// characters stay as they are (the MCP server writes them that way too).
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encoding JSON output: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("writing JSON output: %w", err)
	}
	return nil
}

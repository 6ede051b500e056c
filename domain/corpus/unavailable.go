package corpus

// UnavailableReason says why the corpus could not be projected at all.
type UnavailableReason string

// The reasons, in the order root/dir validation checks them.
const (
	RootNotFound            UnavailableReason = "root-not-found"
	RootNotDirectory        UnavailableReason = "root-not-directory"
	RootNotReadable         UnavailableReason = "root-not-readable"
	RootNotGit              UnavailableReason = "root-not-git"
	DirNotFound             UnavailableReason = "dir-not-found"
	DirNotDirectory         UnavailableReason = "dir-not-directory"
	DirNotReadable          UnavailableReason = "dir-not-readable"
	DirOutsideRoot          UnavailableReason = "dir-outside-root"
	CorpusChangedDuringLoad UnavailableReason = "corpus-changed-during-load"
)

// Message is the fixed sentence for the reason. It is the summary line of
// a corpus-unavailable result and the start-up diagnostic; it never holds
// a path.
func (r UnavailableReason) Message() string {
	switch r {
	case RootNotFound:
		return "Configured repository root was not found."
	case RootNotDirectory:
		return "Configured repository root is not a directory."
	case RootNotReadable:
		return "Configured repository root is not readable."
	case RootNotGit:
		return "Configured repository root is not a Git worktree."
	case DirNotFound:
		return "Configured ADR directory was not found."
	case DirNotDirectory:
		return "Configured ADR directory is not a directory."
	case DirNotReadable:
		return "Configured ADR directory is not readable."
	case DirOutsideRoot:
		return "Configured ADR directory resolves outside the repository root."
	case CorpusChangedDuringLoad:
		return "Corpus changed while it was being loaded; retry the call."
	}
	return "Corpus is unavailable."
}

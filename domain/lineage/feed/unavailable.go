package feed

// UnavailableReason says why the history could not be read at all. It is
// a set of its own rather than the corpus-unavailable reasons: a root the
// working-tree reader accepts (a .git file pointing nowhere, say) can
// still have no history, and "the corpus is unavailable" would be false.
type UnavailableReason string

// The reasons, in the order the history source checks them.
const (
	RootNotFound     UnavailableReason = "root-not-found"
	RootNotDirectory UnavailableReason = "root-not-directory"
	RootNotReadable  UnavailableReason = "root-not-readable"
	// NoRepository: no git repository can be opened at the root.
	NoRepository UnavailableReason = "no-repository"
	// RevisionNotFound: the configured revision does not name a commit.
	RevisionNotFound UnavailableReason = "revision-not-found"
	DirOutsideRoot   UnavailableReason = "dir-outside-root"
	// HistoryIncomplete: a commit, tree or blob the feed needs is missing
	// (a shallow or partial clone, or pruned objects). The feed never
	// guesses past a hole.
	HistoryIncomplete UnavailableReason = "history-incomplete"
)

// UnavailableReasons lists every reason in order.
var UnavailableReasons = []UnavailableReason{
	RootNotFound, RootNotDirectory, RootNotReadable, NoRepository, RevisionNotFound, DirOutsideRoot, HistoryIncomplete,
}

// Message is the fixed sentence for the reason: the summary line of a
// history-unavailable answer. It never holds a path.
func (r UnavailableReason) Message() string {
	switch r {
	case RootNotFound:
		return "Configured repository root was not found."
	case RootNotDirectory:
		return "Configured repository root is not a directory."
	case RootNotReadable:
		return "Configured repository root is not readable."
	case NoRepository:
		return "No git repository can be opened at the repository root, so there is no history to read."
	case RevisionNotFound:
		return "Configured git revision does not name a commit."
	case DirOutsideRoot:
		return "Configured ADR directory resolves outside the repository root."
	case HistoryIncomplete:
		return "Git history is incomplete (a shallow or partial clone?): an object the feed needs is missing."
	}
	return "Git history is unavailable."
}

// RestartReason says why the feed cannot continue from a cursor.
type RestartReason string

// CommitNotInHistory means the cursor's commit is not on the first-parent
// history any more (a force-push or a rewrite).
const CommitNotInHistory RestartReason = "commit-not-in-history"

// Message is the fixed sentence for the reason (there is one reason).
func (r RestartReason) Message() string {
	return "The cursor's commit is no longer in the history (it was rewritten); start again from \"0_\" to replay every change, or from the head cursor to skip them."
}

package ports

// HookStore is where the hook, a new process for every event an agent's
// host sends, keeps what it worked out for the runs after it: the
// governance index of a corpus, the answer for some files, what each
// session was told (app.Hook says what it keeps). Values are opaque
// bytes, filed on a Shelf under a key the caller derives from what the
// value was made of, so that nothing kept is ever stale.
//
// Failure policy: nothing kept is needed. Get reports any failure as a
// miss and the caller works the value out again; a failed Put costs the
// next run only, and the caller goes on. What Get returns may
// still be damaged (a disk fault, a hand edit): the caller checks what
// it reads. A store never holds more than a shelf's Bound, removing the
// least recently written first, but never the value just put.
//
// Implementations: adapters/hooks (files in a directory outside the
// repository) and ports/memhookstore; both pass ports/hookstoretest.
type HookStore interface {
	// Get returns the value filed under key on shelf; false when there
	// is none, the key is not one a store takes, or it cannot be read.
	Get(shelf Shelf, key string) ([]byte, bool)
	// Put files value under key, replacing what was there, atomically: a
	// concurrent Get sees the old value or the new, never part of one.
	// A key that is not ValidKey, or a value past MaxHookValue, is an
	// error, and nothing is written.
	Put(shelf Shelf, key string, value []byte) error
}

// Shelf is a kind of value a HookStore keeps, each within its own
// bound.
type Shelf int

// The shelves.
const (
	// ShelfIndex: the governance index of one state of a corpus, and
	// its ranking index (query_decision's).
	ShelfIndex Shelf = iota
	// ShelfAnswer: the answer for some files of one state of a corpus.
	ShelfAnswer
	// ShelfSession: what one session was told.
	ShelfSession
)

// Bound is how many values the shelf keeps at most: an index lives until
// a record changes, answers are small and many, a session is one file.
func (s Shelf) Bound() int {
	switch s {
	case ShelfIndex:
		return 16
	case ShelfAnswer:
		return 512
	}
	return 256
}

// MaxHookValue bounds one value: an index is about a third of a kilobyte
// per record, so this is far above any corpus the read pipeline takes.
const MaxHookValue = 64 << 20

// ValidKey reports whether a store takes key: 1 to 64 lower-case
// hexadecimal digits (the callers' keys are hashes), so that a key is a
// safe file name everywhere.
func ValidKey(key string) bool {
	if key == "" || len(key) > 64 {
		return false
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

package feed

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/adrkit/adrkit-go/domain/cursor"
)

// ReplayToken is the documented cursor that replays the feed from the
// first commit. It is not base64url of anything this package mints, so it
// can never be mistaken for a position.
const ReplayToken = "0_"

// CursorVersion is the feed cursor format this build mints and accepts.
const CursorVersion = 1

// MaxWithin bounds Position.Within, as cursor.MaxOffset bounds offsets:
// no JavaScript client ever sees a number it cannot hold.
const MaxWithin = cursor.MaxOffset

// Position is a place in the feed: everything before it was delivered.
type Position struct {
	// Commit is the 40-digit lower-case hex id of a first-parent commit;
	// empty for the start of the history (ReplayToken).
	Commit string
	// Within is 0 when every change of Commit was delivered, or the number
	// of its changes delivered (at least 1) when a page ended inside it.
	Within int
}

// Layout of a version-1 feed cursor's payload (docs/extended-tools.md),
// sealed in the envelope of every cursor (cursor.Seal): version, position
// kind, commit id, directory binding, and the count of changes delivered
// within the commit (kind 1 only, minimal unsigned LEB128).
const (
	commitLen  = 20
	bindLen    = 8
	offKind    = 1
	offCommit  = offKind + 1
	offBind    = offCommit + commitLen
	offWithin  = offBind + bindLen
	kindWhole  = 0
	kindWithin = 1
)

// The domains separate these hashes from every other SHA-256 the program
// computes, the pagination cursors' check included: a pagination cursor
// never passes this check, and the other way round.
const (
	checkDomain = "adrkit-go feed cursor check\x00"
	bindDomain  = "adrkit-go feed directory\x00"
)

// Encode returns the cursor for p over the ADR directory dir (the cleaned
// configured directory, relative to the repository root). It panics on a
// position this program cannot have computed.
func Encode(p Position, dir string) string {
	if p.Commit == "" {
		if p.Within != 0 {
			panic("feed: a start-of-history position has no changes within")
		}
		return ReplayToken
	}
	if len(p.Commit) != 2*commitLen || !isLowerHex(p.Commit) {
		panic(fmt.Sprintf("feed: %q is not a commit id", p.Commit))
	}
	if p.Within < 0 || p.Within > MaxWithin {
		panic(fmt.Sprintf("feed: within %d outside 0..%d", p.Within, MaxWithin))
	}
	b := make([]byte, offWithin, offWithin+binary.MaxVarintLen64+cursor.CheckLen)
	b[0] = CursorVersion
	b[offKind] = kindWhole
	hex.Decode(b[offCommit:offBind], []byte(p.Commit))
	copy(b[offBind:offWithin], binding(dir))
	if p.Within > 0 {
		b[offKind] = kindWithin
		b = binary.AppendUvarint(b, uint64(p.Within))
	}
	return cursor.Seal(checkDomain, b)
}

// Decode parses since strictly, for the ADR directory dir. It returns the
// position, or the refusal reason, checked in this order:
//
//   - decode-failed: not canonical unpadded base64url, a failed check, a
//     version-1 body of the wrong shape (unknown kind, a count of 0, not
//     minimal or above MaxWithin, a missing or extra byte), or longer than
//     4096 characters;
//   - version-unsupported: a sound envelope of another version;
//   - wrong-channel: a pagination cursor of another tool;
//   - query-mismatch: a feed cursor minted for another ADR directory.
//
// ReplayToken decodes to the start of the history.
func Decode(since, dir string) (Position, cursor.Reason) {
	if since == ReplayToken {
		return Position{}, cursor.OK
	}
	payload, ok := cursor.Open(checkDomain, since)
	if !ok {
		if _, r := cursor.Decode(since); r == cursor.OK {
			return Position{}, cursor.WrongChannel
		}
		return Position{}, cursor.DecodeFailed
	}
	if payload[0] != CursorVersion {
		return Position{}, cursor.VersionUnsupported
	}
	if len(payload) < offWithin {
		return Position{}, cursor.DecodeFailed
	}
	p := Position{Commit: hex.EncodeToString(payload[offCommit:offBind])}
	switch payload[offKind] {
	case kindWhole:
		if len(payload) != offWithin {
			return Position{}, cursor.DecodeFailed
		}
	case kindWithin:
		n, ok := cursor.Uvarint(payload[offWithin:])
		if !ok || n < 1 || n > MaxWithin {
			return Position{}, cursor.DecodeFailed
		}
		p.Within = int(n)
	default:
		return Position{}, cursor.DecodeFailed
	}
	if !bytes.Equal(payload[offBind:offWithin], binding(dir)) {
		return Position{}, cursor.QueryMismatch
	}
	return p, cursor.OK
}

func binding(dir string) []byte {
	sum := sha256.Sum256([]byte(bindDomain + dir))
	return sum[:bindLen]
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

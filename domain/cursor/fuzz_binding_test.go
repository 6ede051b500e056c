package cursor

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// hashOf is a lower-case hex SHA-256 digest derived from seed.
func hashOf(seed []byte) string {
	sum := sha256.Sum256(seed)
	return hex.EncodeToString(sum[:])
}

const base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// FuzzCursorBinding strengthens FuzzDecode and FuzzDecodeSealed, which
// look at what Decode accepts, with what a minted cursor is bound to:
//
//   - a minted cursor is at most 110 characters and decodes to exactly
//     what was minted;
//   - Verify accepts it only for its own channel, fingerprint and query
//     hash, and otherwise names the first mismatch in the contract's
//     order (wrong-channel, corpus-changed, query-mismatch);
//   - any one-character edit is refused as decode-failed;
//   - walking a channel of any size with Paginate and the cursors it
//     mints visits every item exactly once, in order, each page at most
//     limit items, and the last page has no cursor.
func FuzzCursorBinding(f *testing.F) {
	f.Add(byte(0), byte(0), []byte("fp"), []byte("qh"), []byte("fp"), []byte("qh"), uint64(1), uint16(45), byte(20), uint16(3), byte('A'))
	f.Add(byte(3), byte(4), []byte("a"), []byte("b"), []byte("c"), []byte("d"), uint64(1<<53-1), uint16(0), byte(1), uint16(99), byte('_'))
	f.Add(byte(7), byte(7), []byte("x"), []byte("y"), []byte("x"), []byte("z"), uint64(128), uint16(100), byte(100), uint16(0), byte('9'))
	f.Fuzz(func(t *testing.T, scopeA, scopeB byte, fpA, qhA, fpB, qhB []byte, offset uint64, total uint16, limit byte, editAt uint16, editTo byte) {
		sa, sb := scopes[int(scopeA)%len(scopes)], scopes[int(scopeB)%len(scopes)]
		fa, qa, fb, qb := hashOf(fpA), hashOf(qhA), hashOf(fpB), hashOf(qhB)
		off := int(offset%MaxOffset) + 1
		c := Mint(sa, fa, qa, off)
		if len(c) > 110 {
			t.Fatalf("cursor of %d characters", len(c))
		}
		if got, r := Decode(c); r != OK || got != (Cursor{Scope: sa, Fingerprint: fa, QueryHash: qa, Offset: off}) {
			t.Fatalf("Decode(Mint) = %+v %q", got, r)
		}
		want := OK
		switch {
		case sa != sb:
			want = WrongChannel
		case fa != fb:
			want = CorpusChanged
		case qa != qb:
			want = QueryMismatch
		}
		if gotOff, r := Verify(c, sb, fb, qb); r != want || (r == OK && gotOff != off) {
			t.Fatalf("Verify: %d %q, want %q", gotOff, r, want)
		}

		i := int(editAt) % len(c)
		repl := base64url[int(editTo)%len(base64url)]
		if repl == c[i] {
			repl = base64url[(int(editTo)+1)%len(base64url)]
		}
		edited := c[:i] + string(repl) + c[i+1:]
		if _, r := Decode(edited); r != DecodeFailed {
			t.Fatalf("edited cursor %q (position %d) gave %q", edited, i, r)
		}

		n, lim := int(total)%2000, int(limit)%100+1
		seen := 0
		offsetNow := 0
		for pages := 0; ; pages++ {
			p, r := Paginate(sa, fa, qa, n, offsetNow, lim)
			if r != OK {
				t.Fatalf("page %d at %d of %d: %q", pages, offsetNow, n, r)
			}
			if p.Start != seen || p.End-p.Start > lim || (p.End == p.Start && n > 0) {
				t.Fatalf("page %d is [%d,%d) after %d items", pages, p.Start, p.End, seen)
			}
			seen = p.End
			if p.Next == "" {
				break
			}
			next, r := Verify(p.Next, sa, fa, qa)
			if r != OK || next != p.End {
				t.Fatalf("next cursor: %d %q", next, r)
			}
			offsetNow = next
		}
		if seen != n {
			t.Fatalf("the walk saw %d of %d items", seen, n)
		}
		if n > 0 {
			if _, r := Paginate(sa, fa, qa, n, n, lim); r != OffsetOutOfRange {
				t.Fatalf("an offset at the end: %q", r)
			}
		}
	})
}

package cursor

import "testing"

// FuzzDecode feeds arbitrary text to the decoder: it must never panic,
// must refuse only with a decoding or version reason, and whatever it
// accepts must be the one spelling Encode gives back.
func FuzzDecode(f *testing.F) {
	f.Add(Mint(SearchResults, fp1, qh1, 1))
	f.Fuzz(func(t *testing.T, s string) {
		c, r := Decode(s)
		switch r {
		case OK:
			if got := c.Encode(); got != s {
				t.Fatalf("Decode accepted %q, which re-encodes as %q", s, got)
			}
			if off, vr := Verify(s, c.Scope, c.Fingerprint, c.QueryHash); vr != OK || off != c.Offset {
				t.Fatalf("Verify refused a cursor Decode accepted: %q", vr)
			}
		case DecodeFailed, VersionUnsupported:
			if c != (Cursor{}) {
				t.Fatalf("refused cursor leaked values %+v", c)
			}
		default:
			t.Fatalf("Decode returned reason %q", r)
		}
	})
}

// FuzzDecodeSealed fuzzes what lies behind the check: random text almost
// never carries a valid check, so FuzzDecode alone would rarely reach the
// body parser. The same properties must hold.
func FuzzDecodeSealed(f *testing.F) {
	f.Add([]byte{1, 0})
	f.Add(append(v1(3, nil), 0x80, 0x01))
	f.Add(append(v1(7, nil), 0x01))
	f.Add([]byte{2, 'x'})
	f.Fuzz(func(t *testing.T, payload []byte) {
		s := sealed(payload)
		c, r := Decode(s)
		switch r {
		case OK:
			if got := c.Encode(); got != s {
				t.Fatalf("Decode accepted payload % x, which re-encodes differently", payload)
			}
		case VersionUnsupported:
			if len(payload) == 0 || payload[0] == Version {
				t.Fatalf("payload % x: version-unsupported for version 1", payload)
			}
		case DecodeFailed:
			if len(payload) > 0 && payload[0] != Version && len(s) <= maxLen {
				t.Fatalf("payload % x: decode-failed for a well-formed other version", payload)
			}
		default:
			t.Fatalf("Decode returned reason %q", r)
		}
	})
}

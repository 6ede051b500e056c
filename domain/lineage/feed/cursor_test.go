package feed

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/cursor"
)

const commitA = "0123456789abcdef0123456789abcdef01234567"

func TestCursorRoundTrip(t *testing.T) {
	for _, p := range []Position{
		{},
		{Commit: commitA},
		{Commit: commitA, Within: 1},
		{Commit: commitA, Within: 127},
		{Commit: commitA, Within: 128},
		{Commit: commitA, Within: MaxWithin},
	} {
		s := Encode(p, "docs/adr")
		got, r := Decode(s, "docs/adr")
		if r != cursor.OK || got != p {
			t.Errorf("%+v: %q decodes to %+v, %q", p, s, got, r)
		}
		if Encode(got, "docs/adr") != s {
			t.Errorf("%+v: re-encoding differs", p)
		}
	}
	if Encode(Position{}, "x") != ReplayToken {
		t.Error("the start of history is not the replay token")
	}
}

// The spelling is part of the documentation (docs/extended-tools.md):
// changing it needs a new version.
func TestCursorPinned(t *testing.T) {
	cases := map[string]Position{
		"AQABI0VniavN7wEjRWeJq83vASNFZxTW91AMPhU5VPQs18KcDcU":  {Commit: commitA},
		"AQEBI0VniavN7wEjRWeJq83vASNFZxTW91AMPhU5Aw9tHgXJ-u1B": {Commit: commitA, Within: 3},
	}
	for want, p := range cases {
		if got := Encode(p, "docs/adr"); got != want {
			t.Errorf("%+v encodes to %q, want %q", p, got, want)
		}
	}
}

func TestCursorRefusals(t *testing.T) {
	good := Encode(Position{Commit: commitA, Within: 2}, "docs/adr")
	raw, _ := base64.RawURLEncoding.DecodeString(good)
	reseal := func(payload []byte) string { return cursor.Seal(checkDomain, append([]byte{}, payload...)) }
	payload := raw[:len(raw)-cursor.CheckLen]
	with := func(edit func([]byte) []byte) string {
		return reseal(edit(append([]byte{}, payload...)))
	}

	pagination := cursor.Mint(cursor.SearchResults, strings.Repeat("a", 64), strings.Repeat("b", 64), 1)
	cases := []struct {
		name  string
		since string
		want  cursor.Reason
	}{
		{"empty", "", cursor.DecodeFailed},
		{"garbage", "not-a-cursor", cursor.DecodeFailed},
		{"padding", good + "=", cursor.DecodeFailed},
		{"newline", good[:10] + "\n" + good[10:], cursor.DecodeFailed},
		{"edited", good[:5] + string(good[5]^1) + good[6:], cursor.DecodeFailed},
		{"truncated", good[:len(good)-2], cursor.DecodeFailed},
		{"too long", strings.Repeat("A", 4097), cursor.DecodeFailed},
		{"replay token with a space", " 0_", cursor.DecodeFailed},
		{"another version", with(func(b []byte) []byte { b[0] = 2; return b }), cursor.VersionUnsupported},
		{"unknown kind", with(func(b []byte) []byte { b[offKind] = 7; return b }), cursor.DecodeFailed},
		{"whole with a count", with(func(b []byte) []byte { b[offKind] = kindWhole; return b }), cursor.DecodeFailed},
		{"within without a count", with(func(b []byte) []byte { return b[:offWithin] }), cursor.DecodeFailed},
		{"count of zero", with(func(b []byte) []byte { b[offWithin] = 0; return b }), cursor.DecodeFailed},
		{"count not minimal", with(func(b []byte) []byte { return append(b[:offWithin], 0x82, 0x00) }), cursor.DecodeFailed},
		{"short body", with(func(b []byte) []byte { return b[:5] }), cursor.DecodeFailed},
		{"a pagination cursor", pagination, cursor.WrongChannel},
		{"the feed's own findings cursor", cursor.Mint(cursor.ChangesFindings, strings.Repeat("a", 64), strings.Repeat("b", 64), 1), cursor.WrongChannel},
		{"another directory", Encode(Position{Commit: commitA}, "decisions"), cursor.QueryMismatch},
	}
	for _, tc := range cases {
		if _, r := Decode(tc.since, "docs/adr"); r != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, r, tc.want)
		}
	}
}

func TestUnavailableMessages(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range UnavailableReasons {
		m := r.Message()
		if m == "" || seen[m] || !strings.HasSuffix(m, ".") {
			t.Errorf("%s: message %q", r, m)
		}
		seen[m] = true
	}
}

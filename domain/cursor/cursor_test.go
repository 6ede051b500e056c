package cursor

import (
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"
)

const (
	fp1 = "233f4bb4e22839a4f0dfefc49a01cfe379930cfc607ae66321702e85b23ec914"
	fp2 = "649ff205a0cd138f6ec80e2c28a4ab624efd32ea37b893250472283497a25930"
	qh1 = "2a71bbc985121152e4fdfb9fd6d5bd3b880cf62fd9474e792adb79d8066384fb"
	qh2 = "080a9ed428559ef602668b4c00f114f1a11c3f6b02a435f0bdc154578e4d7f22"
)

func TestQueryHash(t *testing.T) {
	tests := []struct {
		name  string
		shape []any
		want  string
	}{
		{"search results", []any{"the", []string{}, []string{}, []string{}, 1}, qh1},
		{"absent filters as nil slices", []any{"the", []string(nil), []string(nil), []string(nil), 1}, qh1},
		{"get_decision candidates", []any{"0010", 1}, "40ca0aca3f47d90497afe17de6a5987c46fe4ebffda213d5d251824103cdf4b8"},
		{"findings limit", []any{1}, qh2},
		{"context files", []any{[]string{"src/app.ts"}, 20}, "82b29c297a6025ebff9e28c8003cf8babf97f0910a3f21a3164b582ea7aaff71"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := QueryHash(tc.shape...); got != tc.want {
				t.Errorf("QueryHash = %s, want %s", got, tc.want)
			}
		})
	}
	if QueryHash() == QueryHash(nil) {
		t.Error("[] and [null] must hash differently")
	}
}

// pinned is a version-1 cursor as this format writes it; a change here
// breaks every cursor a running client holds across an upgrade and must
// come with a new version.
const pinned = "AQAjP0u04ig5pPDf78SaAc_jeZMM_GB65mMhcC6Fsj7JFCpxu8mFEhFS5P37n9bVvTuIDPYv2UdOeSrbedgGY4T7AeLZhn0CDzyB"

func TestEncodingIsPinned(t *testing.T) {
	got := Mint(SearchResults, fp1, qh1, 1)
	if got != pinned {
		t.Errorf("Mint = %s, want %s", got, pinned)
	}
	if len(got) > 4096 || strings.ContainsAny(got, "=+/") {
		t.Errorf("cursor %q is not unpadded base64url within the input limit", got)
	}
}

// TestScopeCodes pins every channel's first-page cursor (fp1, qh1,
// offset 1), each minted before the codes after it existed (the first
// eight before ChainFindings, ChainFindings before ChangesFindings): an
// appended channel code must leave every existing cursor's bytes alone,
// and no code is ever reused or reordered.
func TestScopeCodes(t *testing.T) {
	cases := []struct {
		scope Scope
		code  byte
		want  string
	}{
		{SearchResults, 0, "AQAjP0u04ig5pPDf78SaAc_jeZMM_GB65mMhcC6Fsj7JFCpxu8mFEhFS5P37n9bVvTuIDPYv2UdOeSrbedgGY4T7AeLZhn0CDzyB"},
		{SearchFindings, 1, "AQEjP0u04ig5pPDf78SaAc_jeZMM_GB65mMhcC6Fsj7JFCpxu8mFEhFS5P37n9bVvTuIDPYv2UdOeSrbedgGY4T7AepHGkRnEGk0"},
		{DecisionCandidates, 2, "AQIjP0u04ig5pPDf78SaAc_jeZMM_GB65mMhcC6Fsj7JFCpxu8mFEhFS5P37n9bVvTuIDPYv2UdOeSrbedgGY4T7AUlY1wYVG1jX"},
		{DecisionFindings, 3, "AQMjP0u04ig5pPDf78SaAc_jeZMM_GB65mMhcC6Fsj7JFCpxu8mFEhFS5P37n9bVvTuIDPYv2UdOeSrbedgGY4T7AW84khONCZuh"},
		{ContextResults, 4, "AQQjP0u04ig5pPDf78SaAc_jeZMM_GB65mMhcC6Fsj7JFCpxu8mFEhFS5P37n9bVvTuIDPYv2UdOeSrbedgGY4T7AQhAqInwc8go"},
		{ContextFindings, 5, "AQUjP0u04ig5pPDf78SaAc_jeZMM_GB65mMhcC6Fsj7JFCpxu8mFEhFS5P37n9bVvTuIDPYv2UdOeSrbedgGY4T7AfEtIxWMm8-b"},
		{SupersededResults, 6, "AQYjP0u04ig5pPDf78SaAc_jeZMM_GB65mMhcC6Fsj7JFCpxu8mFEhFS5P37n9bVvTuIDPYv2UdOeSrbedgGY4T7AQVlP_E-nqR8"},
		{SupersededFindings, 7, "AQcjP0u04ig5pPDf78SaAc_jeZMM_GB65mMhcC6Fsj7JFCpxu8mFEhFS5P37n9bVvTuIDPYv2UdOeSrbedgGY4T7Aff0lltzxHe3"},
		{ChainFindings, 8, "AQgjP0u04ig5pPDf78SaAc_jeZMM_GB65mMhcC6Fsj7JFCpxu8mFEhFS5P37n9bVvTuIDPYv2UdOeSrbedgGY4T7AVI2wCd_NbdZ"},
		{ChangesFindings, 9, "AQkjP0u04ig5pPDf78SaAc_jeZMM_GB65mMhcC6Fsj7JFCpxu8mFEhFS5P37n9bVvTuIDPYv2UdOeSrbedgGY4T7AZNdVAR7WHLe"},
	}
	if len(cases) != len(scopes) {
		t.Fatalf("%d channels pinned, %d defined: pin the new one", len(cases), len(scopes))
	}
	for _, tc := range cases {
		t.Run(string(tc.scope), func(t *testing.T) {
			got := Mint(tc.scope, fp1, qh1, 1)
			if got != tc.want {
				t.Errorf("Mint = %s, want %s", got, tc.want)
			}
			raw, err := base64.RawURLEncoding.DecodeString(got)
			if err != nil || raw[offScope] != tc.code {
				t.Errorf("channel code %v (%v), want %d", raw[offScope], err, tc.code)
			}
			if c, r := Decode(tc.want); r != OK || c.Scope != tc.scope {
				t.Errorf("Decode = %+v, %q", c, r)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	offsets := []int{1, 2, 19, 20, 127, 128, 16383, 16384, 1 << 31, MaxOffset}
	for _, scope := range scopes {
		for _, off := range offsets {
			s := Mint(scope, fp1, qh2, off)
			c, r := Decode(s)
			if r != OK {
				t.Fatalf("Decode(Mint(%s, %d)) = %s", scope, off, r)
			}
			want := Cursor{Scope: scope, Fingerprint: fp1, QueryHash: qh2, Offset: off}
			if c != want {
				t.Fatalf("Decode = %+v, want %+v", c, want)
			}
			if c.Encode() != s {
				t.Fatalf("re-encoding %s changed it", s)
			}
		}
	}
	if Mint(SearchResults, fp1, qh1, 1) == Mint(SearchFindings, fp1, qh1, 1) ||
		Mint(SearchResults, fp1, qh1, 1) == Mint(SearchResults, fp2, qh1, 1) ||
		Mint(SearchResults, fp1, qh1, 1) == Mint(SearchResults, fp1, qh2, 1) ||
		Mint(SearchResults, fp1, qh1, 1) == Mint(SearchResults, fp1, qh1, 2) {
		t.Error("distinct cursors share a spelling")
	}
}

// sealed builds an envelope around an arbitrary payload, with a valid
// check, so that tests reach the checks behind it.
func sealed(payload []byte) string { return seal(append([]byte(nil), payload...)) }

// v1 builds a version-1 payload from its parts.
func v1(code byte, offset []byte) []byte {
	b := make([]byte, offOffset)
	b[0] = 1
	b[offScope] = code
	return append(b, offset...)
}

func TestDecode(t *testing.T) {
	good := Mint(SupersededResults, fp1, qh1, 2)
	raw, _ := base64.RawURLEncoding.DecodeString(good)
	flip := func(i int) string {
		b := []byte(good)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	// The reference's own v1 spelling: base64url of plain JSON.
	reference := "eyJ2IjoxLCJzY29wZSI6InNlYXJjaC5yZXN1bHRzIiwiZnAiOiIyMzNmNGJiNGUyMjgzOWE0ZjBkZmVmYzQ5YTAxY2ZlMzc5OTMwY2ZjNjA3YWU2NjMyMTcwMmU4NWIyM2VjOTE0IiwicWgiOiIyYTcxYmJjOTg1MTIxMTUyZTRmZGZiOWZkNmQ1YmQzYjg4MGNmNjJmZDk0NzRlNzkyYWRiNzlkODA2NjM4NGZiIiwib2Zmc2V0IjoxfQ"
	// A two-byte offset leaves 4 unused bits in the last symbol; setting
	// one spells the same bytes non-canonically.
	long := Mint(SupersededResults, fp1, qh1, 200)
	lastBits := []byte(long)
	lastBits[len(lastBits)-1] = base64URLNext(lastBits[len(lastBits)-1])
	if lax, err := base64.RawURLEncoding.DecodeString(string(lastBits)); err != nil || base64.RawURLEncoding.EncodeToString(lax) != long {
		t.Fatalf("trailing-bits case does not spell the same bytes: %v", err)
	}

	tests := []struct {
		name string
		in   string
		want Reason
	}{
		{"minted", good, OK},
		{"minted, two-byte offset", long, OK},
		{"empty", "", DecodeFailed},
		{"not a cursor", "not-a-real-cursor", DecodeFailed},
		{"reference spelling", reference, DecodeFailed},
		{"padding", good + "==", DecodeFailed},
		{"single pad", good + "=", DecodeFailed},
		{"leading junk", "@@" + good, DecodeFailed},
		{"trailing space", good + " ", DecodeFailed},
		{"inner newline", good[:10] + "\n" + good[10:], DecodeFailed},
		{"inner CRLF", good[:10] + "\r\n" + good[10:], DecodeFailed},
		{"standard alphabet", strings.NewReplacer("-", "+", "_", "/").Replace(good), DecodeFailed},
		{"non-canonical trailing bits", string(lastBits), DecodeFailed},
		{"edited first symbol", flip(0), DecodeFailed},
		{"edited middle symbol", flip(len(good) / 2), DecodeFailed},
		{"edited last symbol", flip(len(good) - 1), DecodeFailed},
		{"truncated one symbol", good[:len(good)-1], DecodeFailed},
		{"truncated one byte", base64.RawURLEncoding.EncodeToString(raw[:len(raw)-1]), DecodeFailed},
		{"extra byte before the check", sealed(append(v1(6, []byte{2}), 0)), DecodeFailed},
		{"offset missing", sealed(v1(6, nil)), DecodeFailed},
		{"hashes missing", sealed([]byte{1, 6, 2}), DecodeFailed},
		{"version only", sealed([]byte{1}), DecodeFailed},
		{"check only", sealed(nil), DecodeFailed},
		{"unknown scope code", sealed(v1(byte(len(scopes)), []byte{2})), DecodeFailed},
		{"offset zero", sealed(v1(6, []byte{0})), DecodeFailed},
		{"offset non-minimal", sealed(v1(6, []byte{0x82, 0x00})), DecodeFailed},
		{"offset unterminated", sealed(v1(6, []byte{0x82})), DecodeFailed},
		{"offset above MaxOffset", sealed(v1(6, binary.AppendUvarint(nil, MaxOffset+1))), DecodeFailed},
		{"offset overflows 64 bits", sealed(v1(6, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})), DecodeFailed},
		{"offset at MaxOffset", sealed(v1(6, binary.AppendUvarint(nil, MaxOffset))), OK},
		{"too long", good + strings.Repeat("A", 4096), DecodeFailed},
		{"version 2", sealed(append([]byte{2}, raw[1:len(raw)-checkLen]...)), VersionUnsupported},
		{"version 2, other layout", sealed([]byte{2, 'x'}), VersionUnsupported},
		{"version 0", sealed([]byte{0}), VersionUnsupported},
		{"version 255", sealed(append([]byte{255}, raw[1:len(raw)-checkLen]...)), VersionUnsupported},
		{"version 2 edited", flipTail(sealed([]byte{2, 'x'})), DecodeFailed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, got := Decode(tc.in)
			if got != tc.want {
				t.Fatalf("Decode(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got == OK && c.Encode() != tc.in {
				t.Errorf("accepted %q but it re-encodes as %q", tc.in, c.Encode())
			}
			if got != OK && c != (Cursor{}) {
				t.Errorf("refused cursor leaked values %+v", c)
			}
		})
	}
}

// base64URLNext returns the symbol after s in the base64url alphabet.
func base64URLNext(s byte) byte {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	return alphabet[(strings.IndexByte(alphabet, s)+1)%64]
}

func flipTail(s string) string {
	b := []byte(s)
	b[len(b)-2] = base64URLNext(b[len(b)-2])
	return string(b)
}

func TestVerifyOrder(t *testing.T) {
	const scope = SupersededResults
	v2 := sealed([]byte{2, 'x'})
	tests := []struct {
		name       string
		in         string
		want       Reason
		wantOffset int
	}{
		{"accepted", Mint(scope, fp1, qh1, 3), OK, 3},
		{"decode-failed first", "%%%", DecodeFailed, 0},
		{"decode-failed over a bad offset in a v1 body", sealed(v1(7, []byte{0})), DecodeFailed, 0},
		{"version-unsupported", v2, VersionUnsupported, 0},
		{"wrong-channel: findings cursor in the primary field", Mint(SupersededFindings, fp1, qh1, 1), WrongChannel, 0},
		{"wrong-channel: another tool, stale corpus, other query", Mint(SearchResults, fp2, qh2, 1), WrongChannel, 0},
		{"wrong-channel: the chain tool's findings cursor", Mint(ChainFindings, fp1, qh1, 1), WrongChannel, 0},
		{"wrong-channel: the change feed's findings cursor", Mint(ChangesFindings, fp1, qh1, 1), WrongChannel, 0},
		{"corpus-changed before query-mismatch", Mint(scope, fp2, qh2, 1), CorpusChanged, 0},
		{"corpus-changed", Mint(scope, fp2, qh1, 1), CorpusChanged, 0},
		{"query-mismatch", Mint(scope, fp1, qh2, 1), QueryMismatch, 0},
		{"offset range is not checked here", Mint(scope, fp1, qh1, MaxOffset), OK, MaxOffset},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			off, r := Verify(tc.in, scope, fp1, qh1)
			if r != tc.want || off != tc.wantOffset {
				t.Errorf("Verify = (%d, %q), want (%d, %q)", off, r, tc.wantOffset, tc.want)
			}
			if r != OK && r.Message() == "Cursor is not valid." {
				t.Errorf("reason %q has no message", r)
			}
		})
	}
}

// Every tool's findings channel has its own code, so a findings cursor
// given to another tool is wrong-channel, both ways, even when the corpus
// and the query shape (the findings limit alone) are the same.
func TestFindingsChannelsRefuseEachOther(t *testing.T) {
	findings := []Scope{SearchFindings, DecisionFindings, ContextFindings, SupersededFindings, ChainFindings, ChangesFindings}
	for _, minted := range findings {
		for _, field := range findings {
			c := Mint(minted, fp1, qh2, 1)
			want := WrongChannel
			if minted == field {
				want = OK
			}
			if _, r := Verify(c, field, fp1, qh2); r != want {
				t.Errorf("%s cursor in the %s field: %q, want %q", minted, field, r, want)
			}
		}
	}
}

func TestUvarint(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want uint64
		ok   bool
	}{
		{"zero", []byte{0}, 0, true},
		{"one byte", []byte{0x7f}, 127, true},
		{"two bytes", []byte{0x80, 0x01}, 128, true},
		{"MaxOffset", binary.AppendUvarint(nil, MaxOffset), MaxOffset, true},
		{"largest uint64", binary.AppendUvarint(nil, 1<<64-1), 1<<64 - 1, true},
		{"empty", nil, 0, false},
		{"unterminated", []byte{0x82}, 0, false},
		{"longer spelling of 2", []byte{0x82, 0x00}, 0, false},
		{"longer spelling of 0", []byte{0x80, 0x80, 0x00}, 0, false},
		{"a byte after the number", []byte{0x02, 0x00}, 0, false},
		{"above 64 bits", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Uvarint(tc.in)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Uvarint(%x) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestPaginate(t *testing.T) {
	const scope = SearchFindings
	next := func(off int) string { return Mint(scope, fp1, qh2, off) }
	tests := []struct {
		name                 string
		total, offset, limit int
		want                 Page
		reason               Reason
	}{
		{"empty channel, no cursor", 0, 0, 20, Page{}, OK},
		{"first page with more", 5, 0, 2, Page{0, 2, next(2)}, OK},
		{"middle page", 5, 2, 2, Page{2, 4, next(4)}, OK},
		{"last page, short", 5, 4, 2, Page{4, 5, ""}, OK},
		{"exact fit", 4, 2, 2, Page{2, 4, ""}, OK},
		{"all on one page", 3, 0, 100, Page{0, 3, ""}, OK},
		{"offset at the end", 5, 5, 2, Page{}, OffsetOutOfRange},
		{"offset past the end", 5, 9, 2, Page{}, OffsetOutOfRange},
		{"cursor into an emptied channel", 0, 1, 20, Page{}, OffsetOutOfRange},
		{"large limit near MaxOffset", MaxOffset, MaxOffset - 1, 100, Page{MaxOffset - 1, MaxOffset, ""}, OK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, r := Paginate(scope, fp1, qh2, tc.total, tc.offset, tc.limit)
			if got != tc.want || r != tc.reason {
				t.Errorf("Paginate = (%+v, %q), want (%+v, %q)", got, r, tc.want, tc.reason)
			}
		})
	}
}

// TestWalk follows next cursors through Verify and Paginate: every item
// comes exactly once, in order, and the last page has no cursor.
func TestWalk(t *testing.T) {
	for _, total := range []int{0, 1, 6, 7, 100, 101} {
		for _, limit := range []int{1, 3, 20, 100} {
			seen, offset := 0, 0
			for pages := 0; ; pages++ {
				if pages > total+1 {
					t.Fatalf("total %d limit %d: walk does not end", total, limit)
				}
				p, r := Paginate(ContextResults, fp1, qh1, total, offset, limit)
				if r != OK || p.Start != seen {
					t.Fatalf("total %d limit %d: page %+v %q after %d items", total, limit, p, r, seen)
				}
				seen = p.End
				if p.Next == "" {
					break
				}
				if offset, r = Verify(p.Next, ContextResults, fp1, qh1); r != OK {
					t.Fatalf("next cursor refused: %s", r)
				}
			}
			if seen != total {
				t.Errorf("total %d limit %d: walked %d items", total, limit, seen)
			}
		}
	}
}

func TestMintPanics(t *testing.T) {
	tests := []struct {
		name   string
		scope  Scope
		fp, qh string
		offset int
	}{
		{"unknown scope", "search.nope", fp1, qh1, 1},
		{"offset zero", SearchResults, fp1, qh1, 0},
		{"offset too large", SearchResults, fp1, qh1, MaxOffset + 1},
		{"short fingerprint", SearchResults, "fp", qh1, 1},
		{"upper-case hash", SearchResults, fp1, strings.ToUpper(qh1), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("Mint did not panic")
				}
			}()
			Mint(tc.scope, tc.fp, tc.qh, tc.offset)
		})
	}
}

func TestReasonMessages(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range []Reason{DecodeFailed, VersionUnsupported, WrongChannel, CorpusChanged, QueryMismatch, CursorNotApplicable, OffsetOutOfRange} {
		m := r.Message()
		if m == "" || seen[m] || m == OK.Message() {
			t.Errorf("reason %q message %q", r, m)
		}
		seen[m] = true
	}
}

package jsstring

import (
	"slices"
	"strings"
	"testing"
)

// loneD800 is a lone high surrogate as the YAML decoder carries it (WTF-8).
const loneD800 = "\xed\xa0\x80"

func TestCompare(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want int
	}{
		{"equal", "0001", "0001", 0},
		{"empty equal", "", "", 0},
		{"empty first", "", "a", -1},
		{"prefix first", "ab", "abc", -1},
		{"upper before lower", "B", "a", -1},
		{"Zeta before alpha", "0001-Zeta.md", "0001-alpha.md", -1},
		{"ids compare as strings", "12345", "9999", -1},
		{"zero-padded", "0031", "12345", -1},
		{"upper ULID before lower", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "01arz3ndektsv4rrffq69g5fav", -1},
		// Go's byte order puts U+1F600 (F0 ...) after U+FFFF (EF ...);
		// UTF-16 puts its high surrogate D83D first.
		{"astral before U+FFFF", "\U0001F600", "\uFFFF", -1},
		{"astral before U+E000", "\U00010000", "\uE000", -1},
		{"U+E000 after astral", "\uE000", "\U0010FFFF", 1},
		{"astral inside", "a\U0001F600z", "a\uFFFDz", -1},
		{"BMP below surrogates before astral", "\uD7FF", "\U00010000", -1},
		{"same high surrogate, low decides", "\U0001F600", "\U0001F4A9", 1},
		{"different high surrogates", "\U00010400", "\U0001F600", -1},
		{"ascii before astral", "z", "\U0001F600", -1},
		{"longer after equal astral prefix", "\U0001F600a", "\U0001F600", 1},
		{"lone surrogate before astral pair", loneD800, "\U00010000", -1},
		{"lone surrogate before U+E000", loneD800, "\uE000", -1},
		{"lone surrogate after U+D7FF", loneD800, "\uD7FF", 1},
		{"lone surrogate equal", loneD800 + "a", loneD800 + "a", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Compare(tc.a, tc.b); got != tc.want {
				t.Errorf("Compare(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
			if got := Compare(tc.b, tc.a); got != -tc.want {
				t.Errorf("Compare(%q, %q) = %d, want %d", tc.b, tc.a, got, -tc.want)
			}
		})
	}
}

func TestCompareSortsLikeUTF16(t *testing.T) {
	in := []string{"\uFFFF", "b", "\U0001F600", "B", "", "\uE000", "a", "\U00010000", "aa"}
	want := []string{"", "B", "a", "aa", "b", "\U00010000", "\U0001F600", "\uE000", "\uFFFF"}
	got := slices.Clone(in)
	slices.SortFunc(got, Compare)
	if !slices.Equal(got, want) {
		t.Errorf("sorted = %q, want %q", got, want)
	}
}

func TestLen(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"😀a", 3},
		{"é", 1},
		{"e\u0301", 2},
		{"\uFFFF", 1},
		{"\U00010000", 2},
		{"ΟΔΟΣ", 4},
		{loneD800, 1},
		{"a" + loneD800 + "b", 3},
		{strings.Repeat("😀", 60), 120},
	}
	for _, tc := range tests {
		if got := Len(tc.s); got != tc.want {
			t.Errorf("Len(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func TestTrimSpace(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"ascii", " \t\n\v\f\r x \r\n", "x"},
		{"nbsp and ideographic", "\u00A0\u3000x\u3000", "x"},
		{"en quad to hair space", "\u2000\u200Ax\u2005", "x"},
		{"line and paragraph separators", "\u2028x\u2029", "x"},
		{"narrow nbsp, math space, ogham", "\u202F\u205F\u1680x", "x"},
		{"BOM is trimmed", "\uFEFFx\uFEFF", "x"},
		{"NEL is not trimmed", "\u0085x\u0085", "\u0085x\u0085"},
		{"zero-width space is not trimmed", "\u200Bx", "\u200Bx"},
		{"mongolian vowel separator is not trimmed", "\u180Ex", "\u180Ex"},
		{"inner space kept", " a b ", "a b"},
		{"all space", " \u3000\uFEFF ", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := TrimSpace(tc.in); got != tc.want {
				t.Errorf("TrimSpace(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestIsSpace(t *testing.T) {
	for _, r := range []rune{0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000, 0x2005, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF} {
		if !IsSpace(r) {
			t.Errorf("IsSpace(%U) = false", r)
		}
	}
	for _, r := range []rune{0x00, 0x1C, 0x85, 0x180E, 0x200B, 0x2060, 'a', 0x1FFF, 0x200C} {
		if IsSpace(r) {
			t.Errorf("IsSpace(%U) = true", r)
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"final sigma", "ΟΔΟΣ ΣΑΣ", "οδος σας"},
		{"dotted capital I", "İ", "i\u0307"},
		{"capital sharp s", "ẞ", "ß"},
		{"ligature", "ﬁ", "fi"},
		{"fullwidth", "ＡＢＣ", "abc"},
		{"fullwidth query", "ＴＨＥ", "the"},
		{"roman numeral", "Ⅻ", "xii"},
		{"square unit", "㎏", "kg"},
		// NFKC splits U+01C4 before lower-casing could map it to U+01C6.
		{"digraph decomposes", "Ǆ", "d\u017e"},
		{"trim before NFKC", "  The \u3000", "the"},
		{"BOM trimmed", "\uFEFFHello", "hello"},
		{"NEL kept", "\u0085A", "\u0085a"},
		{"composes", "e\u0301", "é"},
		{"plain", "mongodb", "mongodb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Normalize(tc.in); got != tc.want {
				t.Errorf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestDecodeUTF8(t *testing.T) {
	const fffd = "\uFFFD"
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"valid", []byte("héllo 😀"), "héllo 😀"},
		{"empty", nil, ""},
		{"maximal subpart", []byte{0xE2, 0x82, 0x61, 0xFF, 0x0A}, fffd + "a" + fffd + "\n"},
		{"overlong two-byte", []byte{0xC0, 0x80}, fffd + fffd},
		{"overlong three-byte", []byte{0xE0, 0x80, 0x80}, fffd + fffd + fffd},
		{"surrogate", []byte{0xED, 0xA0, 0x80}, fffd + fffd + fffd},
		{"truncated four-byte at end", []byte{0xF0, 0x9F, 0x98}, fffd},
		{"truncated four-byte then ascii", []byte{0xF0, 0x9F, 0x98, 'A'}, fffd + "A"},
		{"above U+10FFFF", []byte{0xF4, 0x90, 0x80, 0x80}, fffd + fffd + fffd + fffd},
		{"lone continuation", []byte{'a', 0x80, 'b'}, "a" + fffd + "b"},
		{"truncated two-byte at end", []byte{'a', 0xC2}, "a" + fffd},
		{"BOM kept", []byte{0xEF, 0xBB, 0xBF, '-', '-', '-'}, "\uFEFF---"},
		{"CRLF kept", []byte("a\r\nb"), "a\r\nb"},
		{"valid around invalid", []byte("é\xffé"), "é" + fffd + "é"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := DecodeUTF8(tc.in); got != tc.want {
				t.Errorf("DecodeUTF8(% x) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abc", 3, "abc"},
		{"abc", 2, "ab"},
		{"abc", 0, ""},
		{"😀a", 1, ""},
		{"😀a", 2, "😀"},
		{"😀a", 3, "😀a"},
		{"a😀", 2, "a"},
		{"éé", 1, "é"},
		{loneD800 + "ab", 1, loneD800},
		{loneD800 + "ab", 2, loneD800 + "a"},
	}
	for _, tc := range tests {
		if got := Truncate(tc.s, tc.n); got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

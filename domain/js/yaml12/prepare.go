package yaml12

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// yaml.v3 follows YAML 1.1 and libyaml where the reference follows YAML
// 1.2: it treats NEL, U+2028, U+2029 and a lone CR as line breaks, rejects
// C0/C1 control characters, U+FFFE and U+FFFF, refuses \u escapes that
// name a UTF-16 surrogate, and does not know the \/ escape. The reference
// takes all of these as ordinary content. Before handing the text to yaml.v3 we therefore swap each such
// character (and each surrogate escape) for a private-use "sentinel" that
// yaml.v3 treats as an ordinary character, and swap it back in every string
// we build. A sentinel is never a character the text contains or could
// produce through an escape, so the swap is exact.

// substitution records the swaps made in one text.
type substitution struct {
	// text is what yaml.v3 parses.
	text string
	// restorer undoes every swap in a decoded string: a sentinel becomes
	// what it stands for (the original character, or a surrogate escape's
	// WTF-8 bytes), and a rewritten surrogate escape its original
	// spelling, for where the escape was literal text (a plain or
	// single-quoted scalar). nil when there was nothing to swap.
	restorer *strings.Replacer
}

// needsSentinel reports whether yaml.v3 would misread r where the reference
// reads an ordinary character. A CR is handled by the caller: only a CR
// that does not start a CRLF needs one.
func needsSentinel(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n' && r != '\r'
	case r >= 0x7F && r <= 0x9F:
		return true
	case r == 0x2028, r == 0x2029, r == 0xFFFE, r == 0xFFFF:
		return true
	}
	return false
}

// prepare swaps the characters yaml.v3 would misread for sentinels.
func prepare(text string) *substitution {
	pool := sentinelPool{text: text}
	sentinels := map[string]rune{} // a character or an escape, and its sentinel
	restore := map[string]string{} // what the restorer replaces, and with what
	var b strings.Builder
	b.Grow(len(text) + 16)
	var runFirst byte
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		runFirst = nextRunFirst(runFirst, text[i])
		esc, decoded, isEscape := rewrittenEscape(text[i:])
		if !isEscape && !needsSentinel(r) && (r != '\r' || strings.HasPrefix(text[i+1:], "\n")) && !plainIndicator(text, i, runFirst) {
			b.WriteString(text[i : i+size])
			i += size
			continue
		}
		if !isEscape {
			esc, decoded = text[i:i+size], text[i:i+size]
		}
		sen, seen := sentinels[esc]
		if !seen {
			sen = pool.next()
			sentinels[esc] = sen
			restore[string(sen)] = decoded
		}
		if isEscape {
			rewritten := rewriteEscape(esc, sen)
			restore[rewritten] = esc
			b.WriteString(rewritten)
		} else {
			b.WriteRune(sen)
		}
		i += len(esc)
	}
	if len(restore) == 0 {
		// Most frontmatter has nothing to swap.
		return &substitution{text: text}
	}

	// No two patterns can match at the same place (rewritten escapes are
	// distinct ASCII spellings, sentinels distinct non-ASCII characters),
	// so the order of the pairs does not matter; sort them anyway so that
	// the replacer is built the same way every time.
	var pairs []string
	for _, from := range slices.Sorted(maps.Keys(restore)) {
		pairs = append(pairs, from, restore[from])
	}
	return &substitution{text: b.String(), restorer: strings.NewReplacer(pairs...)}
}

// plainIndicator reports whether the "?" or ":" at text[i] is plain
// content that yaml.v3 would misread as an indicator. YAML 1.2 makes "?"
// an indicator only when a blank (or, in a flow collection, a flow
// indicator) follows, and ":" only when it follows a blank, a flow
// indicator, or a JSON-like key; YAML 1.1, which libyaml follows, makes
// both indicators anywhere in a flow collection ("[why?]", "[:x]",
// "{?a: b}"). Swapping such a character for a sentinel keeps it content in
// every context, so this needs no knowledge of where flow collections are.
//
// runFirst is the first byte of the run of non-blank characters (flow
// indicators excepted) that text[i] belongs to.
func plainIndicator(text string, i int, runFirst byte) bool {
	c := text[i]
	if c != '?' && c != ':' {
		return false
	}
	next := byte(' ')
	if i+1 < len(text) {
		next = text[i+1]
	}
	prev := byte('\n')
	if i > 0 {
		prev = text[i-1]
	}
	if c == '?' {
		// After a JSON-like key ("a":?, ]:? or }:?) the ":" is an
		// indicator, so the "?" starts a token like after a blank.
		jsonValue := prev == ':' && i >= 2 && strings.IndexByte("]}\"'", text[i-2]) >= 0
		if !isBlank(prev) && strings.IndexByte("[{,", prev) < 0 && !jsonValue {
			// Inside a plain scalar, unless inside a tag, anchor or alias
			// name, where yaml.v3 has no trouble with it.
			return strings.IndexByte("!&*", runFirst) < 0
		}
		return !isBlank(next) && strings.IndexByte(",[]{}", next) < 0
	}
	// ":" starting a plain scalar: after a blank or a flow indicator, and
	// followed by content.
	if isBlank(next) || strings.IndexByte(",[]{}", next) >= 0 {
		return false
	}
	switch {
	case strings.IndexByte("[{,", prev) >= 0:
		return true
	case isBlank(prev):
		// Not after a quoted or bracketed key, where ":" is the value
		// indicator even with content right after it.
		j := i - 1
		for j >= 0 && (text[j] == ' ' || text[j] == '\t') {
			j--
		}
		return j < 0 || strings.IndexByte("\"']}", text[j]) < 0
	}
	return false
}

// nextRunFirst updates the first byte of the current run (see
// plainIndicator) for the byte c.
func nextRunFirst(runFirst, c byte) byte {
	switch {
	case isBlank(c) || strings.IndexByte(",[]{}", c) >= 0:
		return 0
	case runFirst == 0:
		return c
	}
	return runFirst
}

// restore undoes the swaps in a string built from the parsed text, and
// joins surrogate halves that ended up adjacent into one character, as a
// JavaScript string would show them.
func (s *substitution) restore(v string) string {
	if s.restorer == nil {
		return v
	}
	return joinSurrogates(s.restorer.Replace(v))
}

// usedCodePoints lists every character in text and every character an
// escape sequence in it could produce, so that no sentinel collides with
// either.
func usedCodePoints(text string) map[rune]bool {
	used := map[rune]bool{}
	for i, r := range text {
		used[r] = true
		if r != '\\' || i+1 >= len(text) {
			continue
		}
		if n := escapeDigits(text[i+1]); n > 0 && i+2+n <= len(text) {
			if cp, err := strconv.ParseUint(text[i+2:i+2+n], 16, 32); err == nil {
				used[rune(cp)] = true
			}
		}
	}
	return used
}

// sentinelPool hands out private-use characters the text does not use.
type sentinelPool struct {
	text string
	used map[rune]bool // usedCodePoints(text), once a sentinel is needed
	last rune
}

func (p *sentinelPool) next() rune {
	if p.used == nil {
		p.used = usedCodePoints(p.text)
	}
	r := p.last
	for {
		switch {
		case r == 0:
			r = 0xE000
		case r == 0xF8FF:
			r = 0xF0000
		default:
			r++
		}
		// A 64 KiB text cannot use up both private-use planes (71 000
		// characters), so this terminates well before U+FFFFD.
		if !p.used[r] {
			p.last = r
			return r
		}
	}
}

// rewrittenEscape reports whether s starts with an escape yaml.v3 would
// refuse: \/, or a \uXXXX or \UXXXXXXXX escape naming a UTF-16
// surrogate. It returns the escape's text and what it decodes to (a
// surrogate as WTF-8).
func rewrittenEscape(s string) (esc, decoded string, ok bool) {
	if len(s) < 2 || s[0] != '\\' {
		return "", "", false
	}
	if s[1] == '/' {
		return s[:2], "/", true
	}
	// A \x escape has too few digits to name a surrogate.
	n := escapeDigits(s[1])
	if n == 0 || len(s) < 2+n {
		return "", "", false
	}
	cp, err := strconv.ParseUint(s[2:2+n], 16, 32)
	if err != nil || cp < 0xD800 || cp > 0xDFFF {
		return "", "", false
	}
	return s[:2+n], wtf8(rune(cp)), true
}

// rewriteEscape spells an escape naming sen, as a \u escape where sen
// fits in four digits and esc is not a \U escape. A \/ grows by four
// characters, and so does a \u escape switched to the eight-digit form,
// which only shifts later columns on its line.
func rewriteEscape(esc string, sen rune) string {
	if esc[1] != 'U' && sen <= 0xFFFF {
		return fmt.Sprintf(`\u%04X`, sen)
	}
	return fmt.Sprintf(`\U%08X`, sen)
}

// escapeDigits is how many hexadecimal digits follow the escape letter c
// (\x, \u, \U); 0 for every other escape.
func escapeDigits(c byte) int {
	switch c {
	case 'x':
		return 2
	case 'u':
		return 4
	case 'U':
		return 8
	}
	return 0
}

// wtf8 encodes a surrogate code point the way jsvalue expects a lone
// surrogate to be carried in a Go string (three bytes ED A0..BF xx).
func wtf8(cp rune) string {
	return string([]byte{0xE0 | byte(cp>>12), 0x80 | byte(cp>>6)&0x3F, 0x80 | byte(cp)&0x3F})
}

// joinSurrogates replaces each WTF-8 high surrogate directly followed by a
// WTF-8 low surrogate with the UTF-8 character they encode together.
func joinSurrogates(s string) string {
	if !strings.Contains(s, "\xED") {
		return s
	}
	var b []byte
	last := 0
	for i := 0; i+6 <= len(s); i++ {
		if s[i] != 0xED || s[i+1] < 0xA0 || s[i+1] > 0xAF || s[i+3] != 0xED || s[i+4] < 0xB0 || s[i+4] > 0xBF {
			continue
		}
		hi := rune(s[i]&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
		lo := rune(s[i+3]&0x0F)<<12 | rune(s[i+4]&0x3F)<<6 | rune(s[i+5]&0x3F)
		r := 0x10000 + (hi-0xD800)<<10 + (lo - 0xDC00)
		b = append(b, s[last:i]...)
		b = utf8.AppendRune(b, r)
		last = i + 6
		i += 5
	}
	if b == nil {
		return s
	}
	return string(append(b, s[last:]...))
}

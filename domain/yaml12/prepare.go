package yaml12

import (
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
	// runes maps a sentinel to what it stands for in a decoded string: the
	// original character, or a surrogate escape's WTF-8 bytes.
	runes map[rune]string
	// escapes maps the rewritten spelling of a surrogate escape back to the
	// original spelling, for where the escape was literal text (a plain or
	// single-quoted scalar).
	escapes map[string]string
	// restorer undoes every swap in a decoded string; nil when there was
	// nothing to swap.
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
	if !needsPrepare(text) {
		return &substitution{text: text}
	}
	used := usedCodePoints(text)
	pool := sentinelPool{used: used}
	s := &substitution{runes: map[rune]string{}, escapes: map[string]string{}}
	byChar := map[rune]rune{}
	byEscape := map[string]rune{}

	var b strings.Builder
	b.Grow(len(text) + 16)
	var runFirst byte
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		runFirst = nextRunFirst(runFirst, text[i])
		if r == '\\' {
			if esc, decoded, ok := rewrittenEscape(text[i:]); ok {
				sen, seen := byEscape[esc]
				if !seen {
					sen = pool.next()
					byEscape[esc] = sen
					s.runes[sen] = decoded
				}
				rewritten := rewriteEscape(esc, sen)
				s.escapes[rewritten] = esc
				b.WriteString(rewritten)
				i += len(esc)
				continue
			}
		}
		if needsSentinel(r) || (r == '\r' && !strings.HasPrefix(text[i+1:], "\n")) || plainIndicator(text, i, runFirst) {
			sen, seen := byChar[r]
			if !seen {
				sen = pool.next()
				byChar[r] = sen
				s.runes[sen] = string(r)
			}
			b.WriteRune(sen)
			i += size
			continue
		}
		b.WriteString(text[i : i+size])
		i += size
	}
	s.text = b.String()

	// No two patterns can match at the same place (rewritten escapes are
	// distinct ASCII spellings, sentinels distinct non-ASCII characters),
	// so the order of the pairs does not matter; sort them anyway so that
	// the replacer is built the same way every time.
	pairs := make([][2]string, 0, len(s.runes)+len(s.escapes))
	for rewritten, orig := range s.escapes {
		pairs = append(pairs, [2]string{rewritten, orig})
	}
	for sen, orig := range s.runes {
		pairs = append(pairs, [2]string{string(sen), orig})
	}
	slices.SortFunc(pairs, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	flat := make([]string, 0, 2*len(pairs))
	for _, p := range pairs {
		flat = append(flat, p[0], p[1])
	}
	s.restorer = strings.NewReplacer(flat...)
	return s
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

// needsPrepare is the fast path: most frontmatter has nothing to swap.
func needsPrepare(text string) bool {
	var runFirst byte
	for i := 0; i < len(text); {
		c := text[i]
		runFirst = nextRunFirst(runFirst, c)
		if c < utf8.RuneSelf {
			switch {
			case c == '\r':
				if i+1 >= len(text) || text[i+1] != '\n' {
					return true
				}
			case c == '\\':
				if _, _, ok := rewrittenEscape(text[i:]); ok {
					return true
				}
			case needsSentinel(rune(c)), plainIndicator(text, i, runFirst):
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if needsSentinel(r) {
			return true
		}
		i += size
	}
	return false
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
		n := 0
		switch text[i+1] {
		case 'x':
			n = 2
		case 'u':
			n = 4
		case 'U':
			n = 8
		default:
			continue
		}
		if i+2+n <= len(text) {
			if cp, err := strconv.ParseUint(text[i+2:i+2+n], 16, 32); err == nil {
				used[rune(cp)] = true
			}
		}
	}
	return used
}

// sentinelPool hands out private-use characters the text does not use.
type sentinelPool struct {
	used map[rune]bool
	last rune
}

func (p *sentinelPool) next() rune {
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
	n := 0
	switch s[1] {
	case '/':
		return s[:2], "/", true
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		return "", "", false
	}
	if len(s) < 2+n {
		return "", "", false
	}
	cp, err := strconv.ParseUint(s[2:2+n], 16, 32)
	if err != nil || cp < 0xD800 || cp > 0xDFFF {
		return "", "", false
	}
	return s[:2+n], wtf8(rune(cp)), true
}

// rewriteEscape spells an escape naming sen, as wide as esc where it can
// be (a \/ grows by four characters, which only shifts later columns on
// its line).
func rewriteEscape(esc string, sen rune) string {
	if esc[1] == '/' {
		if sen > 0xFFFF {
			return "\\U" + hex8(sen)
		}
		return "\\u" + hex8(sen)[4:]
	}
	if esc[1] == 'u' {
		if sen > 0xFFFF {
			// Does not fit in four digits: switch to the eight-digit form.
			// The text grows by four characters, which only shifts columns
			// on this line.
			return "\\U" + hex8(sen)
		}
		return "\\u" + hex8(sen)[4:]
	}
	return "\\U" + hex8(sen)
}

func hex8(r rune) string {
	s := strconv.FormatUint(uint64(r), 16)
	return strings.Repeat("0", 8-len(s)) + strings.ToUpper(s)
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

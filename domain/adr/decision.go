package adr

import (
	"strings"
	"unicode/utf8"
)

// DecisionSentenceMax bounds DecisionSentence in bytes: a sentence that
// runs on is cut at a word and ends with "…", so that one long record
// cannot crowd out the others where the sentence is quoted (an agent
// hook's context has a fixed budget).
const DecisionSentenceMax = 240

// DecisionSentence is the sentence of body that states the decision: the
// first sentence of the first paragraph (or list item) under a heading
// named "Decision" (any level; "Decision Outcome", MADR's, and "Decision:
// ..." count too). "" when the body has no such heading or nothing but
// headings and code under it. Inline emphasis markers are dropped and
// whitespace collapsed; nothing else of Markdown is interpreted.
func DecisionSentence(body string) string {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	under, fence := false, ""
	var para []string
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			if len(para) > 0 {
				break
			}
			fence = trimmed[:3]
			continue
		}
		if title, ok := headingText(trimmed); ok {
			if len(para) > 0 {
				break
			}
			under = isDecisionHeading(title)
			continue
		}
		if !under {
			continue
		}
		if trimmed == "" {
			if len(para) > 0 {
				break
			}
			continue
		}
		item, isItem := listItemText(trimmed)
		if isItem && len(para) > 0 {
			break // the next item: the first one is the statement
		}
		para = append(para, item)
	}
	if len(para) == 0 {
		return ""
	}
	return firstSentence(cleanInline(strings.Join(para, " ")))
}

// headingText is the text of an ATX heading line ("## Decision ##"), and
// whether line is one.
func headingText(line string) (string, bool) {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(line) && line[n] != ' ' && line[n] != '\t') {
		return "", false
	}
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(line[n:]), "#")), true
}

// isDecisionHeading reports whether a heading names the decision: its
// first word is "decision" (case-insensitive), alone or followed by
// "outcome", a colon or a dash, as the common templates write it.
func isDecisionHeading(title string) bool {
	t := strings.ToLower(strings.TrimSpace(title))
	rest, ok := strings.CutPrefix(t, "decision")
	if !ok {
		return false
	}
	rest = strings.TrimSpace(rest)
	return rest == "" || rest == "outcome" || strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "-") ||
		strings.HasPrefix(rest, "–") || strings.HasPrefix(rest, "—")
}

// listItemText strips a list marker ("- ", "* ", "+ ", "1. ", "1) ").
func listItemText(line string) (string, bool) {
	if len(line) >= 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') && line[1] == ' ' {
		return strings.TrimSpace(line[2:]), true
	}
	n := 0
	for n < len(line) && line[n] >= '0' && line[n] <= '9' {
		n++
	}
	if n > 0 && n+1 < len(line) && (line[n] == '.' || line[n] == ')') && line[n+1] == ' ' {
		return strings.TrimSpace(line[n+2:]), true
	}
	return line, false
}

// cleanInline drops emphasis markers and collapses whitespace.
func cleanInline(s string) string {
	s = strings.NewReplacer("**", "", "__", "").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// firstSentence is s up to and including the first '.', '!' or '?'
// that ends a sentence (followed by a space, or the end), cut to
// DecisionSentenceMax bytes at a word.
func firstSentence(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c == '.' || c == '!' || c == '?') && (i+1 == len(s) || s[i+1] == ' ') {
			// "e.g." and "i.e." do not end a sentence.
			if c == '.' && i >= 3 && (s[i-3:i+1] == "e.g." || s[i-3:i+1] == "i.e.") {
				continue
			}
			s = s[:i+1]
			break
		}
	}
	if len(s) <= DecisionSentenceMax {
		return s
	}
	cut := DecisionSentenceMax - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > DecisionSentenceMax/2 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

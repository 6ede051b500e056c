// Package frontmattertest holds what migrate's tests expect of a source
// file, written apart from the code under test so that it can catch it
// out. Only tests import it.
package frontmattertest

import "strings"

// Body is a source file's body: what follows its front matter (YAML
// between "---" lines, a site's TOML between "+++" lines) and a
// byte-order mark, byte for byte. migrate must keep it exactly.
func Body(text string) string {
	text = strings.TrimPrefix(text, "\uFEFF")
	for _, fence := range []string{"---", "+++"} {
		first, rest, ok := strings.Cut(text, "\n")
		if !ok || strings.TrimSuffix(first, "\r") != fence {
			continue
		}
		for p := 0; p < len(rest); {
			line, _, more := strings.Cut(rest[p:], "\n")
			if strings.TrimSuffix(line, "\r") == fence {
				if !more {
					return ""
				}
				return rest[p+len(line)+1:]
			}
			p += len(line) + 1
		}
	}
	return text
}

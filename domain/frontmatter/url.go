package frontmatter

import (
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/js/whatwgurl"
)

// checkURL applies the frontmatter URL rule: the value is trimmed of
// JavaScript whitespace and must then be an absolute URL the WHATWG URL
// parser accepts. The trimmed text, not a re-serialised URL, is what the
// record keeps, so a reader sees exactly what the author wrote.
func checkURL(s string) (trimmed string, ok bool) {
	trimmed = jsstring.TrimSpace(s)
	return trimmed, whatwgurl.CanParse(trimmed)
}

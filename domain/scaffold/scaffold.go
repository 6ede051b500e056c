// Package scaffold builds what "adrkit new" writes: the next free
// number, the file name, the frontmatter and a short body.
package scaffold

import (
	"math/big"
	"strings"

	"github.com/adrkit/adrkit-go/domain/migrate"
)

// NextNumber returns the number after the largest one any of names starts
// with (as migrate.FileNumber reads names), zero-padded to the width that
// number was written with, and to four digits at least: 0001 in an empty
// directory, 0013 after 0012-x.md.
func NextNumber(names []string) string {
	largest, width := new(big.Int), 4
	for _, name := range names {
		digits, ok := migrate.FileNumber(name)
		if !ok {
			continue
		}
		n, _ := new(big.Int).SetString(digits, 10)
		if c := n.Cmp(largest); c > 0 || c == 0 && len(digits) > width {
			largest = n
			width = max(4, len(digits))
		}
	}
	next := new(big.Int).Add(largest, big.NewInt(1)).String()
	if len(next) < width {
		next = strings.Repeat("0", width-len(next)) + next
	}
	return next
}

// FileName is a record's file name: its id, a dash, the title's slug.
func FileName(id, title string) string { return id + "-" + migrate.Slugify(title) + ".md" }

// sections are the sections of a new record's body, each with the prompt
// sentence that says what goes there, for the author to replace.
var sections = [...]struct{ heading, prompt string }{
	{"Context", "What is the situation, and what forces a decision now?"},
	{"Decision", "What we will do, in full sentences."},
	{"Consequences", "What becomes easier, what becomes harder, and what we will watch."},
}

// Body is the body of a new record: its title and the three sections of
// a decision, each with its prompt.
func Body(title string) string {
	var b strings.Builder
	b.WriteString("\n# " + title + "\n")
	for _, s := range sections {
		b.WriteString("\n## " + s.heading + "\n\n" + s.prompt + "\n")
	}
	return b.String()
}

// Leftover is a prompt of the default body still in a record's body.
type Leftover struct {
	// Line is the line of the body it is on, from 1.
	Line int
	// Prompt is the sentence as Body writes it.
	Prompt string
}

// TemplateText finds the prompts of the default body (Body) that a
// record's body still holds: the lines whose text, without the spaces
// around it, is a prompt sentence. Such a line says nothing a reader can
// act on; a record that holds one was written by adrkit new and not
// filled in there. It is the one test of unfilled template text: lint's
// template-text rule reports what it finds, the site marks it. Prompts of
// a team's own template (adrkit new --template) are not known here. The
// leftovers are in line order; none is nil.
func TemplateText(body string) []Leftover {
	var out []Leftover
	for i, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		for _, s := range sections {
			if line == s.prompt {
				out = append(out, Leftover{Line: i + 1, Prompt: s.prompt})
			}
		}
	}
	return out
}

// Fill fills a template's placeholders: {{id}}, {{title}}, {{date}} and
// {{status}}. Anything else in the template is kept as written.
func Fill(template, id, title, date, status string) string {
	return strings.NewReplacer("{{id}}", id, "{{title}}", title, "{{date}}", date, "{{status}}", status).Replace(template)
}

// affectsHint is the commented example a new record carries in its
// frontmatter: affects is what makes a decision reach the files it
// governs (explain, check, the hook), and a record written without it
// governs nothing. Comments keep the record valid until it is filled in.
const affectsHint = "# affects:                 # the files this decision governs (adrkit explain, check and the hook read it)\n" +
	"#   - type: path\n" +
	"#     pattern: \"services/payments/**\"\n"

// WithAffectsHint is a frontmatter block ("---\n...---\n") with the
// commented affects example before its closing line.
func WithAffectsHint(block string) string {
	const closing = "---\n"
	if !strings.HasSuffix(block, closing) || strings.Contains(block, "\naffects:") {
		return block
	}
	return strings.TrimSuffix(block, closing) + affectsHint + closing
}

package site

import (
	"bytes"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/yuin/goldmark/v2/ast"
	"github.com/yuin/goldmark/v2/extension"
	"github.com/yuin/goldmark/v2/parser"
	"github.com/yuin/goldmark/v2/renderer/html"
	"github.com/yuin/goldmark/v2/text"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/scaffold"
)

// markdown renders record bodies: GitHub Flavored Markdown, raw HTML
// left out (goldmark's default: a record cannot inject script into the
// site), and relative links rewritten for the site. goldmark v2 compiles
// its regular expressions when a parser is made, not at package
// initialisation as v1 did, so linking it costs adrkit's other commands
// next to nothing at start-up (ADR 0036); a markdown is made only when a
// site is built.
type markdown struct {
	parser   parser.Parser
	renderer html.Renderer
	pages    map[string]string // a record's repository path → its page
}

func newMarkdown(pages map[string]string) *markdown {
	return &markdown{
		parser: parser.New(parser.WithExtensions(extension.NewGFMParser())),
		// The task list's boxes are made text below, so its renderer
		// (a disabled form control) is not wanted.
		renderer: html.New(html.WithExtensions(extension.NewTableHTMLRenderer(), extension.NewStrikethroughHTMLRenderer())),
		pages:    pages,
	}
}

// render renders r's body. A relative link to another record's file goes
// to that record's page; any other relative link or image points at a
// file of the repository the site does not hold, so it becomes its text
// followed by the file's repository path, rather than a broken link.
func (m *markdown) render(r *adr.Record) (string, error) {
	src := []byte(r.Body)
	doc := m.parser.Parse(src)
	// The page shows the title as its heading already; a body that opens
	// with the same title as a heading of its own would say it twice.
	if h, ok := doc.FirstChild().(*ast.Heading); ok && h.Level == 1 && plainText(h, src) == strings.TrimSpace(r.Frontmatter.Title) {
		doc.RemoveChild(h)
	}
	var targets []ast.Node
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.Paragraph:
			// A prompt of adrkit new's body left in place is marked, so
			// that it is not read as the decision.
			if len(scaffold.TemplateText(plainText(n, src))) > 0 {
				n.SetAttribute("class", text.NewMultiLineValueFromString("template-text", text.IdentityDecoder))
			}
		case *ast.Link, *ast.Image:
			targets = append(targets, n)
		case *ast.ListItem:
			if _, ok := extension.TaskStatusOf(n); ok {
				targets = append(targets, n)
			}
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return "", fmt.Errorf("walking the Markdown: %w", err)
	}
	for _, n := range targets {
		if status, ok := extension.TaskStatusOf(n); ok {
			// A task list's box is text, not a form control without a
			// label: the page has nothing to submit.
			mark := "☐ "
			if status == extension.TaskStatusCompleted {
				mark = "☑ "
			}
			n.RemoveAttributes()
			if p := n.FirstChild(); p != nil {
				p.InsertBefore(p.FirstChild(), ownedText(mark))
			}
			continue
		}
		m.rewrite(r, n, src)
	}
	var buf bytes.Buffer
	if err := m.renderer.Render(&buf, src, doc); err != nil {
		return "", fmt.Errorf("rendering the Markdown: %w", err)
	}
	return buf.String(), nil
}

func (m *markdown) rewrite(r *adr.Record, n ast.Node, src []byte) {
	var dest string
	switch l := n.(type) {
	case *ast.Link:
		dest = l.Destination.Value(src)
	case *ast.Image:
		dest = l.Destination.Value(src)
	}
	u, err := url.Parse(dest)
	if img, ok := n.(*ast.Image); ok && (err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/")) {
		// The site loads nothing from another host: an image from
		// elsewhere becomes a link to it, named by its alternative text.
		link := ast.NewLink(img.Destination, ast.WithLinkTitle(img.Title))
		for c := img.FirstChild(); c != nil; {
			next := c.NextSibling()
			link.AppendChild(c)
			c = next
		}
		if !link.HasChildren() || (link.ChildCount() == 1 && plainText(link, src) == "" && link.FirstChild().Kind() == ast.KindText) {
			// No alternative text (goldmark v2 gives an empty text node).
			link.RemoveChildren()
			link.AppendChild(ownedText(dest))
		}
		img.Parent().ReplaceChild(img, link)
		return
	}
	if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/") || u.Path == "" {
		// Absolute, in-page (#x), or not a URL at all: as written.
		return
	}
	target := path.Join(path.Dir(r.SourcePath), u.Path)
	if l, ok := n.(*ast.Link); ok {
		if page, ok := m.pages[target]; ok {
			l.Destination = text.NewSingleLineValueFromString("../"+hrefOf(page)+fragment(u), text.IdentityDecoder)
			return
		}
	}
	// Not a page of the site: the link's text (an image's alternative
	// text) and the repository path in its place.
	parent := n.Parent()
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(n, c)
		c = next
	}
	note := ownedText(" (" + target + " in the repository)")
	if strings.HasPrefix(target, "../") || target == ".." {
		note = ownedText(" (" + dest + ")")
	}
	parent.ReplaceChild(n, note)
}

// ownedText is a text node of s itself, not of a stretch of the source.
func ownedText(s string) *ast.Text {
	return ast.NewText(text.NewSingleLineValueFromString(s, text.IdentityDecoder))
}

func fragment(u *url.URL) string {
	if u.Fragment == "" {
		return ""
	}
	return "#" + u.EscapedFragment()
}

// plainText is the text of n's inline content, trimmed.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Value.Bytes(src))
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

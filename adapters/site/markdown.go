package site

import (
	"bytes"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// markdown renders record bodies: GitHub Flavored Markdown, raw HTML
// left out (goldmark's default: a record cannot inject script into the
// site), and relative links rewritten for the site.
type markdown struct {
	md    goldmark.Markdown
	pages map[string]string // a record's repository path → its page
}

func newMarkdown(pages map[string]string) *markdown {
	return &markdown{md: goldmark.New(goldmark.WithExtensions(extension.GFM)), pages: pages}
}

// render renders r's body. A relative link to another record's file goes
// to that record's page; any other relative link or image points at a
// file of the repository the site does not hold, so it becomes its text
// followed by the file's repository path, rather than a broken link.
func (m *markdown) render(r *adr.Record) (string, error) {
	src := []byte(r.Body)
	doc := m.md.Parser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
	// The page shows the title as its heading already; a body that opens
	// with the same title as a heading of its own would say it twice.
	if h, ok := doc.FirstChild().(*ast.Heading); ok && h.Level == 1 && plainText(h, src) == strings.TrimSpace(r.Frontmatter.Title) {
		doc.RemoveChild(doc, h)
	}
	var targets []ast.Node
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.Link, *ast.Image, *east.TaskCheckBox:
			targets = append(targets, n)
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return "", fmt.Errorf("walking the Markdown: %w", err)
	}
	for _, n := range targets {
		if box, ok := n.(*east.TaskCheckBox); ok {
			// A task list's box is text, not a form control without a
			// label: the page has nothing to submit.
			mark := "☐ "
			if box.IsChecked {
				mark = "☑ "
			}
			box.Parent().ReplaceChild(box.Parent(), box, ast.NewString([]byte(mark)))
			continue
		}
		m.rewrite(r, n)
	}
	var buf bytes.Buffer
	if err := m.md.Renderer().Render(&buf, src, doc); err != nil {
		return "", fmt.Errorf("rendering the Markdown: %w", err)
	}
	return buf.String(), nil
}

func (m *markdown) rewrite(r *adr.Record, n ast.Node) {
	var dest []byte
	switch l := n.(type) {
	case *ast.Link:
		dest = l.Destination
	case *ast.Image:
		dest = l.Destination
	}
	u, err := url.Parse(string(dest))
	if img, ok := n.(*ast.Image); ok && (err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/")) {
		// The site loads nothing from another host: an image from
		// elsewhere becomes a link to it, named by its alternative text.
		link := ast.NewLink()
		link.Destination, link.Title = img.Destination, img.Title
		for c := img.FirstChild(); c != nil; {
			next := c.NextSibling()
			link.AppendChild(link, c)
			c = next
		}
		if !link.HasChildren() {
			link.AppendChild(link, ast.NewString(img.Destination))
		}
		img.Parent().ReplaceChild(img.Parent(), img, link)
		return
	}
	if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/") || u.Path == "" {
		// Absolute, in-page (#x), or not a URL at all: as written.
		return
	}
	target := path.Join(path.Dir(r.SourcePath), u.Path)
	if l, ok := n.(*ast.Link); ok {
		if page, ok := m.pages[target]; ok {
			l.Destination = []byte("../" + hrefOf(page) + fragment(u))
			return
		}
	}
	// Not a page of the site: the link's text (an image's alternative
	// text) and the repository path in its place.
	parent := n.Parent()
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(parent, n, c)
		c = next
	}
	note := ast.NewString([]byte(" (" + target + " in the repository)"))
	if strings.HasPrefix(target, "../") || target == ".." {
		note = ast.NewString([]byte(" (" + string(dest) + ")"))
	}
	parent.ReplaceChild(parent, n, note)
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
			b.Write(t.Segment.Value(src))
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

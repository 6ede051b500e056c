package app

import (
	"fmt"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

// fakeFile is one entry of a test corpus (corpusOf): its kind and
// display path, its bytes, and the failure reading it gives, if any.
type fakeFile struct {
	entry   ports.Entry
	content []byte
	readErr error
}

func regular(name string, content string) fakeFile {
	return fakeFile{entry: ports.Entry{Name: name, Path: "docs/adr/" + name, Kind: ports.KindRegular}, content: []byte(content)}
}

// corpusOf is the in-memory corpus of docs/adr holding files.
func corpusOf(files ...fakeFile) *memcorpus.Reader {
	r := memcorpus.New("docs/adr")
	for _, f := range files {
		switch f.entry.Kind {
		case ports.KindSymlink:
			r.Symlink(f.entry.Name)
		case ports.KindDirectory:
			r.Mkdir(f.entry.Name)
		case ports.KindOther:
			r.Special(f.entry.Name)
		default:
			r.WriteFile(f.entry.Name, f.content)
		}
		if f.readErr != nil {
			r.FailRead(f.entry.Name, f.readErr)
		}
	}
	return r
}

// openFails is an empty corpus whose every Open fails with err.
func openFails(err error) *memcorpus.Reader {
	r := corpusOf()
	r.FailOpen(err)
	return r
}

func unavailableErr(r corpus.UnavailableReason) error { return &ports.UnavailableError{Reason: r} }

// rec builds a record without the parser: the tool logic only needs the
// typed frontmatter, the body and the path.
type rec struct {
	id, title, path, body string
	status                adr.Status
	scope                 adr.Scope
	tags                  []string
	supersededBy          string
	supersedes            []string
	affects               []adr.Matcher
}

func (r rec) build() *adr.Record {
	raw := jsvalue.NewObject(4)
	raw.Set("id", r.id)
	raw.Set("title", r.title)
	raw.Set("status", string(r.status))
	path := r.path
	if path == "" {
		path = "docs/adr/" + r.id + "-x.md"
	}
	return &adr.Record{
		SourcePath: path,
		Body:       r.body,
		Frontmatter: &adr.Frontmatter{
			ID: r.id, Title: r.title, Status: r.status, Scope: r.scope, Tags: r.tags,
			SupersededBy: r.supersededBy, Supersedes: r.supersedes, Affects: r.affects,
			YAML: r.yaml(), Canonical: string(jsvalue.AppendCanonical(nil, raw)),
		},
	}
}

// yaml is a frontmatter that validates, for get_decision to show: the
// id, title, status and replacement, with what the schema requires.
func (r rec) yaml() string {
	y := fmt.Sprintf("id: %q\ntitle: %q\nstatus: %s\ndate: 2026-01-01\ndeciders: [\"@team\"]\n", r.id, r.title, r.status)
	if r.supersededBy != "" {
		y += fmt.Sprintf("supersededBy: %q\n", r.supersededBy)
	}
	return y
}

// projection assembles a projection from records given in canonical
// order, as corpus.Build would leave it.
func projection(findings []adr.Finding, recs ...rec) *corpus.Projection {
	p := &corpus.Projection{ByID: map[string][]*adr.Record{}, Findings: findings, Fingerprint: testFP}
	for _, r := range recs {
		b := r.build()
		p.Records = append(p.Records, b)
		p.ByID[r.id] = append(p.ByID[r.id], b)
	}
	p.RecordCount = len(p.Records)
	return p
}

const testFP = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func ptr[T any](v T) *T { return &v }

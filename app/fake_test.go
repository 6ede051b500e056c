package app

import (
	"context"
	"fmt"
	"sync"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/jsvalue"
	"github.com/adrkit/adrkit-go/ports"
)

// fakeFile is one entry of a fakeReader's directory.
type fakeFile struct {
	entry   ports.Entry
	content []byte
	readErr error
}

// fakeReader is an in-memory CorpusReader. It counts the calls it sees so
// tests can prove that refused input never touches the corpus.
type fakeReader struct {
	files     []fakeFile
	openErr   error
	listErr   error
	verifyErr error

	mu    sync.Mutex
	opens int
	reads []string
}

func (f *fakeReader) Open(context.Context) (ports.ADRDir, error) {
	f.mu.Lock()
	f.opens++
	f.mu.Unlock()
	if f.openErr != nil {
		return nil, f.openErr
	}
	return fakeView{f}, nil
}

type fakeView struct{ r *fakeReader }

func (v fakeView) List(context.Context, bool) ([]ports.Entry, error) {
	if v.r.listErr != nil {
		return nil, v.r.listErr
	}
	out := make([]ports.Entry, len(v.r.files))
	for i, f := range v.r.files {
		out[i] = f.entry
	}
	return out, nil
}

func (v fakeView) Read(_ context.Context, name string, _ int64, _ []byte) ([]byte, error) {
	v.r.mu.Lock()
	v.r.reads = append(v.r.reads, name)
	v.r.mu.Unlock()
	for _, f := range v.r.files {
		if f.entry.Name == name {
			if f.readErr != nil {
				return nil, f.readErr
			}
			return f.content, nil
		}
	}
	return nil, &ports.ReadError{Kind: ports.ReadStatFailed}
}

func (v fakeView) Verify(context.Context) error { return v.r.verifyErr }

func regular(name string, content string) fakeFile {
	return fakeFile{entry: ports.Entry{Name: name, Path: "docs/adr/" + name, Kind: ports.KindRegular}, content: []byte(content)}
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

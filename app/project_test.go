package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

// fakeParse stands in for the frontmatter pipeline: the content is the
// record id, "bad" gives a schema finding instead.
func fakeParse(path string, content []byte) (*adr.Record, []adr.Finding) {
	if string(content) == "bad" {
		return nil, []adr.Finding{{Rule: "invalid-type", Severity: adr.SeverityError, Message: "m", Path: path, Field: "title"}}
	}
	raw := rec{id: string(content), title: "T " + string(content), status: adr.StatusAccepted, path: path}.build()
	return raw, nil
}

func TestProjectReadsCandidatesOnly(t *testing.T) {
	withErr := func(f fakeFile, err error) fakeFile { f.readErr = err; return f }
	link := regular("0002-link.md", "0002")
	link.entry.Kind = ports.KindSymlink
	dir := regular("0003-dir.md", "")
	dir.entry.Kind = ports.KindDirectory
	fifo := regular("0008-fifo.md", "")
	fifo.entry.Kind = ports.KindOther
	r := corpusOf(
		regular("0000-template.md", "0000"),
		regular("0001-a.md", "0001"),
		link,
		dir,
		withErr(regular("0004-big.md", ""), &ports.ReadError{Kind: ports.ReadTooLarge}),
		withErr(regular("0005-gone.md", ""), &ports.ReadError{Kind: ports.ReadStatFailed}),
		withErr(regular("0006-perm.md", ""), &ports.ReadError{Kind: ports.ReadFailed, Err: &fs.PathError{Op: "open", Path: "/abs/secret/0006-perm.md", Err: fs.ErrPermission}}),
		withErr(regular("0007-odd.md", ""), fmt.Errorf("odd failure at /abs/secret")),
		fifo,
		regular("0009-bad.md", "bad"),
		regular("0010-b.md", "0010"),
		regular("001-short.md", "0011"),
		regular("README.md", "x"),
		regular("notes.md", "x"),
	)
	p, err := New(r, Options{Parse: fakeParse}).Project(context.Background())
	if err != nil {
		t.Fatalf("Project: %v", err)
	}
	wantReads := []string{"0001-a.md", "0004-big.md", "0005-gone.md", "0006-perm.md", "0007-odd.md", "0009-bad.md", "0010-b.md"}
	if !slices.Equal(r.Reads(), wantReads) {
		t.Errorf("reads = %q, want %q", r.Reads(), wantReads)
	}
	if p.RecordCount != 2 || p.ExcludedCount != 5 {
		t.Errorf("counts = %d records, %d excluded", p.RecordCount, p.ExcludedCount)
	}
	var got []string
	for _, f := range p.Findings {
		got = append(got, f.Rule+" "+f.Path)
		if strings.Contains(f.Message, "/abs") {
			t.Errorf("message leaks an absolute path: %q", f.Message)
		}
	}
	want := []string{
		"file-read docs/adr/0006-perm.md",
		"file-read docs/adr/0007-odd.md",
		"invalid-type docs/adr/0009-bad.md",
		"record-stat-error docs/adr/0005-gone.md",
		"record-too-large docs/adr/0004-big.md",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings = %q", got)
	}
}

func TestReadFailureCauses(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&ports.ReadError{Kind: ports.ReadDenied, Err: fs.ErrPermission}, "permission to read the file was denied"},
		{&ports.ReadError{Kind: ports.ReadVanished}, "the file disappeared before it could be read"},
		{&ports.ReadError{Kind: ports.ReadFailed, Err: fs.ErrPermission}, "reading the file failed"},
		{errors.New("EIO at /x"), "reading the file failed"},
	}
	for _, tc := range tests {
		c := corpus.Candidate{Path: "docs/adr/0001-x.md"}
		if err := exclude(&c, tc.err); err != nil || c.Exclusion != corpus.ExcludedReadError || c.Cause != tc.want {
			t.Errorf("exclude(%v) = %v, %+v", tc.err, err, c)
		}
	}
}

// An unavailable corpus, wherever it is found out, replaces the whole
// answer on every tool: no corpusHealth, the fixed message as the text.
func TestCorpusUnavailable(t *testing.T) {
	listFails, verifyFails := corpusOf(), corpusOf(regular("0001-a.md", "0001"))
	listFails.FailList(unavailableErr(corpus.DirNotReadable))
	verifyFails.FailVerify(unavailableErr(corpus.CorpusChangedDuringLoad))
	readers := map[string]*memcorpus.Reader{
		"open":    openFails(unavailableErr(corpus.RootNotGit)),
		"list":    listFails,
		"verify":  verifyFails,
		"wrapped": openFails(fmt.Errorf("resolve root: %w", unavailableErr(corpus.DirOutsideRoot))),
	}
	reasons := map[string]corpus.UnavailableReason{
		"open": corpus.RootNotGit, "list": corpus.DirNotReadable, "verify": corpus.CorpusChangedDuringLoad, "wrapped": corpus.DirOutsideRoot,
	}
	args := map[string]string{
		ToolSearchDecisions: `{"query":"x","cursor":"junk"}`, ToolGetDecision: `{"ref":"0001"}`,
		ToolGetDecisionContext: `{"files":["a"]}`, ToolListSuperseded: `{"findingsCursor":"junk"}`,
	}
	for name, r := range readers {
		reason := reasons[name]
		for _, tool := range toolNames(New(r, Options{})) {
			t.Run(name+"/"+tool, func(t *testing.T) {
				res, err := New(r, Options{Parse: fakeParse}).Call(context.Background(), tool, json.RawMessage(args[tool]))
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(res.Structured)
				want := `{"result":{"outcome":"corpus-unavailable","reason":"` + string(reason) + `","message":"` + reason.Message() + `"}}`
				if string(b) != want || res.Text != reason.Message() || res.IsError {
					t.Errorf("got %s %q", b, res.Text)
				}
			})
		}
	}
}

func TestUnexpectedFaultsAreErrors(t *testing.T) {
	r := openFails(errors.New("disk on fire"))
	_, err := New(r, Options{}).Call(context.Background(), ToolListSuperseded, nil)
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("err = %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = corpusOf(regular("0001-a.md", "0001"))
	if _, err := New(r, Options{Parse: fakeParse}).Call(ctx, ToolListSuperseded, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call err = %v", err)
	}
}

// Every call projects afresh: an edit between two calls is visible.
func TestEveryCallProjectsAfresh(t *testing.T) {
	r := corpusOf(regular("0001-a.md", "0001"))
	s := New(r, Options{Parse: fakeParse})
	first := must(s.CallInput(context.Background(), GetInput{Ref: "0002"}))
	r.WriteFile("0002-b.md", []byte("0002"))
	second := must(s.CallInput(context.Background(), GetInput{Ref: "0002"}))
	if result(t, first)["outcome"] != "not-found" || result(t, second)["outcome"] != "found" || r.Opens() != 2 {
		t.Errorf("first %q, second %q, opens %d", first.Text, second.Text, r.Opens())
	}
}

package app_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/fifotest"
	"github.com/adrkit/adrkit-go/internal/linktest"
)

// The hostile-corpus tests put files on disk that try to break the
// server (exponential YAML, deep nesting, oversized or undecodable files,
// files that change while they are read, special files, symlink loops, a
// directory that disappears) and read them through adapters/filesystem
// and app exactly as a tool call does. Each case states the answer it
// expects; docs/reliability.md lists them.

// billionLaughs is the classic alias bomb: nine levels of nine aliases,
// 9^9 "lol"s if it were expanded.
func billionLaughs() string {
	var b strings.Builder
	b.WriteString(`l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d,", i-1), 9), ","))
	}
	return b.String()
}

// emptyDoubling doubles an empty list through aliases thirty times: the
// bomb the reference's alias counter ignores (docs/yaml-dialect.md).
func emptyDoubling() string {
	var b strings.Builder
	b.WriteString("e0: &e0 []\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "e%d: &e%d [*e%d, *e%d]\n", i, i, i-1, i-1)
	}
	return b.String()
}

// yamlBombBudget bounds the heap one projection of the bomb corpus may
// allocate. The bounds the YAML decoder enforces (100 alias expansions
// per anchor, 4,194,304 values in all, 1000 levels of nesting) keep it
// far below; docs/reliability.md records the measured figure.
const yamlBombBudget = 64 << 20

func TestHostileYAMLBombs(t *testing.T) {
	r := newHostileRepo(t)
	files := map[string]struct {
		content []byte
		rule    string
		message string // a part of the finding's message
	}{
		"0001-billion-laughs.md": {hostileRecord("0001", "Laughs", billionLaughs()), "file-read", "alias"},
		"0002-empty-doubling.md": {hostileRecord("0002", "Doubling", emptyDoubling()), "file-read", "4194304 values"},
		"0003-deep-flow-seq.md": {hostileRecord("0003", "Deep", "x: "+strings.Repeat("[", 30000)+strings.Repeat("]", 30000)+"\n"),
			"frontmatter-parse", "nested too deeply"},
		"0004-deep-flow-map.md": {hostileRecord("0004", "Deep", "x: "+strings.Repeat("{a: ", 12000)+"1"+strings.Repeat("}", 12000)+"\n"),
			"frontmatter-parse", "nested too deeply"},
		"0005-deep-block-seq.md": {hostileRecord("0005", "Deep", "x:\n  "+strings.Repeat("- ", 30000)+"1\n"),
			"frontmatter-parse", "nested too deeply"},
		"0006-unclosed-flow.md": {hostileRecord("0006", "Unclosed", "x: "+strings.Repeat("[", 60000)+"\n"),
			"frontmatter-parse", ""},
	}
	for name, f := range files {
		if len(f.content) > corpus.MaxRecordBytes {
			t.Fatalf("%s has %d bytes: a bomb must fit under the size cap to reach the parser", name, len(f.content))
		}
		r.write(t, name, f.content)
	}
	r.write(t, "0100-fine.md", hostileRecord("0100", "Still served", ""))

	s := r.service()
	var p *corpus.Projection
	heap := heapAllocated(func() { p = hostileProject(t, s) })
	t.Logf("one projection of the YAML bombs allocated %d bytes", heap)
	if heap > yamlBombBudget {
		t.Errorf("one projection allocated %d bytes, more than the %d-byte budget", heap, yamlBombBudget)
	}
	got := candOutcomes(p)
	for name, f := range files {
		o := got[adrPath(name)]
		if o.record || !slices.Equal(o.rules, []string{f.rule}) {
			t.Errorf("%s: record %v, findings %v; want only a %s finding", name, o.record, o.rules, f.rule)
			continue
		}
		if msg := hostileFinding(t, p, f.rule, adrPath(name)).Message; !strings.Contains(msg, f.message) {
			t.Errorf("%s: message %q does not mention %q", name, msg, f.message)
		}
	}
	if o := got[adrPath("0100-fine.md")]; !o.record || len(o.rules) > 0 {
		t.Errorf("the good record next to the bombs: %+v", o)
	}
	if p.RecordCount != 1 || p.ExcludedCount != len(files) {
		t.Errorf("counts %d/%d, want 1/%d", p.RecordCount, p.ExcludedCount, len(files))
	}
	// Every tool still answers over this corpus.
	if o := answerOutcome(hostileCall(t, s, app.ToolSearchDecisions, `{"query":"lol"}`)); o != "results" {
		t.Errorf("search over the bombs: %q", o)
	}
}

func TestHostileSizeCap(t *testing.T) {
	r := newHostileRepo(t)
	// One byte over the cap, and a sparse file of 1 GiB: both refused
	// from their size alone, never opened.
	r.write(t, "0001-over.md", append(hostileRecord("0001", "Over", ""), bytes.Repeat([]byte("x"), corpus.MaxRecordBytes)...)[:corpus.MaxRecordBytes+1])
	huge, err := os.Create(r.path("0002-sparse-gigabyte.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := huge.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	_ = huge.Close()
	// Exactly at the cap: read and parsed.
	exact := hostileRecord("0003", "Exact", "")
	exact = append(exact, bytes.Repeat([]byte("y"), corpus.MaxRecordBytes-len(exact)-1)...)
	exact = append(exact, '\n')
	r.write(t, "0003-exact.md", exact)

	untouched := []func() bool{noOpens(t, r.path("0001-over.md")), noOpens(t, r.path("0002-sparse-gigabyte.md"))}
	s := r.service()
	var p *corpus.Projection
	heap := heapAllocated(func() { p = hostileProject(t, s) })
	got := candOutcomes(p)
	for _, name := range []string{"0001-over.md", "0002-sparse-gigabyte.md"} {
		if o := got[adrPath(name)]; o.record || !slices.Equal(o.rules, []string{"record-too-large"}) {
			t.Errorf("%s: %+v, want record-too-large", name, o)
		}
	}
	for i, ok := range untouched {
		if !ok() {
			t.Errorf("oversized file %d was opened or read", i+1)
		}
	}
	if o := got[adrPath("0003-exact.md")]; !o.record {
		t.Errorf("a record of exactly %d bytes: %+v, want a record", corpus.MaxRecordBytes, o)
	}
	// Nothing of the gigabyte is held: the projection allocates about
	// what the one 64 KiB record costs.
	if heap > 16<<20 {
		t.Errorf("projecting allocated %d bytes", heap)
	}
}

func TestHostileEncodings(t *testing.T) {
	r := newHostileRepo(t)
	const rs = "\uFFFD"
	tests := []struct {
		name    string
		content []byte
		// title and body of the record, or the rule of the finding when
		// the file is no record.
		title, body, rule string
	}{
		// C0 and AF are one replacement each; E2 82 and F0 9F, truncated
		// sequences, one each (maximal subparts).
		{name: "0001-invalid-utf8-body.md", content: []byte("---\nid: \"0001\"\ntitle: Body\nstatus: proposed\ndate: 2026-01-01\n---\n\xc0\xafb\xe2\x82\xf0\x9f\n"),
			title: "Body", body: rs + rs + "b" + rs + rs + "\n"},
		{name: "0002-wtf8-surrogate-bytes.md", content: []byte("---\nid: \"0002\"\ntitle: \"x\xed\xa0\x80y\xff\"\nstatus: proposed\ndate: 2026-01-01\n---\nz\n"),
			title: "x" + rs + rs + rs + "y" + rs, body: "z\n"},
		{name: "0003-nul-in-body.md", content: []byte("---\nid: \"0003\"\ntitle: Nul\nstatus: proposed\ndate: 2026-01-01\n---\n\x00\x00\n"),
			title: "Nul", body: "\x00\x00\n"},
		{name: "0004-nul-in-title.md", content: []byte("---\nid: \"0004\"\ntitle: a\x00b\nstatus: proposed\ndate: 2026-01-01\n---\n"),
			title: "a\x00b", body: ""},
		{name: "0005-all-garbage.md", content: []byte("\xff\xfe\x00\x01\x80\xc0\xaf---\n"), rule: "frontmatter-fence"},
		{name: "0006-bom.md", content: append([]byte("\xef\xbb\xbf"), hostileRecord("0006", "Bom", "")...), rule: "frontmatter-fence"},
		{name: "0007-nul-in-fence.md", content: []byte("---\x00\nid: \"0007\"\n---\n"), rule: "frontmatter-fence"},
		{name: "0008-invalid-utf8-key.md", content: []byte("---\nid: \"0008\"\ntitle: K\nstatus: proposed\ndate: 2026-01-01\n\xff: 1\n---\n"),
			rule: "strict-unknown-key"},
		{name: "0009-empty.md", content: nil, rule: "frontmatter-fence"},
	}
	for _, tc := range tests {
		r.write(t, tc.name, tc.content)
	}
	// A file name that is not UTF-8 is still a candidate; its display
	// path shows replacement characters on the wire.
	r.write(t, "0010-\xff\xfe.md", hostileRecord("0010", "Odd name", ""))

	s := r.service()
	p := hostileProject(t, s)
	byPath := map[string]int{}
	for i, rec := range p.Records {
		byPath[rec.SourcePath] = i
	}
	got := candOutcomes(p)
	for _, tc := range tests {
		o := got[adrPath(tc.name)]
		if tc.rule != "" {
			if o.record || !slices.Contains(o.rules, tc.rule) {
				t.Errorf("%s: %+v, want a %s finding", tc.name, o, tc.rule)
			}
			continue
		}
		i, ok := byPath[adrPath(tc.name)]
		if !ok {
			t.Errorf("%s: %+v, want a record", tc.name, o)
			continue
		}
		rec := p.Records[i]
		if rec.Frontmatter.Title != tc.title || rec.Body != tc.body {
			t.Errorf("%s: title %q body %q, want %q and %q", tc.name, rec.Frontmatter.Title, rec.Body, tc.title, tc.body)
		}
	}
	oddName := "0010-\xff\xfe.md"
	if runtime.GOOS == "windows" {
		// Windows names are UTF-16: each byte that is not UTF-8 was
		// stored as a replacement character.
		oddName = "0010-\ufffd\ufffd.md"
	}
	if _, ok := byPath[adrPath(oddName)]; !ok {
		t.Errorf("the record with a non-UTF-8 name is missing: %+v", got)
	}
	// The answers are JSON, with replacement characters where the bytes
	// were not UTF-8.
	found := hostileCall(t, s, app.ToolGetDecision, `{"ref":"0001"}`)
	decision := found["result"].(map[string]any)["decision"].(map[string]any)
	if decision["body"] != tests[0].body {
		t.Errorf("get_decision body = %q", decision["body"])
	}
	search := hostileCall(t, s, app.ToolSearchDecisions, `{"query":"odd name"}`)
	items := search["result"].(map[string]any)["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["sourcePath"] != "docs/adr/0010-"+rs+rs+".md" {
		t.Errorf("search for the odd name = %v", items)
	}
}

// TestHostileRaces changes the tree between the steps of one projection:
// after listing and before a record is read, and after everything was
// read and before the corpus is verified (the call then reads it again,
// up to its bound on attempts).
func TestHostileRaces(t *testing.T) {
	const b = "0002-b.md"
	type expect struct {
		// reason, when set, is the corpus-unavailable answer of the call.
		reason corpus.UnavailableReason
		// b is what becomes of 0002-b.md otherwise.
		b candOutcome
		// title is 0002's title when it is a record.
		title string
		// candidates is the number of candidates projected (0: three).
		candidates int
	}
	tests := []struct {
		name string
		// needs skips the case, in the test's goroutine, where the system
		// cannot make what the hooks make: they run inside the reader,
		// where a skip would not end the test.
		needs     func(t testing.TB)
		beforeRd  func(t *testing.T, r hostileRepo)
		beforeVfy func(t *testing.T, r hostileRepo)
		// everyVfy runs beforeVfy before every verification, not once.
		everyVfy bool
		want     expect
		// then is what the next call (no hooks) answers for 0002-b.md.
		then candOutcome
	}{
		{name: "vanishes after listing", beforeRd: func(t *testing.T, r hostileRepo) { hostileRemove(t, r.path(b)) },
			want: expect{b: candOutcome{rules: []string{"record-stat-error"}}}, then: candOutcome{}},
		{name: "grows past the cap after listing", beforeRd: func(t *testing.T, r hostileRepo) {
			hostileAppend(t, r.path(b), bytes.Repeat([]byte("z"), corpus.MaxRecordBytes))
		}, want: expect{b: candOutcome{rules: []string{"record-too-large"}}}, then: candOutcome{rules: []string{"record-too-large"}}},
		{name: "rewritten after listing: the new bytes are read", beforeRd: func(t *testing.T, r hostileRepo) {
			r.write(t, b, hostileRecord("0002", "Rewritten while listed", "tags: [x]\n"))
		}, want: expect{b: candOutcome{record: true}, title: "Rewritten while listed"}, then: candOutcome{record: true}},
		{name: "replaced by a FIFO after listing", needs: fifotest.Require, beforeRd: func(t *testing.T, r hostileRepo) {
			hostileRemove(t, r.path(b))
			fifotest.Make(t, r.path(b))
		}, want: expect{b: candOutcome{rules: []string{"record-stat-error"}}}, then: candOutcome{}},
		{name: "replaced by a symlink after listing", needs: linktest.Require, beforeRd: func(t *testing.T, r hostileRepo) {
			hostileRemove(t, r.path(b))
			linktest.Make(t, "0001-a.md", r.path(b))
		}, want: expect{b: candOutcome{rules: []string{"record-stat-error"}}}, then: candOutcome{}},
		{name: "replaced by a directory after listing", beforeRd: func(t *testing.T, r hostileRepo) {
			hostileRemove(t, r.path(b))
			if err := os.Mkdir(r.path(b), 0o755); err != nil {
				t.Fatal(err)
			}
		}, want: expect{b: candOutcome{rules: []string{"record-stat-error"}}}, then: candOutcome{}},
		{name: "grows after it was read: read again", beforeVfy: func(t *testing.T, r hostileRepo) {
			hostileAppend(t, r.path(b), []byte("more\n"))
		}, want: expect{b: candOutcome{record: true}, title: "Bravo"}, then: candOutcome{record: true}},
		{name: "grows after every read: changed during load", everyVfy: true, beforeVfy: func(t *testing.T, r hostileRepo) {
			hostileAppend(t, r.path(b), []byte("more\n"))
		}, want: expect{reason: corpus.CorpusChangedDuringLoad}, then: candOutcome{record: true}},
		{name: "vanishes after it was read: read again without it", beforeVfy: func(t *testing.T, r hostileRepo) { hostileRemove(t, r.path(b)) },
			want: expect{b: candOutcome{}, candidates: 2}, then: candOutcome{}},
		{name: "directory removed after everything was read", beforeVfy: func(t *testing.T, r hostileRepo) { hostileRemove(t, r.adr) },
			want: expect{reason: corpus.DirNotFound}, then: candOutcome{}},
		{name: "a record added after listing is no change", beforeVfy: func(t *testing.T, r hostileRepo) {
			r.write(t, "0004-late.md", hostileRecord("0004", "Late", ""))
		}, want: expect{b: candOutcome{record: true}, title: "Bravo"}, then: candOutcome{record: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.needs != nil {
				tc.needs(t)
			}
			r := newHostileRepo(t)
			r.write(t, "0001-a.md", hostileRecord("0001", "Alpha", ""))
			r.write(t, b, hostileRecord("0002", "Bravo", ""))
			r.write(t, "0003-c.md", hostileRecord("0003", "Charlie", ""))
			h := &hookedReader{inner: filesystem.New(r.root, "docs/adr")}
			if tc.beforeRd != nil {
				h.onRead(b, func() { tc.beforeRd(t, r) })
			}
			if tc.beforeVfy != nil {
				h.onVerify(func() { tc.beforeVfy(t, r) }, tc.everyVfy)
			}
			s := app.New(h, app.Options{})
			if tc.want.reason != "" {
				if got := hostileUnavailable(t, s); got != tc.want.reason {
					t.Fatalf("reason %q, want %q", got, tc.want.reason)
				}
			} else {
				p := hostileProject(t, s)
				o := candOutcomes(p)[adrPath(b)]
				if o.record != tc.want.b.record || !slices.Equal(o.rules, tc.want.b.rules) {
					t.Fatalf("0002-b.md: %+v, want %+v", o, tc.want.b)
				}
				if o.record {
					if i := slices.IndexFunc(p.Records, func(rec *adr.Record) bool { return rec.SourcePath == adrPath(b) }); p.Records[i].Frontmatter.Title != tc.want.title {
						t.Errorf("title %q, want %q", p.Records[i].Frontmatter.Title, tc.want.title)
					}
				}
				// The listed candidates are each a record or excluded.
				want := cmp.Or(tc.want.candidates, 3)
				if p.RecordCount+p.ExcludedCount != want {
					t.Errorf("counts %d+%d, want %d candidates", p.RecordCount, p.ExcludedCount, want)
				}
			}
			// The next call sees the tree as it now is.
			h.onVerify(nil, false)
			if tc.name == "directory removed after everything was read" {
				if got := hostileUnavailable(t, s); got != corpus.DirNotFound {
					t.Fatalf("next call: %q", got)
				}
				return
			}
			if o := candOutcomes(hostileProject(t, s))[adrPath(b)]; o.record != tc.then.record || !slices.Equal(o.rules, tc.then.rules) {
				t.Errorf("next call, 0002-b.md: %+v, want %+v", o, tc.then)
			}
		})
	}
}

func hostileRemove(t *testing.T, p string) {
	t.Helper()
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
}

func hostileAppend(t *testing.T, p string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestHostileSpecialFiles puts a FIFO, a Unix socket and a character
// device into the ADR directory, named like records: none may block a
// call, and none is a candidate (not counted, no finding), as the
// contract ignores every entry that is not a regular file.
func TestHostileSpecialFiles(t *testing.T) {
	r := newHostileRepo(t)
	r.write(t, "0001-real.md", hostileRecord("0001", "Real", ""))
	special := []string{"0002-fifo.md", "0003-socket.md", "0004-device.md", "0005-nested-fifo.md"}
	fifotest.Make(t, r.path(special[0]))
	if err := hostileMksock(r.path(special[1])); err != nil {
		t.Fatalf("making a socket entry: %v", err)
	}
	if err := hostileMknull(r.path(special[2])); err != nil {
		// Creating a device needs CAP_MKNOD; the FIFO and socket above
		// cover the same code path (an entry that is neither a file, a
		// directory nor a symlink).
		t.Logf("no character device (%v): checking the FIFO and socket only", err)
		special = slices.Delete(special, 2, 3)
	}
	if err := os.Mkdir(r.path("sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	fifotest.Make(t, filepath.Join(r.adr, "sub", "0005-nested-fifo.md"))
	// .git may be a FIFO too: stat only, never opened (ADR 0004).
	hostileRemove(t, filepath.Join(r.root, ".git"))
	fifotest.Make(t, filepath.Join(r.root, ".git"))

	s := r.service()
	p := hostileProject(t, s)
	if p.RecordCount != 1 || p.ExcludedCount != 0 || len(p.Findings) != 0 {
		t.Errorf("records %d, excluded %d, findings %+v; want the one record and nothing else", p.RecordCount, p.ExcludedCount, p.Findings)
	}
	for _, tool := range []struct{ name, args string }{
		{app.ToolSearchDecisions, `{"query":"real"}`}, {app.ToolGetDecision, `{"ref":"0002"}`},
		{app.ToolGetDecisionContext, `{"files":["docs/adr/0002-fifo.md"]}`}, {app.ToolListSuperseded, `{}`},
	} {
		if o := answerOutcome(hostileCall(t, s, tool.name, tool.args)); o == "" || o == "corpus-unavailable" {
			t.Errorf("%s: outcome %q", tool.name, o)
		}
	}
	// The recursive listing (what lint walks) lists them without opening
	// them.
	c, err := filesystem.New(r.root, "docs/adr").Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	notHung(t, "recursive List", func() {
		entries, err := c.List(context.Background(), true)
		if err != nil {
			t.Errorf("List: %v", err)
		}
		for _, e := range entries {
			names = append(names, e.Name)
		}
	})
	for _, want := range []string{"0002-fifo.md", "0003-socket.md", "sub/0005-nested-fifo.md"} {
		if !slices.Contains(names, want) {
			t.Errorf("recursive listing %q lacks %q", names, want)
		}
	}
	// Read refuses them by their type, without blocking.
	for _, name := range special[:len(special)-1] {
		notHung(t, "Read "+name, func() {
			if _, err := c.Read(context.Background(), name, corpus.MaxRecordBytes, nil); err == nil {
				t.Errorf("Read(%s) succeeded", name)
			}
		})
	}
}

// TestHostileSymlinkLoops: looping record symlinks are ignored (a symlink
// is never a candidate), looping directory symlinks do not make the
// recursive listing loop, and an ADR directory that is a symlink loop is
// dir-not-readable.
func TestHostileSymlinkLoops(t *testing.T) {
	r := newHostileRepo(t)
	r.write(t, "0001-real.md", hostileRecord("0001", "Real", ""))
	for link, target := range map[string]string{
		"0002-self.md":   "0002-self.md",
		"0003-ping.md":   "0004-pong.md",
		"0004-pong.md":   "0003-ping.md",
		"0005-to-dot.md": ".",
		"here":           ".",
		"up":             "..",
		"loop":           "loop",
	} {
		linktest.Make(t, target, r.path(link))
	}
	linktest.Make(t, "loop-b", filepath.Join(r.root, "docs", "loop-a"))
	linktest.Make(t, "loop-a", filepath.Join(r.root, "docs", "loop-b"))

	p := hostileProject(t, r.service())
	if p.RecordCount != 1 || p.ExcludedCount != 0 || len(p.Findings) != 0 {
		t.Errorf("records %d, excluded %d, findings %+v; want the one record", p.RecordCount, p.ExcludedCount, p.Findings)
	}
	c, err := filesystem.New(r.root, "docs/adr").Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	notHung(t, "recursive List over symlink loops", func() {
		entries, err := c.List(context.Background(), true)
		if err != nil || len(entries) != 8 {
			t.Errorf("List: %d entries (%v), want the 8 top-level entries", len(entries), err)
		}
	})
	for _, dir := range []string{"docs/loop-a", "docs/adr/loop", "docs/adr/0002-self.md"} {
		s := app.New(filesystem.New(r.root, dir), app.Options{})
		if got := hostileUnavailable(t, s); got != corpus.DirNotReadable {
			t.Errorf("ADR directory %s: %q, want %q", dir, got, corpus.DirNotReadable)
		}
	}
}

// TestHostileDirectoryComesAndGoes replaces the ADR directory (and the
// .git entry) between calls of one Service: each call answers
// corpus-unavailable with the reason of the moment, without
// corpusHealth, and the first call after the tree is restored answers
// from it again, with the fingerprint of the start.
func TestHostileDirectoryComesAndGoes(t *testing.T) {
	r := newHostileRepo(t)
	r.write(t, "0001-a.md", hostileRecord("0001", "Alpha", ""))
	r.write(t, "0002-b.md", hostileRecord("0002", "Bravo", ""))
	s := r.service()
	start := hostileProject(t, s).Fingerprint
	aside := filepath.Join(r.root, "docs", "aside")
	steps := []struct {
		name   string
		change func(t *testing.T)
		want   corpus.UnavailableReason // "" answers from the corpus
	}{
		{"removed", func(t *testing.T) { hostileRename(t, r.adr, aside) }, corpus.DirNotFound},
		{"replaced by a file", func(t *testing.T) { hostileWrite(t, r.adr, "not a directory\n") }, corpus.DirNotDirectory},
		{"replaced by a symlink loop", func(t *testing.T) { hostileRemove(t, r.adr); hostileSymlink(t, "adr", r.adr) }, corpus.DirNotReadable},
		{"replaced by a symlink out of the root", func(t *testing.T) {
			hostileRemove(t, r.adr)
			outside := filepath.Join(filepath.Dir(r.root), "outside")
			if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			hostileSymlink(t, outside, r.adr)
		}, corpus.DirOutsideRoot},
		{"restored", func(t *testing.T) { hostileRemove(t, r.adr); hostileRename(t, aside, r.adr) }, ""},
		{".git removed", func(t *testing.T) {
			hostileRename(t, filepath.Join(r.root, ".git"), filepath.Join(r.root, "git-aside"))
		}, corpus.RootNotGit},
		{".git restored", func(t *testing.T) {
			hostileRename(t, filepath.Join(r.root, "git-aside"), filepath.Join(r.root, ".git"))
		}, ""},
		{"emptied", func(t *testing.T) { hostileRename(t, r.adr, aside); hostileMkdir(t, r.adr) }, ""},
		{"refilled", func(t *testing.T) { hostileRemove(t, r.adr); hostileRename(t, aside, r.adr) }, ""},
	}
	if !linktest.Supported() {
		// The other steps still run where no link can be made.
		steps = slices.DeleteFunc(steps, func(s struct {
			name   string
			change func(t *testing.T)
			want   corpus.UnavailableReason
		}) bool {
			return strings.Contains(s.name, "symlink")
		})
	}
	for _, step := range steps {
		step.change(t)
		for _, tool := range []struct{ name, args string }{
			{app.ToolSearchDecisions, `{"query":"a"}`}, {app.ToolGetDecision, `{"ref":"0001"}`},
			{app.ToolGetDecisionContext, `{"files":["a"]}`}, {app.ToolListSuperseded, `{}`},
		} {
			answer := hostileCall(t, s, tool.name, tool.args)
			result := answer["result"].(map[string]any)
			_, health := answer["corpusHealth"]
			switch {
			case step.want != "":
				if result["outcome"] != "corpus-unavailable" || result["reason"] != string(step.want) || health {
					t.Errorf("%s, %s: %v (health %v), want corpus-unavailable %s", step.name, tool.name, result, health, step.want)
				}
			case result["outcome"] == "corpus-unavailable" || !health:
				t.Errorf("%s, %s: %v, want an answer from the corpus", step.name, tool.name, result)
			}
		}
	}
	if got := hostileProject(t, s).Fingerprint; got != start {
		t.Errorf("fingerprint after restoring %s, at the start %s", got, start)
	}
}

func hostileRename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

func hostileWrite(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func hostileSymlink(t *testing.T, target, link string) {
	t.Helper()
	linktest.Make(t, target, link)
}

func hostileMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

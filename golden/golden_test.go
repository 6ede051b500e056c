// Package golden pins the wire output of adrkit-mcp: every tool's summary
// line (content[0].text) and structured answer, byte for byte, for every
// outcome branch, in both protocol eras, on stdio and (the same bytes,
// http_test.go) over streamable HTTP.
//
// # The scenario files
//
// Every testdata/*.txtar file is one scenario, in the style of the go-sdk
// conformance transcripts and the gopls marker tests: the corpus, the
// requests and the expected answers in one file. The txtar format is
//
//	comment (free text up to the first section: say what the file pins)
//	-- name --
//	content of the section, up to the next "-- name --" line
//
// Sections:
//
//	-- flags --           optional, one line of flags for the scenario:
//	                      -eras=2025,2026  the eras to run (default both)
//	                      -raw             send the requests verbatim: no
//	                                       opening exchange, no envelope
//	                      -dir=PATH        Options.Dir (default: empty, the
//	                                       server's docs/adr)
//	                      -tools=extended  serve the extended tools too
//	                      -git             make the root a real repository
//	                                       (internal/gittest), for
//	                                       "#step commit"; no .git section
//	-- .git --            the repository marker: an empty section makes a
//	                      .git directory, a non-empty one a .git file with
//	                      that content (a linked worktree). Without it (or
//	                      -git) the root is not a Git worktree: Serve
//	                      refuses to start and the scenario fails.
//	-- requests --        one JSON-RPC message per line, sent in order; see
//	                      below.
//	-- golden-2025 --     the exact stdout of the 2025 run, one frame per
//	-- golden-2026 --     line (written by -update).
//	-- http --            optional: the requests whose HTTP answer is by
//	                      nature not stdio's, "ID: reason" per line (see
//	                      http_test.go, the HTTP leg of every scenario).
//	-- golden-2025-http --
//	-- golden-2026-http --  the HTTP leg's exchange, one line per message
//	                      (written by -update).
//	-- steps/NAME --      content for "#step write"; never materialised.
//	-- any/other/path --  a fixture file, written under the repository root
//	                      before the server starts (docs/adr/0001-x.md, …).
//
// Each scenario runs once per era, each time in a fresh t.TempDir() whose
// "repo" subdirectory is the repository root, against a server built with
// mcp.New and served in-process over io.Pipe. The 2025 run opens with
// initialize (2025-06-18, id 0) and notifications/initialized; the 2026 run
// opens with server/discover (id 0) and adds the 2026-07-28 _meta envelope
// to the params of every request line (as their last member); -raw turns
// both off. Requests are written one at a time and each answer (matched
// by id) is awaited before the next line is sent; notifications are not
// awaited. The golden section is the whole stdout, opening answers
// included; the server's version string is replaced by $VERSION so that
// the goldens do not depend on how the test binary was built. A
// diagnostic reported through Options.OnError fails the scenario: these
// are well-formed conversations.
//
// Request lines: blank lines and lines starting with "#" are comments,
// except "#step VERB ARGS", which changes the repository before the next
// request (paths are relative to the repository root and may leave it
// with ".."):
//
//	#step rm PATH              remove PATH recursively ("." is the root)
//	#step mkdir PATH           create directory PATH (and its parents)
//	#step write PATH SECTION   write the content of section steps/SECTION
//	                           to PATH (replacing whatever is there)
//	#step symlink TARGET PATH  make PATH a symlink to TARGET
//	#step pad PATH SIZE        append newlines to PATH until it has SIZE bytes
//	#step crlf PATH            turn every LF of PATH into CRLF
//	#step bom PATH             put a UTF-8 byte-order mark in front of PATH
//	#step commit MESSAGE       (-git) commit every file under the root as
//	                           the whole tree of a new commit on main, on
//	                           top of the last commit made (or the one
//	                           reset chose), dated a minute after it
//	#step reset N              (-git) make the N-th commit of the scenario
//	                           (from 1) the parent of the next one: a
//	                           rewritten history
//
// (crlf and bom keep such bytes out of the scenario files, where an editor
// could drop them without anyone noticing.)
//
// Placeholders, replaced in a request line before it is sent. They are
// textual and expanded before the line is parsed, so they usually sit
// inside a JSON string and their arguments are written raw (SHAPE is
// plain JSON, quotes and all; no argument may contain ")"):
//
//	$cursor(N)                 result.structuredContent.result.cursor of the
//	                           answer to request id N (must be a string)
//	$findingsCursor(N)         …result.findings.cursor of that answer
//	$cursorAt(N,OFF)           $cursor(N) re-encoded with offset OFF
//	$findingsCursorAt(N,OFF)   $findingsCursor(N) re-encoded with offset OFF
//	$result(N,KEY)             result.structuredContent.result.KEY of the
//	                           answer to N (must be a string)
//	$mint(SCOPE,N,OFF,SHAPE)   cursor.Mint for channel SCOPE, the fingerprint
//	                           of the answer to N, offset OFF and the query
//	                           hash of the JSON array SHAPE
//	$repeat(TEXT,N)            TEXT repeated N times
//	$list(TEXT,N)              TEXT repeated N times, joined with ","
//
// # Adding a scenario
//
// Write testdata/NAME.txtar with a comment, the fixture files, a .git
// section and the requests (ids from 1; 0 is the opening), then run
//
//	go test ./golden -update
//
// which runs the scenario and writes (or rewrites) its golden sections in
// place, leaving every other byte of the file untouched. Review every
// golden diff like code: the goldens are the contract's examples, and a
// wrong answer pinned here stays wrong. Without -update the test fails on
// the first frame that differs and shows where.
//
// # The answers of app
//
// testdata/answers holds the goldens of package app's own tests: whole
// answers over a hand-built projection (federated refs, ambiguous ids and
// other shapes a corpus on disk cannot hold), written by goldie from app
// (go test ./app -update). They live here so that the module has one
// golden home; this package does not read them.
package golden

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/adapters/clock"
	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/adapters/gitrev"
	"github.com/adrkit/adrkit-go/adapters/mcp"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/internal/version"
)

// Eras a scenario can run in; each has its own golden section.
const (
	era2025 = "2025"
	era2026 = "2026"
)

// Opening exchanges and the envelope of the 2026 era.
const (
	envelope        = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"golden","version":"0"}}`
	openInitialize  = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"golden","version":"0"}}}`
	openInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	openDiscover    = `{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{` + envelope + `}}`
)

// Section names with a meaning of their own.
const (
	sectionFlags    = "flags"
	sectionGit      = ".git"
	sectionRequests = "requests"
	sectionHTTP     = "http"
	goldenPrefix    = "golden-"
	httpSuffix      = "-http"
	stepsPrefix     = "steps/"
)

// updating reports whether goldie's -update flag (or GOLDIE_UPDATE) is set.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scenarios in testdata")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runScenario(t, file)
		})
	}
}

// runScenario runs one file in each of its eras and compares (or, with
// -update, rewrites) its golden sections.
func runScenario(t *testing.T, file string) {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ar := parseTxtar(raw)
	sc, err := newScenario(ar)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	got := map[string]string{}
	for _, era := range sc.eras {
		t.Run(era, func(t *testing.T) {
			stdout, answers := sc.run(t, era)
			got[era] = stdout
			if t.Failed() {
				return
			}
			t.Run("http", func(t *testing.T) {
				got[era+httpSuffix] = sc.runHTTP(t, era, answers)
			})
		})
	}
	if t.Failed() {
		return
	}
	if updating() {
		changed := false
		for _, era := range sc.eras {
			changed = ar.set(goldenPrefix+era, got[era]) || changed
			changed = ar.set(goldenPrefix+era+httpSuffix, got[era+httpSuffix]) || changed
		}
		if changed {
			if err := os.WriteFile(file, ar.format(), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("updated %s", file)
		}
		return
	}
	for _, era := range sc.eras {
		for _, section := range []string{era, era + httpSuffix} {
			want, ok := ar.get(goldenPrefix + section)
			if !ok {
				t.Errorf("%s has no %s%s section; run go test ./golden -update and review it", file, goldenPrefix, section)
				continue
			}
			if got[section] != want {
				t.Errorf("%s, %s: the answers differ from the golden%s\n%s", file, section,
					firstDifference(want, got[section]), goldie.Diff(goldie.ClassicDiff, got[section], want))
			}
		}
	}
}

// firstDifference locates the first differing frame and byte, with some
// context, since frames are long single lines.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a == b {
			continue
		}
		at := 0
		for at < len(a) && at < len(b) && a[at] == b[at] {
			at++
		}
		lo := max(0, at-120)
		return fmt.Sprintf(" at frame %d, byte %d:\n  want …%s\n  got  …%s",
			i+1, at, clip(a, lo, at+120), clip(b, lo, at+120))
	}
	return ""
}

func clip(s string, lo, hi int) string {
	lo, hi = min(lo, len(s)), min(hi, len(s))
	return s[lo:hi]
}

// ---------------------------------------------------------------------
// Scenarios

// scenario is a parsed scenario file.
type scenario struct {
	ar       *archive
	eras     []string
	raw      bool
	dir      string
	extended bool
	git      bool
	requests []string
	// stdioOnly holds, by the JSON text of their ids, the requests whose
	// HTTP answer differs from the stdio one by nature, with the reason
	// (the http section).
	stdioOnly map[string]string
}

func newScenario(ar *archive) (*scenario, error) {
	sc := &scenario{ar: ar}
	fs := flag.NewFlagSet("scenario", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	eras := fs.String("eras", era2025+","+era2026, "eras to run")
	fs.BoolVar(&sc.raw, "raw", false, "send requests verbatim")
	fs.StringVar(&sc.dir, "dir", "", "Options.Dir")
	tools := fs.String("tools", "default", "tool surface")
	fs.BoolVar(&sc.git, "git", false, "a real repository")
	if text, ok := ar.get(sectionFlags); ok {
		if err := fs.Parse(strings.Fields(text)); err != nil {
			return nil, fmt.Errorf("flags: %w", err)
		}
	}
	switch *tools {
	case "default":
	case "extended":
		sc.extended = true
	default:
		return nil, fmt.Errorf("flags: unknown tools %q", *tools)
	}
	if _, hasGit := ar.get(sectionGit); hasGit && sc.git {
		return nil, errors.New("-git makes the repository: no .git section")
	}
	for _, e := range strings.Split(*eras, ",") {
		if e != era2025 && e != era2026 {
			return nil, fmt.Errorf("flags: unknown era %q", e)
		}
		sc.eras = append(sc.eras, e)
	}
	reqs, ok := ar.get(sectionRequests)
	if !ok {
		return nil, errors.New("no requests section")
	}
	for _, line := range strings.Split(reqs, "\n") {
		if strings.TrimSpace(line) == "" || (strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "#step ")) {
			continue
		}
		sc.requests = append(sc.requests, line)
	}
	for _, f := range ar.files {
		era := strings.TrimSuffix(strings.TrimPrefix(f.name, goldenPrefix), httpSuffix)
		if strings.HasPrefix(f.name, goldenPrefix) && !slices.Contains(sc.eras, era) {
			return nil, fmt.Errorf("section %q is for an era the scenario does not run", f.name)
		}
	}
	sc.stdioOnly = map[string]string{}
	if text, ok := ar.get(sectionHTTP); ok {
		for _, line := range strings.Split(text, "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			id, reason, found := strings.Cut(line, ":")
			if !found || strings.TrimSpace(reason) == "" || !json.Valid([]byte(id)) {
				return nil, fmt.Errorf("http: want lines \"ID: why its answer is stdio's alone\", got %q", line)
			}
			sc.stdioOnly[strings.TrimSpace(id)] = strings.TrimSpace(reason)
		}
	}
	return sc, nil
}

// isFixture reports whether a section is a file to write into the root.
func isFixture(name string) bool {
	return name != sectionFlags && name != sectionGit && name != sectionRequests && name != sectionHTTP &&
		!strings.HasPrefix(name, goldenPrefix) && !strings.HasPrefix(name, stepsPrefix)
}

// history is the repository of a -git scenario and the commits it made.
type history struct {
	repo    *gittest.Repo
	commits []plumbing.Hash
	parent  plumbing.Hash
}

// materialise writes the fixture into a new repository root.
func (sc *scenario) materialise(t *testing.T) (string, *history) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	var h *history
	if sc.git {
		h = &history{repo: gittest.Init(t, root)}
	}
	for _, f := range sc.ar.files {
		switch {
		case f.name == sectionGit:
			var err error
			if strings.TrimSpace(f.data) == "" {
				err = os.Mkdir(filepath.Join(root, ".git"), 0o755)
			} else {
				err = os.WriteFile(filepath.Join(root, ".git"), []byte(f.data), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		case isFixture(f.name):
			writeFile(t, root, f.name, f.data)
		}
	}
	return root, h
}

// commit commits every file under root but .git, dated a minute after the
// scenario's previous commit.
func (h *history) commit(t *testing.T, root, msg string) {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			files[filepath.ToSlash(rel)] = string(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC).Add(time.Duration(len(h.commits)+1) * time.Minute)
	h.parent = h.repo.Commit(h.parent, msg, when, files)
	h.commits = append(h.commits, h.parent)
}

func writeFile(t *testing.T, root, name, data string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run serves one connection in era and returns its stdout with the
// version replaced, and each answer line (version replaced, no newline)
// by the JSON text of its id.
func (sc *scenario) run(t *testing.T, era string) (string, map[string]string) {
	root, hist := sc.materialise(t)
	c := connect(t, root, sc.dir, sc.extended)
	sc.converse(t, era, root, hist, c)
	out := c.finish(t)
	lines := map[string]string{}
	for id, line := range c.raw {
		lines[id] = withoutVersion(strings.TrimSuffix(line, "\n"))
	}
	return withoutVersion(out), lines
}

// withoutVersion replaces the server's version with $VERSION, so that the
// goldens do not depend on how the test binary was built.
func withoutVersion(s string) string {
	return strings.ReplaceAll(s, `"version":`+strconv.Quote(version.String()), `"version":"$VERSION"`)
}

// client is one side of a scenario run: stdio (conn) or HTTP (httpConn).
type client interface {
	// send sends one message and, for a request, takes its answer.
	send(t *testing.T, msg string)
	// expand replaces the placeholders of a request line.
	expand(t *testing.T, line string) string
}

// converse sends the scenario's messages in era through c: the opening
// exchange (unless -raw), then each request line, expanded and (in the
// 2026 era, unless -raw) given the envelope, with the steps applied in
// between.
func (sc *scenario) converse(t *testing.T, era, root string, hist *history, c client) {
	t.Helper()
	if !sc.raw {
		if era == era2025 {
			c.send(t, openInitialize)
			c.send(t, openInitialized)
		} else {
			c.send(t, openDiscover)
		}
	}
	for _, line := range sc.requests {
		if verb, ok := strings.CutPrefix(line, "#step "); ok {
			sc.step(t, root, hist, verb)
			continue
		}
		msg := c.expand(t, line)
		if era == era2026 && !sc.raw {
			msg = withEnvelope(t, msg)
		}
		c.send(t, msg)
	}
}

// step applies one "#step" directive.
func (sc *scenario) step(t *testing.T, root string, hist *history, directive string) {
	t.Helper()
	args := strings.Fields(directive)
	path := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	var err error
	switch {
	case hist != nil && len(args) > 1 && args[0] == "commit":
		hist.commit(t, root, strings.TrimSpace(strings.TrimPrefix(directive, "commit")))
	case hist != nil && len(args) == 2 && args[0] == "reset":
		n, perr := strconv.Atoi(args[1])
		if perr != nil || n < 1 || n > len(hist.commits) {
			t.Fatalf("#step %s: no commit %s", directive, args[1])
		}
		hist.parent = hist.commits[n-1]
	case len(args) == 2 && args[0] == "rm":
		err = os.RemoveAll(path(args[1]))
	case len(args) == 2 && args[0] == "mkdir":
		err = os.MkdirAll(path(args[1]), 0o755)
	case len(args) == 3 && args[0] == "write":
		data, ok := sc.ar.get(stepsPrefix + args[2])
		if !ok {
			t.Fatalf("#step %s: no section %s%s", directive, stepsPrefix, args[2])
		}
		writeFile(t, root, args[1], data)
	case len(args) == 3 && args[0] == "symlink":
		err = os.Symlink(filepath.FromSlash(args[1]), path(args[2]))
	case len(args) == 2 && (args[0] == "crlf" || args[0] == "bom"):
		var data []byte
		if data, err = os.ReadFile(path(args[1])); err == nil {
			if args[0] == "crlf" {
				data = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
			} else {
				data = append([]byte("\ufeff"), data...)
			}
			err = os.WriteFile(path(args[1]), data, 0o644)
		}
	case len(args) == 3 && args[0] == "pad":
		size, perr := strconv.Atoi(args[2])
		if perr != nil {
			t.Fatalf("#step %s: %v", directive, perr)
		}
		var st os.FileInfo
		if st, err = os.Stat(path(args[1])); err == nil && st.Size() < int64(size) {
			var f *os.File
			if f, err = os.OpenFile(path(args[1]), os.O_APPEND|os.O_WRONLY, 0); err == nil {
				_, err = f.Write(bytes.Repeat([]byte("\n"), size-int(st.Size())))
				err = errors.Join(err, f.Close())
			}
		}
	default:
		t.Fatalf("unknown step %q", directive)
	}
	if err != nil {
		t.Fatalf("#step %s: %v", directive, err)
	}
}

// withEnvelope adds the 2026-07-28 envelope to a request's params (as
// their last member), creating params when there are none.
func withEnvelope(t *testing.T, msg string) string {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(msg), &top); err != nil {
		t.Fatalf("request is not a JSON object: %v\n%s", err, msg)
	}
	params, ok := top["params"]
	if !ok {
		end := strings.LastIndex(msg, "}")
		return msg[:end] + `,"params":{` + envelope + `}` + msg[end:]
	}
	old := `"params":` + string(params)
	if !strings.Contains(msg, old) || params[0] != '{' {
		t.Fatalf("cannot place the envelope in %s", msg)
	}
	inner := strings.TrimSpace(string(params[1 : len(params)-1]))
	sep := ","
	if inner == "" {
		sep = ""
	}
	updated := `"params":{` + inner + sep + envelope + `}`
	return strings.Replace(msg, old, updated, 1)
}

// ---------------------------------------------------------------------
// The connection

// conn is one in-process server connection.
type conn struct {
	in     *io.PipeWriter
	lines  chan string
	served chan error

	mu    sync.Mutex
	diags []error

	out strings.Builder
	book
	// raw holds each answer line as read, by the id's JSON text.
	raw map[string]string
}

// book holds the answers of a connection, parsed, by the JSON text of
// their ids, for the placeholders of later requests.
type book struct {
	answers map[string]map[string]any
}

// service is what adrkit-mcp serves for the working tree at root and the
// ADR directory dir ("" for the default), as its composition root
// (cmd/internal/entry, Location.Service) builds it, and the check of its
// reader: with extended, the history of the same repository and the wall
// clock too.
func service(root, dir string, extended bool) (*app.Service, func(context.Context) error) {
	if dir == "" {
		dir = corpus.DefaultDir
	}
	var opts app.Options
	if extended {
		opts = app.Options{Extended: true, History: gitrev.NewHistory(root, dir, ""), Clock: clock.System{}}
	}
	reader := filesystem.New(root, dir)
	return app.New(reader, opts), reader.Check
}

func connect(t *testing.T, root, dir string, extended bool) *conn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &conn{in: inW, lines: make(chan string, 64), served: make(chan error, 1),
		book: book{answers: map[string]map[string]any{}}, raw: map[string]string{}}
	svc, _ := service(root, dir, extended)
	srv := mcp.New(svc, mcp.Options{In: inR, Out: outW, OnError: c.report})
	go func() {
		err := srv.Serve(t.Context())
		_ = outW.CloseWithError(io.EOF)
		_ = inR.Close()
		c.served <- err
	}()
	go func() {
		r := bufio.NewReader(outR)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				c.lines <- line
			}
			if err != nil {
				close(c.lines)
				return
			}
		}
	}()
	t.Cleanup(func() { _ = inW.Close() })
	return c
}

func (c *conn) report(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.diags = append(c.diags, err)
}

// send writes one message and, for a request, waits for its answer.
func (c *conn) send(t *testing.T, msg string) {
	t.Helper()
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal([]byte(msg), &head); err != nil {
		t.Fatalf("request is not JSON: %v\n%s", err, msg)
	}
	if _, err := io.WriteString(c.in, msg+"\n"); err != nil {
		t.Fatalf("writing to the server: %v", err)
	}
	if head.ID == nil {
		return
	}
	line, ok := <-c.lines
	if !ok {
		t.Fatalf("the server's output ended before it answered %s", msg)
	}
	c.out.WriteString(line)
	var frame map[string]any
	var id struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal([]byte(line), &frame); err != nil || json.Unmarshal([]byte(line), &id) != nil {
		t.Fatalf("answer is not a JSON object: %q", line)
	}
	if !bytes.Equal(id.ID, head.ID) {
		t.Fatalf("expected the answer to id %s, got %s", head.ID, line)
	}
	c.answers[string(head.ID)] = frame
	c.raw[string(head.ID)] = line
}

// finish ends the input, waits for Serve and returns all of stdout.
func (c *conn) finish(t *testing.T) string {
	t.Helper()
	_ = c.in.Close()
	for line := range c.lines {
		c.out.WriteString(line)
	}
	if err := <-c.served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range c.diags {
		t.Errorf("unexpected diagnostic: %v", d)
	}
	return c.out.String()
}

var placeholder = regexp.MustCompile(`\$(cursor|findingsCursor|cursorAt|findingsCursorAt|result|mint|repeat|list)\(([^)]*)\)`)

// expand replaces the placeholders of a request line.
func (c *book) expand(t *testing.T, line string) string {
	t.Helper()
	return placeholder.ReplaceAllStringFunc(line, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		name, args := sub[1], sub[2]
		switch name {
		case "cursor", "findingsCursor":
			return c.cursorOf(t, name, args)
		case "cursorAt", "findingsCursorAt":
			id, off := splitLast(t, m, args)
			cur, r := cursor.Decode(c.cursorOf(t, strings.TrimSuffix(name, "At"), id))
			if r != cursor.OK {
				t.Fatalf("%s: the cursor does not decode: %s", m, r)
			}
			cur.Offset = atoi(t, m, off)
			return cur.Encode()
		case "result":
			id, key := splitLast(t, m, args)
			v, ok := dig(c.answer(t, m, id), "result", "structuredContent", "result", key).(string)
			if !ok {
				t.Fatalf("%s: the answer has no string result.%s", m, key)
			}
			return v
		case "mint":
			parts := strings.SplitN(args, ",", 4)
			if len(parts) != 4 {
				t.Fatalf("%s: want $mint(SCOPE,ID,OFFSET,SHAPE)", m)
			}
			var shape []any
			if err := json.Unmarshal([]byte(parts[3]), &shape); err != nil {
				t.Fatalf("%s: shape: %v", m, err)
			}
			fp, _ := dig(c.answer(t, m, parts[1]), "result", "structuredContent", "corpusHealth", "fingerprint").(string)
			if fp == "" {
				t.Fatalf("%s: answer %s has no fingerprint", m, parts[1])
			}
			return cursor.Mint(cursor.Scope(parts[0]), fp, cursor.QueryHash(shape...), atoi(t, m, parts[2]))
		case "repeat", "list":
			text, n := splitLast(t, m, args)
			items := slices.Repeat([]string{text}, atoi(t, m, n))
			if name == "list" {
				return strings.Join(items, ",")
			}
			return strings.Join(items, "")
		}
		panic("unreachable")
	})
}

// cursorOf is the primary (cursor) or findings (findingsCursor) cursor of
// the answer to request id.
func (c *book) cursorOf(t *testing.T, which, id string) string {
	t.Helper()
	path := []string{"result", "structuredContent", "result", "cursor"}
	if which == "findingsCursor" {
		path = []string{"result", "structuredContent", "result", "findings", "cursor"}
	}
	s, ok := dig(c.answer(t, "$"+which, id), path...).(string)
	if !ok {
		t.Fatalf("$%s(%s): the answer has no %s string", which, id, strings.Join(path, "."))
	}
	return s
}

func (c *book) answer(t *testing.T, what, id string) map[string]any {
	t.Helper()
	a, ok := c.answers[strings.TrimSpace(id)]
	if !ok {
		t.Fatalf("%s: no answer to id %s yet", what, id)
	}
	return a
}

func dig(v any, path ...string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func splitLast(t *testing.T, what, args string) (string, string) {
	t.Helper()
	i := strings.LastIndex(args, ",")
	if i < 0 {
		t.Fatalf("%s: want two arguments", what)
	}
	return args[:i], args[i+1:]
}

func atoi(t *testing.T, what, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return n
}

// ---------------------------------------------------------------------
// txtar
//
// golang.org/x/tools/txtar is not a dependency of this module, and the
// format is small: a comment, then files each introduced by a line
// "-- name --". The reader keeps every marker line as written so that
// -update can rewrite some sections and leave every other byte alone.

type archive struct {
	comment string
	files   []archiveFile
}

type archiveFile struct {
	name   string
	marker string // the marker line as written, without its newline
	data   string
}

// markerName returns the name of a marker line, or "" if line is not one.
func markerName(line string) string {
	if !strings.HasPrefix(line, "-- ") || !strings.HasSuffix(line, " --") || len(line) < len("-- x --") {
		return ""
	}
	return strings.TrimSpace(line[3 : len(line)-3])
}

func parseTxtar(data []byte) *archive {
	ar := &archive{}
	text := string(data)
	cur := -1
	var b strings.Builder
	flush := func() {
		if cur < 0 {
			ar.comment = b.String()
		} else {
			ar.files[cur].data = b.String()
		}
		b.Reset()
	}
	for text != "" {
		line, rest, found := strings.Cut(text, "\n")
		if name := markerName(line); name != "" {
			flush()
			ar.files = append(ar.files, archiveFile{name: name, marker: line})
			cur = len(ar.files) - 1
		} else {
			b.WriteString(line)
			if found {
				b.WriteString("\n")
			}
		}
		text = rest
	}
	flush()
	return ar
}

func (ar *archive) format() []byte {
	var b strings.Builder
	b.WriteString(ar.comment)
	for _, f := range ar.files {
		b.WriteString(f.marker + "\n")
		b.WriteString(f.data)
	}
	return []byte(b.String())
}

func (ar *archive) get(name string) (string, bool) {
	for _, f := range ar.files {
		if f.name == name {
			return f.data, true
		}
	}
	return "", false
}

// set replaces (or appends) a section and reports whether anything
// changed.
func (ar *archive) set(name, data string) bool {
	for i, f := range ar.files {
		if f.name == name {
			if f.data == data {
				return false
			}
			ar.files[i].data = data
			return true
		}
	}
	if n := len(ar.files); n > 0 && !strings.HasSuffix(ar.files[n-1].data, "\n") {
		ar.files[n-1].data += "\n"
	}
	ar.files = append(ar.files, archiveFile{name: name, marker: "-- " + name + " --", data: data})
	return true
}

package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/adrkit/adrkit-go/app"
)

// The default surface is exactly the four tools, whatever the server
// serves from; the extended surface adds three, in lexicographic order.
func TestToolListSurfaces(t *testing.T) {
	root := chainRepo(t)
	four := []any{"get_decision", "get_decision_context", "list_superseded", "search_decisions"}
	six := []any{"get_decision", "get_decision_context", "get_supersession_chain", "list_decision_changes",
		"list_review_queue", "list_superseded", "query_decision", "search_decisions"}

	h := startOn(t, root)
	if got := toolNames(h.result(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)); !reflect.DeepEqual(got, four) {
		t.Errorf("default tools/list: %v", got)
	}
	h.finishQuiet()

	s := startExtended(t, root)
	var res struct {
		Result struct {
			Tools []map[string]any `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(s.exchange(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)), &res); err != nil {
		t.Fatal(err)
	}
	var names []any
	for _, tool := range res.Result.Tools {
		names = append(names, tool["name"])
		want := map[string]any{"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
		if !reflect.DeepEqual(tool["annotations"], want) {
			t.Errorf("%v annotations %v", tool["name"], tool["annotations"])
		}
		for _, key := range []string{"title", "description", "inputSchema", "outputSchema"} {
			if tool[key] == nil || tool[key] == "" {
				t.Errorf("%v has no %s", tool["name"], key)
			}
		}
	}
	if !reflect.DeepEqual(names, six) {
		t.Errorf("extended tools/list: %v", names)
	}
	s.close()
}

// chainFiles is a corpus with a line for every verdict.
func chainFiles() map[string]string {
	f := map[string]string{
		"docs/adr/0001-use-postgres.md":      adr("0001", "Use PostgreSQL", "superseded", "by=0002"),
		"docs/adr/0002-use-postgres-16.md":   adr("0002", "Use PostgreSQL 16", "accepted", "sup=0001"),
		"docs/adr/0003-cache-in-redis.md":    adr("0003", "Cache in Redis", "superseded", "by=0004"),
		"docs/adr/0004-cache-in-memcache.md": adr("0004", "Cache in Memcached", "proposed", "sup=0003"),
		"docs/adr/0005-queue-in-sqs.md":      adr("0005", "Queue in SQS", "superseded", "by=0006"),
		"docs/adr/0006-queue-in-kafka.md":    adr("0006", "Queue in Kafka", "rejected"),
		"docs/adr/0007-rest-api.md":          adr("0007", "REST API", "superseded", "by=0008"),
		"docs/adr/0008-graphql-api.md":       adr("0008", "GraphQL API", "deprecated", "sup=0007"),
		"docs/adr/0009-tabs.md":              adr("0009", "Indent with tabs", "superseded", "by=0010"),
		"docs/adr/0010-spaces.md":            adr("0010", "Indent with spaces", "superseded", "by=0009"),
		"docs/adr/0011-monolith.md":          adr("0011", "Keep the monolith", "superseded", "by=0099"),
		"docs/adr/0012-logging.md":           adr("0012", "Log to files", "superseded", "by=0013"),
		"docs/adr/0013-logging-a.md":         adr("0013", "Log to stdout", "accepted"),
		"docs/adr/0013-logging-b.md":         adr("0013", "Log to syslog", "proposed"),
		"docs/adr/0014-billing.md":           adr("0014", "Bill monthly", "superseded", "by=billing:0003"),
	}
	for i := 100; i <= 113; i++ {
		id := fmt.Sprintf("%04d", i)
		switch i {
		case 100:
			f["docs/adr/"+id+"-step.md"] = adr(id, "Step "+id, "superseded", fmt.Sprintf("by=%04d", i+1))
		case 113:
			f["docs/adr/"+id+"-step.md"] = adr(id, "Step "+id, "accepted", fmt.Sprintf("sup=%04d", i-1))
		default:
			f["docs/adr/"+id+"-step.md"] = adr(id, "Step "+id, "superseded", fmt.Sprintf("by=%04d", i+1), fmt.Sprintf("sup=%04d", i-1))
		}
	}
	return f
}

func chainRepo(t *testing.T) string {
	r := newGitRepo(t)
	files := chainFiles()
	r.commit(plumbing.ZeroHash, "decisions", files)
	r.checkout(files)
	return r.root
}

// chainCalls are get_supersession_chain arguments of every outcome (the
// golden scenario golden/testdata/extended-chain.txtar makes the same).
var chainCalls = []string{
	`{"ref":"0001","findingsLimit":1}`,
	`{"ref":"0002","findingsLimit":1}`,
	`{"ref":"0003","findingsLimit":1}`,
	`{"ref":"0005","findingsLimit":1}`,
	`{"ref":"0007","findingsLimit":1}`,
	`{"ref":"0009","findingsLimit":1}`,
	`{"ref":"0011","findingsLimit":1}`,
	`{"ref":"0012","findingsLimit":1}`,
	`{"ref":"0014","findingsLimit":1}`,
	`{"ref":"0100","findingsLimit":1}`,
	`{"ref":"0113","findingsLimit":1}`,
	`{"ref":"0999","findingsLimit":1}`,
	`{"ref":"0013","findingsLimit":1}`,
	`{"ref":"billing:0003","findingsLimit":1}`,
	`{"ref":"0001","findingsCursor":"not-a-cursor"}`,
	`{"ref":"1","limit":3}`,
}

// feedRepo builds a history with adds, status flips, renames, edits and
// removals; it returns the repository and its commits.
func feedRepo(t *testing.T) (*gitRepo, []plumbing.Hash) {
	r := newGitRepo(t)
	var c []plumbing.Hash
	commit := func(msg string, files map[string]string) {
		parent := plumbing.ZeroHash
		if len(c) > 0 {
			parent = c[len(c)-1]
		}
		c = append(c, r.commit(parent, msg, files))
	}
	commit("propose postgres", map[string]string{
		"docs/adr/0001-use-postgres.md": adr("0001", "Use PostgreSQL", "proposed"),
	})
	commit("accept postgres, draft a cache", map[string]string{
		"README.md":                     "# Service\n",
		"docs/adr/0001-use-postgres.md": adr("0001", "Use PostgreSQL", "accepted"),
		"docs/adr/0002-cache.md":        adr("0002", "Add a cache", "draft"),
	})
	commit("rename the cache record, add a queue", map[string]string{
		"README.md":                     "# Service\n",
		"docs/adr/0001-use-postgres.md": adr("0001", "Use PostgreSQL", "accepted"),
		"docs/adr/0002-cache-layer.md":  adr("0002", "Add a cache", "draft"),
		"docs/adr/0003-queue.md":        adr("0003", "Queue in SQS", "accepted"),
	})
	commit("drop the queue, propose the cache, retitle postgres", map[string]string{
		"README.md":                     "# Service\n",
		"docs/adr/0001-use-postgres.md": adr("0001", "Use PostgreSQL 16", "accepted"),
		"docs/adr/0002-cache-layer.md":  adr("0002", "Add a cache", "proposed"),
	})
	commit("readme only", map[string]string{
		"README.md":                     "# Service, documented\n",
		"docs/adr/0001-use-postgres.md": adr("0001", "Use PostgreSQL 16", "accepted"),
		"docs/adr/0002-cache-layer.md":  adr("0002", "Add a cache", "proposed"),
	})
	// The working tree, which the corpus tools and the feed's corpusHealth
	// and findings read, has two records whose replacements are missing:
	// two findings.
	r.checkout(map[string]string{
		"docs/adr/0001-use-postgres.md": adr("0001", "Use PostgreSQL 16", "accepted"),
		"docs/adr/0004-cron.md":         adr("0004", "Run cron jobs", "superseded", "by=0098"),
		"docs/adr/0005-batch.md":        adr("0005", "Run nightly batches", "superseded", "by=0099"),
	})
	return r, c
}

// eraWrap opens a connection in an era and wraps a params object for it.
type eraWrap struct {
	name   string
	open   string
	params func(string) string
}

// legacyEra is the era the schema checks run in.
var legacyEra = eraWrap{"legacy", initLegacy, func(p string) string { return p }}

func callLine(e eraWrap, id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id,
		e.params(fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, args)))
}

// transcript numbers the calls of one session.
type transcript struct {
	s  *rawSession
	e  eraWrap
	id int
}

func (tr *transcript) call(tool, args string) map[string]any {
	tr.id++
	req := callLine(tr.e, tr.id, tool, args)
	ans := tr.s.exchange(req)
	var frame struct {
		Result map[string]any `json:"result"`
	}
	if err := json.Unmarshal([]byte(ans), &frame); err != nil {
		tr.s.t.Fatalf("answer %s: %v", ans, err)
	}
	return frame.Result
}

// feedCursor returns a member of the answer's result (cursor,
// headCursor).
func feedCursor(res map[string]any, key string) string {
	sc, _ := res["structuredContent"].(map[string]any)
	result, _ := sc["result"].(map[string]any)
	c, _ := result[key].(string)
	return c
}

// findingsCursor returns the cursor of the answer's findings page.
func findingsCursor(res map[string]any) string {
	sc, _ := res["structuredContent"].(map[string]any)
	result, _ := sc["result"].(map[string]any)
	findings, _ := result["findings"].(map[string]any)
	c, _ := findings["cursor"].(string)
	return c
}

// extendedSchemas resolves the advertised output schemas of the two
// extended tools.
func extendedSchemas(t *testing.T) map[string]*jsonschema.Resolved {
	t.Helper()
	out := map[string]*jsonschema.Resolved{}
	for _, name := range []string{app.ToolGetSupersessionChain, app.ToolListDecisionChanges, app.ToolListReviewQueue} {
		for _, kind := range []string{"input", "output"} {
			raw, err := readSchema(name + "." + kind + ".json")
			if err != nil {
				t.Fatal(err)
			}
			var s jsonschema.Schema
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatalf("%s %s schema: %v", name, kind, err)
			}
			resolved, err := s.Resolve(nil)
			if err != nil {
				t.Fatalf("%s %s schema: %v", name, kind, err)
			}
			out[name+"."+kind] = resolved
		}
	}
	return out
}

// Every structuredContent the extended tools answer with validates
// against the advertised output schema, for every outcome; every argument
// set they accept validates against the input schema.
func TestExtendedStructuredContentMatchesSchemas(t *testing.T) {
	schemas := extendedSchemas(t)
	outcomes := map[string]bool{}
	check := func(tr *transcript, tool, args string) map[string]any {
		t.Helper()
		res := tr.call(tool, args)
		if res["isError"] == true {
			var v any
			_ = json.Unmarshal([]byte(args), &v)
			if schemas[tool+".input"].Validate(v) == nil {
				t.Errorf("%s %s: refused arguments the input schema accepts", tool, args)
			}
			return res
		}
		var v any
		if err := json.Unmarshal([]byte(args), &v); err != nil {
			t.Fatal(err)
		}
		if err := schemas[tool+".input"].Validate(v); err != nil {
			t.Errorf("%s %s: accepted arguments the input schema refuses: %v", tool, args, err)
		}
		sc, ok := res["structuredContent"].(map[string]any)
		if !ok {
			t.Fatalf("%s %s: no structuredContent", tool, args)
		}
		if err := schemas[tool+".output"].Validate(sc); err != nil {
			t.Errorf("%s %s: structuredContent does not match the output schema: %v\n%s", tool, args, err, asJSON(sc))
		}
		outcome := sc["result"].(map[string]any)["outcome"].(string)
		// The schema leaves corpusHealth optional because one outcome
		// lacks it: it is on every answer but corpus-unavailable.
		if _, has := sc["corpusHealth"]; has != (outcome != app.OutcomeCorpusUnavailable) {
			t.Errorf("%s %s: %s answer with corpusHealth %v", tool, args, outcome, sc["corpusHealth"])
		}
		outcomes[tool+" "+outcome] = true
		return res
	}

	chainRoot := chainRepo(t)
	s := startExtended(t, chainRoot)
	s.exchange(initLegacy)
	tr := &transcript{s: s, e: legacyEra, id: 1}
	for _, args := range chainCalls {
		check(tr, app.ToolGetSupersessionChain, args)
	}
	for _, args := range []string{`{"ref":"0001","findingsLimit":100}`, `{"ref":"0013"}`} {
		check(tr, app.ToolGetSupersessionChain, args)
	}
	// The chain repository has one commit and no since.
	check(tr, app.ToolListDecisionChanges, `{}`)
	check(tr, app.ToolListDecisionChanges, `{"since":"0_","limit":1}`)
	check(tr, app.ToolListDecisionChanges, `{"since":"0_","limit":200}`)
	check(tr, app.ToolListDecisionChanges, `{"since":"AAAA"}`)
	// The feed's findings channel, its cursors and their refusals.
	fc := findingsCursor(check(tr, app.ToolListDecisionChanges, `{"since":"0_","findingsLimit":1}`))
	if fc == "" {
		t.Fatal("the chain corpus gave the feed no findings cursor")
	}
	check(tr, app.ToolListDecisionChanges, fmt.Sprintf(`{"findingsLimit":1,"findingsCursor":%q}`, fc))
	check(tr, app.ToolListDecisionChanges, fmt.Sprintf(`{"findingsLimit":2,"findingsCursor":%q}`, fc))
	check(tr, app.ToolListDecisionChanges, `{"findingsLimit":100,"limit":200}`)
	check(tr, app.ToolListDecisionChanges, `{"findingsCursor":"garbage"}`)
	check(tr, app.ToolListDecisionChanges, `{"findingsLimit":101}`)
	check(tr, app.ToolGetSupersessionChain, fmt.Sprintf(`{"ref":"0001","findingsLimit":1,"findingsCursor":%q}`, fc))
	// The review queue: the chain corpus has proposals and a shared id;
	// without asOf, today by the wall clock.
	for _, args := range []string{`{"asOf":"2026-01-08"}`, `{"asOf":"2026-01-08T23:00:00-05:00"}`, `{}`, `{"asOf":"2026-01-08T10:00"}`, `{"asOf":"2026-13-01"}`} {
		check(tr, app.ToolListReviewQueue, args)
	}
	// Without the ADR directory every tool is corpus-unavailable.
	if err := os.Rename(filepath.Join(chainRoot, "docs", "adr"), filepath.Join(chainRoot, "docs", "gone")); err != nil {
		t.Fatal(err)
	}
	check(tr, app.ToolGetSupersessionChain, `{"ref":"0001"}`)
	check(tr, app.ToolListDecisionChanges, `{"since":"0_"}`)
	check(tr, app.ToolListReviewQueue, `{"asOf":"2026-01-08"}`)
	s.close()

	// A restart, then a root the working-tree reader accepts (an empty
	// .git directory) but that has no history.
	r, c := feedRepo(t)
	s = startExtended(t, r.root)
	s.exchange(initLegacy)
	tr = &transcript{s: s, e: legacyEra, id: 1}
	head := feedCursor(check(tr, app.ToolListDecisionChanges, `{}`), "cursor")
	r.commit(c[1], "rewrite", map[string]string{"docs/adr/0001-x.md": adr("0001", "Use PostgreSQL", "rejected")})
	check(tr, app.ToolListDecisionChanges, fmt.Sprintf(`{"since":%q}`, head))
	s.close()

	bare := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bare, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(bare, "docs", "adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	s = startExtended(t, bare)
	s.exchange(initLegacy)
	tr = &transcript{s: s, e: legacyEra, id: 1}
	check(tr, app.ToolListDecisionChanges, `{}`)
	check(tr, app.ToolGetSupersessionChain, `{"ref":"0001"}`)
	s.close()

	for _, want := range []string{
		"get_supersession_chain chain", "get_supersession_chain not-found", "get_supersession_chain ambiguous-local-id",
		"get_supersession_chain federated-log-unavailable", "get_supersession_chain invalid-cursor",
		"get_supersession_chain corpus-unavailable",
		"list_decision_changes changes", "list_decision_changes restart", "list_decision_changes invalid-cursor",
		"list_decision_changes history-unavailable", "list_decision_changes corpus-unavailable",
		"list_review_queue queue", "list_review_queue corpus-unavailable",
	} {
		if !outcomes[want] {
			t.Errorf("never produced %q", want)
		}
	}
}

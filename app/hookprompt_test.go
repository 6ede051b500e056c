package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
	"github.com/adrkit/adrkit-go/ports/memhookstore"
)

// promptFiles are records a prompt can be answered with: accepted,
// rejected, and replaced by an accepted one.
func promptFiles() []fakeFile {
	head := "---\nid: \"%s\"\ntitle: %s\nstatus: %s\ndate: 2026-01-01\ndeciders: [\"@a\"]\n%s---\n\n## Decision\n\n%s\n"
	f := func(name, id, title, status, rest, decision string) fakeFile {
		return regular(name, fmt.Sprintf(head, id, title, status, rest, decision))
	}
	return []fakeFile{
		f("0001-pg.md", "0001", "Use PostgreSQL", "accepted", "", "We keep every table in PostgreSQL."),
		f("0002-memcached.md", "0002", "Store sessions in Memcached", "rejected", "", "We do not keep sessions in Memcached."),
		f("0003-heroku.md", "0003", "Deploy with Heroku", "superseded", "supersededBy: \"0004\"\n", "We deploy with Heroku."),
		f("0004-k8s.md", "0004", "Deploy on Kubernetes", "accepted", "supersedes: [\"0003\"]\n", "We deploy on Kubernetes."),
	}
}

// promptEvent is host's prompt event carrying prompt.
func promptEvent(host agenthost.Host, prompt string) agenthost.Event {
	return agenthost.Event{Host: host, Kind: agenthost.Prompt, Name: host.Contract().Prompt, SessionID: "s", Prompt: prompt}
}

// A prompt that a record answers gets one line naming it, as
// query_decision answers; one that none answers gets nothing. Every host
// with a prompt event answers alike.
func TestHookPrompt(t *testing.T) {
	cases := []struct{ prompt, want string }{
		{"Should we store the sessions in Memcached?",
			`adrkit: 0002 "Store sessions in Memcached" was rejected - do not propose it again (docs/adr/0002-memcached.md).`},
		{"Can we deploy to Heroku?",
			`adrkit: 0003 "Deploy with Heroku" (superseded) was replaced - do not propose it again; in force: 0004 "Deploy on Kubernetes" (accepted, docs/adr/0004-k8s.md).`},
		{"which database do we use, PostgreSQL?",
			`adrkit: decided by 0001 "Use PostgreSQL" (accepted, docs/adr/0001-pg.md); follow it.`},
		{"what colour should the logo be?", ""},
	}
	for _, host := range []agenthost.Host{agenthost.Claude, agenthost.Codex, agenthost.Gemini} {
		site := testSite(t, corpusOf(promptFiles()...), &memhookstore.Store{}, nil)
		for _, tc := range cases {
			ans := hook(t, site, promptEvent(host, tc.prompt))
			if ans != (HookAnswer{Context: tc.want}) {
				t.Errorf("%s %q:\n%+v\nwant %q", host, tc.prompt, ans, tc.want)
			}
		}
	}
}

// A prompt's ranking index is kept beside the governance index, under
// the same corpus key: the second prompt parses nothing and puts
// nothing, and an edit after it finds the governance index kept. The
// answer does not depend on what was kept.
func TestHookPromptKeepsRankIndex(t *testing.T) {
	store := &memhookstore.Store{}
	site := testSite(t, corpusOf(promptFiles()...), store, nil)
	ev := promptEvent(agenthost.Claude, "Should we store the sessions in Memcached?")
	cold := hook(t, site, ev)
	if store.Puts() != 2 {
		t.Fatalf("%d values kept by the first prompt, want 2 (the governance and the ranking index)", store.Puts())
	}
	warm := hook(t, site, ev)
	if warm != cold || store.Puts() != 2 {
		t.Fatalf("warm: %+v (%d puts), cold: %+v", warm, store.Puts(), cold)
	}
	hook(t, site, writeEvent("", "db/x.go"))
	if store.Puts() != 3 { // the answer only
		t.Fatalf("%d values kept after an edit, want 3", store.Puts())
	}
	if bare := hook(t, testSite(t, corpusOf(promptFiles()...), nil, nil), ev); bare != cold {
		t.Fatalf("without a store: %+v, want %+v", bare, cold)
	}
}

// A long prompt is read from its start, within the bound of a question,
// and an ended context ends the answer with an error (no context).
func TestHookPromptBounds(t *testing.T) {
	site := testSite(t, corpusOf(promptFiles()...), nil, nil)
	long := "Should we store the sessions in Memcached? " + strings.Repeat("sessions ", 120_000)
	if ans := hook(t, site, promptEvent(agenthost.Claude, long)); !strings.Contains(ans.Context, "0002") {
		t.Errorf("a 1 MB prompt: %+v", ans)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Hook(ctx, promptEvent(agenthost.Codex, "Memcached?"), opens(site)); !errors.Is(err, context.Canceled) {
		t.Errorf("an ended context: %v", err)
	}
}

// A record the edit writes whole into the ADR directory, still a
// proposal, that proposes a rejected decision again is said so, as check
// says it; a record elsewhere, an accepted one, one resembling nothing,
// and a file that is no record are not.
func TestHookNewRecordResemblesRejected(t *testing.T) {
	record := func(status, title string) string {
		return "---\nid: \"0009\"\ntitle: " + title + "\nstatus: " + status + "\ndate: 2026-01-01\n---\n\n## Decision\n\nWe do it.\n"
	}
	const said = `adrkit: 0009 proposes what 0002 "Store sessions in Memcached" rejected (confidence N): ` +
		`read docs/adr/0002-memcached.md before proposing it again.`
	cases := []struct {
		name, path, text string
		want             bool
	}{
		{"proposed", "docs/adr/0009-memcached.md", record("proposed", "Keep the sessions in Memcached"), true},
		{"draft", "docs/adr/0009-memcached.md", record("draft", "Sessions in Memcached"), true},
		{"accepted", "docs/adr/0009-memcached.md", record("accepted", "Keep the sessions in Memcached"), false},
		{"unrelated", "docs/adr/0009-fonts.md", record("proposed", "Ship the web fonts ourselves"), false},
		{"outside the ADR directory", "notes/0009-memcached.md", record("proposed", "Keep the sessions in Memcached"), false},
		{"not a record name", "docs/adr/memcached.md", record("proposed", "Keep the sessions in Memcached"), false},
	}
	for _, tc := range cases {
		for _, host := range []agenthost.Host{agenthost.Claude, agenthost.Gemini} {
			site := testSite(t, corpusOf(promptFiles()...), &memhookstore.Store{}, nil)
			ev := agenthost.Event{Host: host, Kind: agenthost.Edit, Name: host.Contract().Edit, Tool: host.Contract().EditTools[0]}
			ev.AddPath(tc.path)
			ev.AddText(tc.path, tc.text)
			want := ""
			if tc.want {
				want = said
			}
			// The confidence moves whenever the model is fitted again.
			if got := confidence.ReplaceAllString(hook(t, site, ev).Context, "(confidence N)"); got != want {
				t.Errorf("%s, %s: %q, want %q", tc.name, host, got, want)
			}
		}
	}
}

// BenchmarkHookPrompt: a prompt at 10,000 records with the indexes kept
// (every run but the first) against one that builds them (no store):
// decoding the kept ranking index costs a small part of building it.
func BenchmarkHookPrompt(b *testing.B) {
	reader := memcorpus.New("docs/adr")
	for name, data := range corpusgen.New(corpusgen.Config{N: 10000, Seed: 1}).Files {
		reader.WriteFile(name, data)
	}
	ev := promptEvent(agenthost.Claude, "Should we introduce Kubernetes for observability in checkout?")
	for _, run := range []struct {
		name  string
		store ports.HookStore
	}{{"kept", &memhookstore.Store{}}, {"built", nil}} {
		b.Run(run.name, func(b *testing.B) {
			site := &HookSite{Reader: reader, Store: run.store, Place: "bench", Dir: "docs/adr", Budget: time.Minute}
			if _, err := Hook(context.Background(), ev, opens(site)); err != nil { // keeps the indexes
				b.Fatal(err)
			}
			for b.Loop() {
				if ans, err := Hook(context.Background(), ev, opens(site)); err != nil || ans.Context == "" {
					b.Fatalf("%+v, %v", ans, err)
				}
			}
		})
	}
}

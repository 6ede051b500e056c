package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/memhookstore"
)

// askFiles is a corpus with a line for each outcome of query_decision,
// and an invalid file.
var askFiles = map[string]string{
	"0001-memcached.md": "---\nid: \"0001\"\ntitle: Store sessions in Memcached\nstatus: rejected\ndate: 2026-01-01\n---\n\n## Decision\n\nNot Memcached.\n",
	"0002-redis.md":     "---\nid: \"0002\"\ntitle: Keep sessions in self-hosted Redis\nstatus: superseded\ndate: 2026-01-02\nsupersededBy: \"0003\"\n---\n",
	"0003-managed.md":   "---\nid: \"0003\"\ntitle: Use ElastiCache for Redis\nstatus: accepted\ndate: 2026-01-03\ndeciders: [\"@a\"]\nsupersedes: [\"0002\"]\n---\n",
	"0004-bad.md":       "---\nid: [\n---\n",
}

// TestAsk: the typed answer of each outcome, through Ask; the bad
// questions: empty, blank, invalid UTF-8 and 100 KB.
func TestAsk(t *testing.T) {
	svc := New(corpusFrom(askFiles), Options{})
	for _, tc := range []struct {
		question, want string // want: outcome decision current doNotPropose
	}{
		{"should we store sessions in memcached?", "held 0001 - true"},
		{"do we run redis ourselves, self-hosted?", "found 0002 0003 true"},
		{"is elasticache our redis?", "found 0003 0003 false"},
		{"what is the office wifi password?", "no_record - - false"},
		{"sessions \xff\xfe in memcached", "held 0001 - true"},
		{strings.Repeat("should we store sessions in memcached? ", 3000), "held 0001 - true"},
	} {
		a, err := svc.Ask(context.Background(), AskInput{Question: tc.question})
		if err != nil {
			t.Fatalf("%.40q: %v", tc.question, err)
		}
		got := a.Outcome + " " + idOf(a.Decision) + " " + idOf(a.Current) + " " + map[bool]string{true: "true", false: "false"}[a.DoNotPropose]
		if got != tc.want {
			t.Errorf("%.40q: %s, want %s", tc.question, got, tc.want)
		}
		if long := len(tc.question) > 8<<10; a.Truncated != long {
			t.Errorf("%.40q: truncated %v", tc.question, a.Truncated)
		}
	}
	for _, q := range []string{"", "  \n\t"} {
		if _, err := svc.Ask(context.Background(), AskInput{Question: q}); err == nil || !strings.Contains(err.Error(), "question: must not be empty") {
			t.Errorf("%q: %v", q, err)
		}
	}
	if _, err := svc.Ask(context.Background(), AskInput{Question: "x", Limit: 21}); err == nil {
		t.Error("limit 21 was taken")
	}
}

func idOf(s *Summary) string {
	if s == nil {
		return "-"
	}
	return string(s.ID)
}

// TestAskOnce: the one-shot answer is the tool's, whether the index was
// kept or not; a damaged kept value is worked out again; refusals are
// the tool's.
func TestAskOnce(t *testing.T) {
	store := &keyedStore{Store: &memhookstore.Store{}}
	site := &HookSite{Reader: corpusFrom(askFiles), Store: store, Place: "here"}
	in := AskInput{Question: "do we run redis ourselves, self-hosted?", Limit: 2}
	want, err := New(site.Reader, Options{}).CallInput(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(want.Structured)
	for i := range 3 {
		res, err := AskOnce(context.Background(), site, in)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := json.Marshal(res.Structured); string(got) != string(wantJSON) || res.Text != want.Text {
			t.Errorf("run %d: %s %s\nwant %s %s", i, res.Text, got, want.Text, wantJSON)
		}
		if i == 1 { // damage what the first run kept
			v, _ := store.Get(ports.ShelfIndex, store.last)
			v = append([]byte(nil), v...)
			v[len(v)/2] ^= 1
			_ = store.Store.Put(ports.ShelfIndex, store.last, v)
		}
	}
	if store.Puts() != 3 {
		t.Errorf("%d values put, want the first, the damage and the one worked out again", store.Puts())
	}
	if res, _ := AskOnce(context.Background(), site, AskInput{}); !res.IsError {
		t.Errorf("empty question: %+v", res)
	}
}

// keyedStore remembers the key of the last value put.
type keyedStore struct {
	*memhookstore.Store
	last string
}

func (s *keyedStore) Put(shelf ports.Shelf, key string, value []byte) error {
	s.last = key
	return s.Store.Put(shelf, key, value)
}

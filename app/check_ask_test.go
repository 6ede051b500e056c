package app

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// TestResemblesRejected: a proposal or draft the change adds or edits
// whose title a rejected decision answers gets a warning naming it; an
// accepted record, an untouched proposal, another topic and the rejected
// record itself do not.
func TestResemblesRejected(t *testing.T) {
	rec := func(id, title, status string) string {
		return "---\nid: \"" + id + "\"\ntitle: " + title + "\nstatus: " + status + "\ndate: 2026-01-01\n---\n\n## Decision\n\n" + title + ".\n"
	}
	files := map[string]string{
		"0001-memcached.md": rec("0001", "Store sessions in Memcached", "rejected"),
		"0002-postgres.md":  rec("0002", "Use PostgreSQL as the primary database", "accepted"),
		"0003-again.md":     rec("0003", "Keep user sessions in Memcached", "proposed"),
		"0004-draft.md":     rec("0004", "Store the sessions in a Memcached cluster", "draft"),
		"0005-accepted.md":  rec("0005", "Store sessions in Memcached for now", "accepted"),
		"0006-other.md":     rec("0006", "Publish domain events through Kafka", "proposed"),
		"0007-untouched.md": rec("0007", "Sessions in Memcached", "proposed"),
	}
	var changed []string
	for _, n := range []string{"0001-memcached.md", "0003-again.md", "0004-draft.md", "0005-accepted.md", "0006-other.md"} {
		changed = append(changed, "docs/adr/"+n)
	}
	rep, err := New(corpusFrom(files), Options{}).Check(context.Background(), CheckInput{Files: changed, AsOf: "2026-06-15"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings {
		if f.Rule == RuleResemblesRejected {
			// The confidence moves whenever the model is fitted again.
			got = append(got, f.ID+": "+confidence.ReplaceAllString(f.Message, "(confidence N)"))
			if f.Fails || f.Severity != adr.SeverityWarn || f.Cause != CauseChanged {
				t.Errorf("%+v", f)
			}
		}
	}
	want := []string{
		`0003: 0003 proposes what 0001 "Store sessions in Memcached" rejected (confidence N): read docs/adr/0001-memcached.md before proposing it again`,
		`0004: 0004 proposes what 0001 "Store sessions in Memcached" rejected (confidence N): read docs/adr/0001-memcached.md before proposing it again`,
	}
	svc := New(corpusFrom(files), Options{})
	for title, want := range map[string]string{"Keep the sessions in Memcached": "0001", "Publish domain events through Kafka": ""} {
		sum, _, err := svc.ResemblesRejected(context.Background(), title)
		if err != nil || idOf(sum) != map[bool]string{true: "-", false: want}[want == ""] {
			t.Errorf("ResemblesRejected(%q) = %v, %v; want %q", title, sum, err, want)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

var confidence = regexp.MustCompile(`\(confidence \d\.\d\d\)`)

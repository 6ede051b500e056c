package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// statusRecords are a small log: 0001 accepted, 0002 a draft that will
// replace it (CRLF, with a body that names a status), 0003 a draft
// without deciders.
var statusRecords = map[string]string{
	"0001-use-mysql.md":    "---\nid: \"0001\"\ntitle: Use MySQL\nstatus: accepted # for now\ndate: 2025-01-10\ndeciders: [\"@ana\"]\ntags: [db]\n---\n\n# Use MySQL\n\nstatus: accepted\n",
	"0002-use-postgres.md": "---\r\nid: \"0002\"\r\ntitle: Use PostgreSQL\r\nstatus: accepted\r\ndate: 2025-03-01\r\ndeciders:\r\n  - \"@olaf\"\r\nrelatesTo: [\"0003\"]\r\n---\r\n\r\n# Use PostgreSQL\r\n",
	"0003-cache.md":        "---\nid: \"0003\"\ntitle: Cache results\nstatus: draft\ndate: 2025-04-01\n---\nBody\n",
}

func writeRecords(t *testing.T, root string, recs map[string]string) {
	t.Helper()
	for name, text := range recs {
		if err := os.WriteFile(filepath.Join(root, "docs", "adr", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readRecords(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	des, err := os.ReadDir(filepath.Join(root, "docs", "adr"))
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		b, err := os.ReadFile(filepath.Join(root, "docs", "adr", de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[de.Name()] = string(b)
	}
	return out
}

// TestStatus: only the status line (and the supersession lines) change,
// bodies byte for byte, lint clean afterwards; refused requests are exit 2
// with nothing written (accepted without --deciders names the flag), a
// missing record or a result that would be invalid exit 1.
func TestStatus(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	r, root := repoRunner(t, "empty")
	r.wd = root
	writeRecords(t, root, statusRecords)

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"status", "0001"}, 2, "a record id and a status are needed"},
		{[]string{"status", "0001", "superseded"}, 2, "add --by"},
		{[]string{"status", "0001", "retired"}, 2, `the status must be one of draft, proposed, accepted, rejected, superseded, deprecated, got "retired"`},
		{[]string{"status", "0009", "accepted"}, 1, "no valid record has the id 0009"}, // as show and chain
		{[]string{"status", "0001", "superseded", "--by", "0009"}, 1, "no valid record has the id 0009 (--by)"},
		{[]string{"status", "0001", "superseded", "--by", "0001"}, 2, "cannot supersede itself"},
		{[]string{"status", "0001", "accepted", "--by", "0002"}, 2, "applies only to superseded"},
		{[]string{"status", "7", "accepted"}, 2, "not a record id"},
		{[]string{"status", "0003", "accepted"}, 2, "add --deciders @handle"},
		{[]string{"status", "0003", "accepted", "--deciders", "olaf"}, 2, `decider "olaf" is not an @handle`},
		{[]string{"status", "0003", "accepted", "--deciders", "@olaf,team:data", "--dry-run"}, 0, ""},
		{[]string{"--rev", "main", "status", "0001", "draft"}, 2, "writes the working tree"},
		{[]string{"status", "0001", "superseded", "--by", "0002", "--dry-run"}, 0, ""},
	} {
		got := r.run(tc.args...)
		if got.code != tc.code || !strings.Contains(got.stderr, tc.want) {
			t.Errorf("%q: %s", tc.args, got)
		}
		if after := readRecords(t, root); len(after) != len(statusRecords) || after["0001-use-mysql.md"] != statusRecords["0001-use-mysql.md"] ||
			after["0002-use-postgres.md"] != statusRecords["0002-use-postgres.md"] || after["0003-cache.md"] != statusRecords["0003-cache.md"] {
			t.Fatalf("%q wrote files", tc.args)
		}
	}

	got := r.run("status", "0001", "superseded", "--by", "0002")
	g.Assert(t, "status-superseded", []byte(got.String()))
	after := readRecords(t, root)
	want := map[string]string{
		"0001-use-mysql.md": strings.Replace(statusRecords["0001-use-mysql.md"], "status: accepted # for now\n",
			"status: superseded\nsupersededBy: \"0002\"\n", 1),
		"0002-use-postgres.md": strings.Replace(statusRecords["0002-use-postgres.md"], "relatesTo:",
			"supersedes:\r\n- \"0001\"\r\nrelatesTo:", 1),
		"0003-cache.md": statusRecords["0003-cache.md"],
	}
	for name, w := range want {
		if after[name] != w {
			t.Errorf("%s:\n%q\nwant\n%q", name, after[name], w)
		}
	}
	if l := r.run("lint", "--as-of", "2026-06-15"); l.code != 0 || strings.Contains(l.stdout, "error") {
		t.Errorf("lint after status:\n%s", l)
	}

	// Back from superseded: supersededBy goes, and so does the listing in
	// the record that had replaced it.
	js := r.run("status", "0001", "deprecated", "--json")
	g.Assert(t, "status-undo-json", []byte(js.String()))
	after = readRecords(t, root)
	if w := strings.Replace(statusRecords["0001-use-mysql.md"], "status: accepted # for now\n", "status: deprecated\n", 1); after["0001-use-mysql.md"] != w {
		t.Errorf("0001 after deprecated:\n%q\nwant %q", after["0001-use-mysql.md"], w)
	}
	if after["0002-use-postgres.md"] != statusRecords["0002-use-postgres.md"] {
		t.Errorf("0002 after 0001 deprecated:\n%q", after["0002-use-postgres.md"])
	}
	if again := r.run("status", "0001", "deprecated"); again.code != 0 || !strings.Contains(again.stdout, "nothing to change") {
		t.Errorf("a second run: %s", again)
	}
}

// TestSupersedeInTwoSteps: new --supersedes with a proposal leaves the old
// record governing (explain shows both, no hold), and status NEW accepted
// --deciders completes the replacement on both records; adrkit status
// alone lists the records by status.
func TestSupersedeInTwoSteps(t *testing.T) {
	r, root := repoRunner(t, "empty")
	r.wd = root
	old := "---\nid: \"0001\"\ntitle: Use MySQL for orders\nstatus: accepted\ndate: 2025-01-10\ndeciders: [\"@ana\"]\n" +
		"affects:\n  - type: path\n    pattern: \"services/orders/**\"\n---\n\n# Use MySQL for orders\n"
	writeRecords(t, root, map[string]string{"0001-use-mysql-for-orders.md": old})

	tpl := filepath.Join(t.TempDir(), "body.md")
	if err := os.WriteFile(tpl, []byte("# {{title}}\n\nOrders move to CockroachDB for its multi-region writes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := r.run("new", "Use CockroachDB for orders", "--supersedes", "0001", "--status", "proposed", "--template", tpl); got.code != 0 ||
		!strings.Contains(got.stdout, "0001 (docs/adr/0001-use-mysql-for-orders.md) still governs") {
		t.Fatalf("new: %s", got)
	}
	if readRecords(t, root)["0001-use-mysql-for-orders.md"] != old {
		t.Fatal("the proposal changed the record it would replace")
	}
	ex := r.run("explain", "services/orders/db.go", "--json")
	for _, want := range []string{`"governing": [`, `"id": "0001"`, `"activeProposals": [`, `"id": "0002"`} {
		if ex.code != 0 || !strings.Contains(ex.stdout, want) {
			t.Errorf("explain while proposed lacks %s: %s", want, ex)
		}
	}
	if ch := r.run("check", "services/orders/db.go"); ch.code != 0 || strings.Contains(ch.stdout, "on hold") {
		t.Errorf("check while proposed: %s", ch)
	}
	listed := r.run("status")
	if listed.code != 0 || !strings.Contains(listed.stdout, "proposed (1)\n  0002  Use CockroachDB for orders") ||
		!strings.Contains(listed.stdout, "accepted (1)\n  0001  Use MySQL for orders") {
		t.Errorf("status alone: %s", listed)
	}

	if got := r.run("status", "0002", "accepted", "--deciders", "@olaf"); got.code != 0 {
		t.Fatalf("accepting: %s", got)
	}
	after := readRecords(t, root)
	if want := strings.Replace(old, "status: accepted\n", "status: superseded\nsupersededBy: \"0002\"\n", 1); after["0001-use-mysql-for-orders.md"] != want {
		t.Errorf("the old record once accepted:\n%s", after["0001-use-mysql-for-orders.md"])
	}
	if l := r.run("lint", "--as-of", "2026-06-15"); l.code != 0 || strings.Contains(l.stdout, "error") {
		t.Errorf("lint after accepting:\n%s", l)
	}
}

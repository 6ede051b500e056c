//go:build unix

// Unix permission bits and switching to another uid are what these tests
// are about; Windows has neither.

package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/ports"
)

// Permission bits are not enforced for root, and the tests usually run
// as root in CI. So the projections of TestHostilePermissionDenied run in
// a child process: the test binary itself, re-executed as the
// unprivileged uid/gid 65534 ("nobody") through syscall.Credential, with
// TestHostilePermissionHelper as its only test. Run as any other user,
// the projections run in-process, where the bits already apply.

const (
	// permissionBaseEnv tells the helper where the prepared cases are.
	permissionBaseEnv = "ADRKIT_HOSTILE_PERMISSION_BASE"
	// permissionMarker starts the helper's one line of results.
	permissionMarker = "HOSTILE-PERMISSION-RESULTS "
	nobody           = 65534
)

// permissionCase is one repository whose modes deny something.
type permissionCase struct {
	Name string `json:"name"`
	Root string `json:"root"`
}

// permissionResult is what one projection of a case gave.
type permissionResult struct {
	Reason   string   `json:"reason,omitempty"`
	Records  int      `json:"records"`
	Excluded int      `json:"excluded"`
	Findings []string `json:"findings"` // "rule path: message"
	Nested   []string `json:"nested"`   // recursive listing, names
}

// permissionCases lays out the cases under base (owned by the caller,
// readable by everyone) and returns them with the answer each must give.
func permissionCases(t *testing.T, base string) ([]permissionCase, map[string]permissionResult) {
	t.Helper()
	var cases []permissionCase
	want := map[string]permissionResult{}
	add := func(name string, setup func(r hostileRepo), w permissionResult) {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		r := makeHostileRepo(t, dir)
		r.write(t, "0001-open.md", hostileRecord("0001", "Open to all", ""))
		setup(r)
		cases = append(cases, permissionCase{Name: name, Root: r.root})
		want[name] = w
	}
	chmod := func(p string, mode os.FileMode) {
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	one := permissionResult{Records: 1, Findings: []string{}}
	add("record-unreadable", func(r hostileRepo) {
		r.write(t, "0002-locked.md", hostileRecord("0002", "Locked away", ""))
		chmod(r.path("0002-locked.md"), 0)
	}, permissionResult{Records: 1, Excluded: 1, Findings: []string{
		"file-read docs/adr/0002-locked.md: the file could not be read (permission to read the file was denied), so it is left out of the corpus"},
		Nested: []string{"0001-open.md", "0002-locked.md"}})
	add("adr-dir-not-readable", func(r hostileRepo) { chmod(r.adr, 0o311) }, permissionResult{Reason: "dir-not-readable"})
	add("adr-dir-not-searchable", func(r hostileRepo) { chmod(r.adr, 0o644) }, permissionResult{Reason: "dir-not-readable"})
	add("docs-not-searchable", func(r hostileRepo) { chmod(filepath.Dir(r.adr), 0o600) }, permissionResult{Reason: "dir-not-readable"})
	add("git-entry-not-readable", func(r hostileRepo) { chmod(filepath.Join(r.root, ".git"), 0) }, permissionResult{Reason: "root-not-git"})
	add("root-not-searchable", func(r hostileRepo) { chmod(r.root, 0o600) }, permissionResult{Reason: "root-not-readable"})
	add("root-not-readable", func(r hostileRepo) { chmod(r.root, 0o311) }, permissionResult{Reason: "root-not-readable"})
	add("parent-not-searchable", func(r hostileRepo) { chmod(filepath.Dir(r.root), 0o700) }, permissionResult{Reason: "root-not-readable"})
	nested := one
	nested.Nested = []string{"0001-open.md", "locked", "open", "open/0100-x.md"}
	add("nested-dir-not-readable", func(r hostileRepo) {
		for _, d := range []string{"locked", "open"} {
			if err := os.Mkdir(r.path(d), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(r.path(d), "0100-x.md"), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		chmod(r.path("locked"), 0)
	}, nested)
	// Restore the modes at the end so the temporary directory can go
	// (WalkDir visits a directory before reading it, so the chmod opens
	// it in time).
	t.Cleanup(func() {
		_ = filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
			if d != nil && d.Type()&os.ModeSymlink == 0 {
				_ = os.Chmod(p, 0o755)
			}
			return nil
		})
	})
	return cases, want
}

// projectCases projects every case with the current credentials.
func projectCases(cases []permissionCase) map[string]permissionResult {
	out := map[string]permissionResult{}
	ctx := context.Background()
	for _, c := range cases {
		res := permissionResult{Findings: []string{}}
		reader := filesystem.New(c.Root, "docs/adr")
		p, err := app.New(reader, app.Options{}).Project(ctx)
		var u *ports.UnavailableError
		switch {
		case errors.As(err, &u):
			res.Reason = string(u.Reason)
		case err != nil:
			res.Reason = "unexpected error: " + err.Error()
		default:
			res.Records, res.Excluded = p.RecordCount, p.ExcludedCount
			for _, f := range p.Findings {
				res.Findings = append(res.Findings, f.Rule+" "+f.Path+": "+f.Message)
			}
			if view, err := reader.Open(ctx); err == nil {
				if entries, err := view.List(ctx, true); err == nil {
					for _, e := range entries {
						res.Nested = append(res.Nested, e.Name)
					}
				}
			}
		}
		out[c.Name] = res
	}
	return out
}

// TestHostilePermissionDenied: what an unprivileged server answers when
// the permission bits deny it a record, the ADR directory, the .git
// entry or the root.
func TestHostilePermissionDenied(t *testing.T) {
	base, err := os.MkdirTemp("", "adrkit-hostile-permission-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	cases, want := permissionCases(t, base)

	var got map[string]permissionResult
	if os.Geteuid() != 0 {
		got = projectCases(cases)
	} else {
		got = projectAsNobody(t, base, cases)
	}
	for _, c := range cases {
		g, w := got[c.Name], want[c.Name]
		if w.Findings == nil {
			w.Findings = []string{}
		}
		if g.Reason != w.Reason || g.Records != w.Records || g.Excluded != w.Excluded ||
			!slices.Equal(g.Findings, w.Findings) || !slices.Equal(g.Nested, w.Nested) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.Name, g, w)
		}
	}
}

// projectAsNobody re-executes the test binary as uid and gid 65534 to
// project the cases there.
func projectAsNobody(t *testing.T, base string, cases []permissionCase) map[string]permissionResult {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary lives in a directory only its owner may enter; a
	// copy next to the cases is reachable for the unprivileged user.
	bin := filepath.Join(base, "hostile.test")
	if err := copyExecutable(exe, bin); err != nil {
		t.Fatal(err)
	}
	spec, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "cases.json"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestHostilePermissionHelper$", "-test.count=1", "-test.v")
	cmd.Dir = base
	cmd.Env = []string{"PATH=/usr/bin:/bin", permissionBaseEnv + "=" + base, "HOME=" + base}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{}}}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	var runErr error
	notHung(t, "the unprivileged helper", func() { runErr = cmd.Run() })
	var ee *exec.ExitError
	if runErr != nil && !errors.As(runErr, &ee) {
		t.Skipf("cannot start a process as uid %d (%v): the permission cases need a user that permission bits apply to", nobody, runErr)
	}
	for line := range strings.SplitSeq(stdout.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, permissionMarker); ok {
			var got map[string]permissionResult
			if err := json.Unmarshal([]byte(rest), &got); err != nil {
				t.Fatalf("helper output: %v", err)
			}
			return got
		}
	}
	t.Fatalf("the helper printed no results (%v)\nstdout:\n%s\nstderr:\n%s", runErr, stdout.String(), stderr.String())
	return nil
}

func copyExecutable(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// TestHostilePermissionHelper is the child side of
// TestHostilePermissionDenied; on its own it skips.
func TestHostilePermissionHelper(t *testing.T) {
	base := os.Getenv(permissionBaseEnv)
	if base == "" {
		t.Skip("runs only as the unprivileged child of TestHostilePermissionDenied")
	}
	spec, err := os.ReadFile(filepath.Join(base, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []permissionCase
	if err := json.Unmarshal(spec, &cases); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(projectCases(cases))
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString(permissionMarker + string(out) + "\n")
}

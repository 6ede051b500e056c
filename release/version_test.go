package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBothBinariesReportOneVersion: adrkit and adrkit-mcp print
// "<name> <version>" for --version and -v alike, the version the release
// build stamps in, and, unstamped, the same version as each other (Go's
// build information, or the development default). adrkit site is part of
// adrkit: with nothing else on the PATH it runs, and words a corpus
// failure.
func TestBothBinariesReportOneVersion(t *testing.T) {
	for _, stamp := range []string{"9.8.7-test.1", ""} {
		dir := t.TempDir()
		seen := map[string]string{}
		for _, name := range []string{"adrkit", "adrkit-mcp"} {
			bin := build(t, dir, name, stamp)
			for _, flag := range []string{"--version", "-v"} {
				got := run(t, exec.Command(bin, flag), "")
				version, ok := strings.CutPrefix(got.stdout, name+" ")
				if got.code != 0 || got.stderr != "" || !ok || !strings.HasSuffix(version, "\n") || strings.Count(got.stdout, "\n") != 1 {
					t.Fatalf("%s %s: %s", name, flag, got)
				}
				version = strings.TrimSuffix(version, "\n")
				if stamp != "" && version != stamp {
					t.Errorf("%s %s: version %q, want the stamp %q", name, flag, version, stamp)
				}
				seen[name+" "+flag] = version
			}
		}
		// Not a repository: the site command words the corpus failure.
		siteRun := exec.Command(filepath.Join(dir, "adrkit"+exeSuffix), "--cwd", t.TempDir(), "site", filepath.Join(t.TempDir(), "out"))
		siteRun.Env = append(os.Environ(), "PATH="+t.TempDir())
		if got := run(t, siteRun, ""); got.code != 1 || !strings.Contains(got.stderr, "not a Git worktree") {
			t.Errorf("stamp %q: adrkit site: %s", stamp, got)
		}
		want := seen["adrkit --version"]
		for k, v := range seen {
			if v != want {
				t.Errorf("stamp %q: %s says %q, adrkit --version %q", stamp, k, v, want)
			}
		}
	}
}

package release

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// windowsReserved is a name Windows gives a device, with or without an
// extension.
var windowsReserved = regexp.MustCompile(`(?i)^(CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])(\..*)?$`)

// TestCheckoutPortable: every committed path can be checked out as it is
// on Linux, macOS and Windows, so that the tests see the same tree on each.
// No symbolic link (core.symlinks=false turns one into a text file; tests
// make theirs with internal/linktest), no two paths that differ only in
// case (a case-insensitive file system keeps one), no name Windows
// refuses; and .gitattributes keeps line endings as committed.
func TestCheckoutPortable(t *testing.T) {
	repo, err := git.PlainOpenWithOptions(top, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		t.Fatalf("the tests run from a git checkout (.ci/run clones one): %v", err)
	}
	idx, err := repo.Storer.Index()
	if err != nil {
		t.Fatal(err)
	}
	folded := map[string]string{}
	for _, e := range idx.Entries {
		if e.Mode == filemode.Symlink {
			t.Errorf("%s is a committed symbolic link", e.Name)
		}
		for p := e.Name; p != "."; p = path.Dir(p) {
			if other, ok := folded[strings.ToLower(p)]; ok && other != p {
				t.Errorf("%s and %s differ only in case", other, p)
			}
			folded[strings.ToLower(p)] = p
			base := path.Base(p)
			if strings.ContainsAny(base, `<>:"\|?*`) || strings.HasSuffix(base, ".") || strings.HasSuffix(base, " ") ||
				windowsReserved.MatchString(base) || strings.IndexFunc(base, func(r rune) bool { return r < 0x20 }) >= 0 {
				t.Errorf("%s: Windows allows no file named %q", e.Name, base)
			}
		}
	}
	attrs, err := os.ReadFile(filepath.Join(top, ".gitattributes"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"* text=auto eol=lf", "**/testdata/** -text"} {
		if !strings.Contains("\n"+string(attrs)+"\n", "\n"+line+"\n") {
			t.Errorf(".gitattributes has no line %q", line)
		}
	}
}

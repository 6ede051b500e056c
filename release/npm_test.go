package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// npmPlatform is this system's platform package suffix, in npm's names.
func npmPlatform() string {
	os := map[string]string{"windows": "win32"}[runtime.GOOS]
	if os == "" {
		os = runtime.GOOS
	}
	cpu := map[string]string{"amd64": "x64"}[runtime.GOARCH]
	if cpu == "" {
		cpu = runtime.GOARCH
	}
	return os + "-" + cpu
}

// npmInstall packs this platform's npm packages with
// scripts/package-npm.sh and installs the tarballs, offline, into a new
// project; it returns the project directory and the path of the native
// binary npm installed.
func npmInstall(t *testing.T) (project, binary string) {
	t.Helper()
	tools := requireTools(t, "bash", "node", "npm")
	bash := tools[0]
	dir := t.TempDir()
	out := filepath.Join(dir, "tarballs")
	pack := exec.Command(bash, filepath.Join(top, "scripts", "package-npm.sh"), "--version", "0.0.0-test.1", out)
	pack.Env = npmEnv(dir)
	if b, err := pack.CombinedOutput(); err != nil {
		t.Fatalf("package-npm.sh: %v\n%s", err, b)
	}
	tarballs, err := filepath.Glob(filepath.Join(out, "*.tgz"))
	if err != nil || len(tarballs) != 2 {
		t.Fatalf("tarballs %q (%v), want the launcher and this platform's", tarballs, err)
	}
	project = filepath.Join(dir, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name":"consumer","version":"1.0.0","private":true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	install := exec.Command("npm", append([]string{"install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"}, tarballs...)...)
	install.Dir = project
	install.Env = npmEnv(dir)
	if b, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install --offline: %v\n%s", err, b)
	}
	binary = filepath.Join(project, "node_modules", "adrkit-mcp-"+npmPlatform(), "bin", "adrkit-mcp"+exeSuffix)
	if fi, err := os.Stat(binary); err != nil || (runtime.GOOS != "windows" && fi.Mode()&0o111 == 0) {
		t.Fatalf("the installed binary %s: %v (mode %v)", binary, err, fi)
	}
	return project, binary
}

// npmEnv is the environment for npm: a cache of its own under dir, so
// that nothing of the user's cache is read or written.
func npmEnv(dir string) []string {
	return append(os.Environ(), "npm_config_cache="+filepath.Join(dir, "npm-cache"), "npm_config_update_notifier=false")
}

// npx returns a command running `npx --offline adrkit-mcp args...` in the
// project.
func npx(project string, args ...string) *exec.Cmd {
	cmd := exec.Command("npx", append([]string{"--offline", "adrkit-mcp"}, args...)...)
	cmd.Dir = project
	cmd.Env = npmEnv(filepath.Dir(project))
	return cmd
}

// TestNPXServesLikeTheBinary: after an offline install of the tarballs,
// npx adrkit-mcp is the binary: the same answers on stdout, the same
// diagnostics on stderr, the same exit status (0 at the end of input, 1
// for an unusable root, 2 for a usage error).
func TestNPXServesLikeTheBinary(t *testing.T) {
	project, binary := npmInstall(t)
	root := repo(t)
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		code  int
	}{
		{"a session to the end of its input", []string{"--cwd", root}, conversation, 0},
		{"--version", []string{"--version"}, "", 0},
		{"a usage error", []string{"--nope"}, "", 2},
		{"a root that is not there", []string{"--cwd", filepath.Join(root, "missing")}, conversation, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := run(t, exec.Command(binary, tc.args...), tc.stdin)
			got := run(t, npx(project, tc.args...), tc.stdin)
			if want.code != tc.code {
				t.Fatalf("the binary itself: %s", want)
			}
			if got.code != want.code || frames(got.stdout) != frames(want.stdout) || got.stderr != want.stderr {
				t.Errorf("npx adrkit-mcp:\n%s\nthe binary:\n%s", got, want)
			}
		})
	}
	// Last, as it breaks the install: the launcher alone (its platform
	// package not installed, as when only one tarball is given) says
	// which package is missing and how to get it, and exits 1.
	t.Run("without the platform package", func(t *testing.T) {
		if err := os.RemoveAll(filepath.Join(project, "node_modules", "adrkit-mcp-"+npmPlatform())); err != nil {
			t.Fatal(err)
		}
		got := run(t, npx(project, "--version"), "")
		for _, want := range []string{"adrkit-mcp-" + npmPlatform() + ", which carries it, is not installed", "scripts/package-npm.sh", "go install ./cmd/adrkit-mcp"} {
			if got.code != 1 || !strings.Contains(got.stderr, want) {
				t.Errorf("want status 1 and %q:\n%s", want, got)
			}
		}
	})
}

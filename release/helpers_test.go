// Package release holds what a release is made of besides the Go code:
// the npm launcher package (npm/), the MCP bundle's manifest (mcpb/), the
// registry schemas server.json is checked against (testdata/registry/),
// and the tests that build and run the release artifacts the way their
// users will: both binaries' --version, the npm packages under npx, the
// container's build line, user and entry point on a read-only tree, the
// bundle's command line, and server.json against the registry's schema.
// scripts/release.sh and docs/releasing.md say how a release is made.
package release

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// top is the repository root, where the scripts and the Dockerfile are.
var top = func() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return filepath.Dir(wd)
}()

// conversation is what an MCP client says in one session: the 2025-era
// handshake and a call of two tools, then the end of its input.
var conversation = strings.Join([]string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"release-test","version":"0"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_decisions","arguments":{"query":"PostgreSQL"}}}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0002"}}}`,
}, "\n") + "\n"

// frames returns the lines of a server's stdout in a fixed order: the
// server answers requests concurrently, so the order of the answers to
// two calls in flight is not part of what it promises, but each answer
// is.
func frames(stdout string) string {
	lines := strings.SplitAfter(stdout, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "")
}

// outcome is how a process ended and what it wrote.
type outcome struct {
	code           int
	stdout, stderr string
}

func (o outcome) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", o.code, o.stdout, o.stderr)
}

// run runs cmd with stdin and returns its outcome; a failure to start it
// fails the test.
func run(t *testing.T, cmd *exec.Cmd, stdin string) outcome {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	o := outcome{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		o.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s: %v", cmd.Path, err)
	}
	return o
}

// repo writes a small generated corpus into a new repository root.
func repo(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	if _, _, err := corpusgen.WriteRepo(root, corpusgen.Config{N: 12, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	return root
}

// buildServer builds adrkit-mcp as a release does (static, trimmed) with
// version stamped in, into dir.
func buildServer(t *testing.T, dir, version string) string {
	t.Helper()
	return build(t, dir, "adrkit-mcp", version)
}

// build builds ./cmd/<name> with the release flags into dir; an empty
// version leaves the stamp out.
func build(t *testing.T, dir, name, version string) string {
	t.Helper()
	out := filepath.Join(dir, name+exeSuffix)
	args := []string{"build", "-trimpath", "-o", out}
	if version != "" {
		args = append(args, "-ldflags", "-s -w "+stampFlag+version)
	}
	cmd := exec.Command("go", append(args, "./cmd/"+name)...)
	cmd.Dir = top
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", name, err, b)
	}
	return out
}

// stampFlag is the linker flag that stamps a release's version into both
// binaries, as .goreleaser.yaml passes it.
const stampFlag = "-X github.com/adrkit/adrkit-go/internal/version.stamp="

// exeSuffix is what executables end in here.
var exeSuffix = map[bool]string{true: ".exe"}[runtime.GOOS == "windows"]

// requireTools returns the paths of the named programs, or skips the test
// when one is missing, unless ADRKIT_RELEASE_TOOLS=required (CI sets it),
// where a missing program fails it: CI must never pass by skipping.
func requireTools(t *testing.T, names ...string) []string {
	t.Helper()
	var paths []string
	for _, n := range names {
		p, err := exec.LookPath(n)
		if err != nil {
			if os.Getenv("ADRKIT_RELEASE_TOOLS") == "required" {
				t.Fatalf("%s is not installed, and ADRKIT_RELEASE_TOOLS=required", n)
			}
			t.Skipf("%s is not installed: this test needs it (CI installs it and sets ADRKIT_RELEASE_TOOLS=required)", n)
		}
		paths = append(paths, p)
	}
	return paths
}

package release

import (
	"bufio"
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// No Docker engine runs where these tests do, so the image is checked by
// doing what it does: the Dockerfile's own go build line builds the
// binary, which must be static; it then runs with the image's entry point
// and user, against a read-only copy of a repository, in a mount namespace
// where every file system is read-only (docker run --read-only with
// -v "$PWD:/repo:ro"), and must answer exactly as the binary does run
// plainly.

// roHelperEnv, when set, makes the test binary the read-only launcher
// (see TestMain) instead of running tests: its value is the command to
// exec, as JSON.
const roHelperEnv = "ADRKIT_RELEASE_READONLY_EXEC"

// roLauncher is the launcher's spec: the command and the identity to
// take.
type roLauncher struct {
	Argv     []string
	UID, GID int
	Probes   []string // paths whose creation must fail with EROFS
}

func TestMain(m *testing.M) {
	if spec := os.Getenv(roHelperEnv); spec != "" {
		os.Exit(launchReadOnly(spec))
	}
	os.Exit(m.Run())
}

// launchReadOnly runs in a new mount namespace: it makes every mount
// read-only, proves it by failing to create the probes, drops to the
// given user and execs the command. It returns only on failure.
func launchReadOnly(spec string) int {
	var l roLauncher
	if err := json.Unmarshal([]byte(spec), &l); err != nil {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		return 3
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "launcher: "+format+"\n", a...)
		return 3
	}
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fail("making mounts private: %v", err)
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return fail("%v", err)
	}
	var points []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) > 4 {
			points = append(points, fields[4])
		}
	}
	f.Close()
	for _, p := range points {
		// Some pseudo file systems refuse; the probes below are what
		// must hold.
		_ = syscall.Mount("", p, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY, "")
	}
	if err := syscall.Mount("", "/", "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		return fail("remounting / read-only: %v", err)
	}
	for _, p := range l.Probes {
		if err := os.WriteFile(p, nil, 0o644); !errors.Is(err, syscall.EROFS) {
			return fail("creating %s: %v, want a read-only file system", p, err)
		}
	}
	if err := syscall.Setgroups(nil); err != nil {
		return fail("setgroups: %v", err)
	}
	if err := syscall.Setgid(l.GID); err != nil {
		return fail("setgid: %v", err)
	}
	if err := syscall.Setuid(l.UID); err != nil {
		return fail("setuid: %v", err)
	}
	if err := os.Chdir("/"); err != nil {
		return fail("%v", err)
	}
	// The image's environment: distroless sets PATH and a home that
	// need not exist.
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/home/nonroot"}
	err = syscall.Exec(l.Argv[0], l.Argv, env)
	return fail("exec %s: %v", l.Argv[0], err)
}

func TestContainerImage(t *testing.T) {
	stages := parseDockerfile(t)
	build, final := stages[0], stages[len(stages)-1]

	// A minimal base with no shell or libc to rely on.
	if !strings.HasPrefix(final.from, "gcr.io/distroless/static") && final.from != "scratch" {
		t.Errorf("runtime base %q, want distroless/static or scratch", final.from)
	}
	users := final.all("USER")
	if len(users) != 1 {
		t.Fatalf("runtime stage has USER %q, want one", users)
	}
	uidText, gidText, _ := strings.Cut(users[0], ":")
	uid, err1 := strconv.Atoi(uidText)
	gid, err2 := strconv.Atoi(gidText)
	if err1 != nil || err2 != nil || uid == 0 || gid == 0 {
		t.Fatalf("USER %q, want a numeric non-root uid:gid (the runtime has no /etc/passwd to look names up in)", users[0])
	}
	var entrypoint, cmdDefault []string
	for _, in := range final.instructions {
		switch in.keyword {
		case "ENTRYPOINT":
			entrypoint = execForm(t, in.args)
		case "CMD":
			cmdDefault = execForm(t, in.args)
		}
	}
	if want := []string{"--cwd", "/repo"}; strings.Join(cmdDefault, " ") != strings.Join(want, " ") {
		t.Errorf("CMD %q, want %q: the documented mount point", cmdDefault, want)
	}

	// The build line, run as the build stage runs it, with the context
	// at the repository root and /out in a temporary directory.
	var buildLine string
	for _, r := range build.all("RUN") {
		if strings.Contains(r, "go build") {
			buildLine = r
		}
	}
	copies := final.all("COPY")
	if buildLine == "" || len(copies) != 1 {
		t.Fatalf("want one go build RUN in the build stage and one COPY in the runtime stage, got %q and %q", buildLine, copies)
	}
	from, to := copySourceAndTarget(t, copies[0])
	if !strings.Contains(buildLine, "-o "+from+" ") || len(entrypoint) == 0 || entrypoint[0] != to {
		t.Fatalf("the binary built (%q) is not what is copied (%q to %q) and run (%q)", buildLine, from, to, entrypoint)
	}
	out := openTempDir(t)
	bin := filepath.Join(out, "adrkit-mcp")
	cmd := exec.Command("sh", "-c", strings.Replace(buildLine, from, bin, 1))
	cmd.Dir = top
	cmd.Env = append(os.Environ(), "TARGETOS="+runtime.GOOS, "TARGETARCH="+runtime.GOARCH, "VERSION=7.7.7-image")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the Dockerfile's build line: %v\n%s", err, b)
	}
	checkStatic(t, bin)
	if got := run(t, exec.Command(bin, "--version"), ""); got.stdout != "adrkit-mcp 7.7.7-image\n" {
		t.Errorf("--version of the image's binary: %s", got)
	}

	// What a user gets without Docker: the binary run plainly.
	src := repo(t)
	want := run(t, exec.Command(bin, "--cwd", src), conversation)
	if want.code != 0 || want.stderr != "" || strings.Count(want.stdout, "\n") != 3 {
		t.Fatalf("plain run: %s", want)
	}

	if os.Geteuid() != 0 {
		t.Skip("running the entry point as the image's user on read-only mounts needs root (CI runs as root)")
	}
	// The repository as the container sees it: mounted read-only, owned
	// by someone else.
	ro := filepath.Join(openTempDir(t), "repo")
	copyTree(t, src, ro)
	args := append(append([]string{bin}, entrypoint[1:]...), "--cwd", ro)
	spec, err := json.Marshal(roLauncher{
		Argv: args, UID: uid, GID: gid,
		Probes: []string{filepath.Join(os.TempDir(), "adrkit-probe"), filepath.Join(ro, "probe"), "/probe"},
	})
	if err != nil {
		t.Fatal(err)
	}
	launcher := exec.Command(os.Args[0], "-test.run=^$")
	launcher.Env = append(os.Environ(), roHelperEnv+"="+string(spec))
	launcher.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
	got := run(t, launcher, conversation)
	if got.code != 0 || got.stderr != "" {
		t.Fatalf("as uid %d on read-only mounts: %s", uid, got)
	}
	if frames(got.stdout) != frames(want.stdout) {
		t.Errorf("answers differ from the plain run's:\n got %s\nwant %s", got.stdout, want.stdout)
	}
}

// execForm parses a JSON-array instruction argument (the exec form,
// which is what the image uses: there is no shell to run the other).
func execForm(t *testing.T, args string) []string {
	t.Helper()
	var v []string
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		t.Fatalf("Dockerfile: %q is not in exec form: %v", args, err)
	}
	return v
}

// copySourceAndTarget splits COPY --from=build SRC DST.
func copySourceAndTarget(t *testing.T, args string) (string, string) {
	t.Helper()
	var paths []string
	for _, f := range strings.Fields(args) {
		if !strings.HasPrefix(f, "--") {
			paths = append(paths, f)
		}
	}
	if len(paths) != 2 || !strings.Contains(args, "--from=build") {
		t.Fatalf("COPY %q, want --from=build SRC DST", args)
	}
	return paths[0], paths[1]
}

// checkStatic fails unless bin is an ELF executable that needs no
// dynamic loader or shared library: it runs on a base with no libc.
func checkStatic(t *testing.T, bin string) {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s asks for a dynamic loader", bin)
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil || len(libs) != 0 {
		t.Errorf("%s needs shared libraries %q (%v)", bin, libs, err)
	}
}

// copyTree copies the files and directories under src to dst, then
// makes dst read-only (0555 directories, 0444 files).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	var dirs []string
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			dirs = append(dirs, target)
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o444)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := os.Chmod(dirs[i], 0o555); err != nil {
			t.Fatal(err)
		}
		d := dirs[i]
		t.Cleanup(func() { _ = os.Chmod(d, 0o755) })
	}
}

// openTempDir is t.TempDir opened to every user, as /usr/local/bin and a
// bind mount are in the image: the test's directories are private to root
// otherwise, and the image's user could not reach the binary or the tree.
func openTempDir(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	for _, p := range []string{filepath.Dir(d), d} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

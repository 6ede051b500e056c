package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/cmd/internal/sitecli"
)

// The site is built by a program of its own, adrkit-site, so that its
// Markdown renderer is not linked into adrkit (ADR 0035): adrkit site
// checks the command line as it always has, then runs adrkit-site with
// the options spelled out and passes its streams and exit status on.

// siteEnv names the adrkit-site to run, before any search (packagers,
// tests).
const siteEnv = "ADRKIT_SITE"

// modulePath is this module's path: a source checkout is recognised by
// its go.mod.
const modulePath = "github.com/adrkit/adrkit-go"

// siteStopGrace is how long adrkit-site has to stop after a signal
// before it is killed.
const siteStopGrace = 5 * time.Second

func siteCommand(stdout io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:        "site",
		Usage:       sitecli.Usage,
		UsageText:   sitecli.UsageText,
		Description: sitecli.Description,
		Flags:       sitecli.Flags(),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			req, err := sitecli.Parse(cmd)
			if err != nil {
				return usageError{Command: cmd.FullName(), Msg: err.Error()}
			}
			// --color means nothing to the site, but a bad value is a
			// mistake here as for every command.
			if _, err := render.ParseColorMode(cmd.String("color")); err != nil {
				return usageError{Command: cmd.FullName(), Msg: err.Error()}
			}
			// adrkit-site runs where adrkit runs; when the working
			// directory cannot be read (removed), it inherits it and says
			// so as adrkit would.
			wd, err := env.Getwd()
			if err != nil {
				wd = ""
			}
			prog, cleanup, err := findSite(ctx, env)
			if err != nil {
				return err
			}
			defer cleanup()
			if err := checkSiteVersion(ctx, prog); err != nil {
				return err
			}
			args := append(corpusArgs(cmd, wd), req.Args()...)
			return runSite(ctx, prog, args, req.Serve != "", wd, env.Stdin, stdout, cmd.Root().ErrWriter)
		},
	}
}

// corpusArgs spells out for adrkit-site the corpus options this run was
// given (by flag or ADRKIT_* variable), and only those, so that it
// finds the corpus and words a failure exactly as adrkit would: --cwd
// made absolute (it runs in wd, but a path it prints never depends on
// that), --dir and --rev as given.
func corpusArgs(cmd *cli.Command, wd string) []string {
	var args []string
	if cmd.IsSet("cwd") {
		cwd := cmd.String("cwd")
		if cwd != "" && wd != "" && !filepath.IsAbs(cwd) {
			cwd = filepath.Join(wd, cwd)
		}
		args = append(args, "--cwd="+cwd)
	}
	for _, name := range []string{"dir", "rev"} {
		if cmd.IsSet(name) {
			args = append(args, "--"+name+"="+cmd.String(name))
		}
	}
	return args
}

// siteProgram is the file name of adrkit-site on this system.
func siteProgram() string {
	if runtime.GOOS == "windows" {
		return sitecli.Program + ".exe"
	}
	return sitecli.Program
}

// findSite finds adrkit-site: the program ADRKIT_SITE names, else the
// one beside this adrkit, else one on the PATH, else, for an adrkit built
// from a source checkout with go on the PATH, one built from that
// checkout into a temporary directory (cleanup removes it). Not finding
// it is status 1 with where it was looked for and how to install it.
func findSite(ctx context.Context, env environment) (string, func(), error) {
	none := func() {}
	if p, ok := env.Getenv(siteEnv); ok && p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", none, exitError{Code: exitFailure, Msg: fmt.Sprintf("%s names %s, which cannot be run: %v", siteEnv, p, err)}
		}
		return p, none, nil
	}
	beside := ""
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		beside = filepath.Join(filepath.Dir(self), siteProgram())
		if isProgram(beside) {
			return beside, none, nil
		}
	}
	if p := lookPath(env, siteProgram()); p != "" {
		return p, none, nil
	}
	if root := sourceCheckout(); root != "" {
		if goTool := lookPath(env, goProgram()); goTool != "" {
			return buildSiteFromSource(ctx, goTool, root)
		}
	}
	where := "beside adrkit"
	if beside != "" {
		where = "beside adrkit (" + beside + ")"
	}
	install := fmt.Sprintf("go install %s/cmd/adrkit-site@%s", modulePath, installVersion())
	return "", none, exitError{Code: exitFailure, Msg: fmt.Sprintf(
		"adrkit site needs the program adrkit-site, which was not found %s or on the PATH; install it with %s "+
			"(from a checkout: go install ./cmd/adrkit-site), or set %s to it; release archives carry it beside adrkit",
		where, install, siteEnv)}
}

// installVersion is the version go install should ask for: this
// adrkit's, or latest for a development build.
func installVersion() string {
	v := version()
	// A development build, or a pseudo-version of a modified checkout,
	// names no version go install can fetch.
	if v == "" || strings.HasSuffix(v, "-dev") || strings.Contains(v, "+") {
		return "latest"
	}
	return "v" + v
}

// goProgram is the file name of the go command on this system.
func goProgram() string {
	if runtime.GOOS == "windows" {
		return "go.exe"
	}
	return "go"
}

// isProgram says path is a regular file (the search for adrkit-site
// skips directories of that name).
func isProgram(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// lookPath finds name in the directories of the run's PATH (env.Getenv,
// so that tests choose it), "" when it is in none.
func lookPath(env environment, name string) string {
	pathList, _ := env.Getenv("PATH")
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // a relative PATH entry would run what the working directory holds
		}
		if p, err := exec.LookPath(filepath.Join(dir, name)); err == nil && isProgram(p) {
			return p
		}
	}
	return ""
}

// sourceCheckout is the root of the source checkout this adrkit was
// built from, when the build recorded absolute source paths (not
// -trimpath, as releases are built) and that directory still holds this
// module's go.mod; "" otherwise.
func sourceCheckout() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	for dir := filepath.Dir(file); ; {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "module" && strings.Trim(f[1], `"`) == modulePath {
					return dir
				}
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// buildSiteFromSource builds adrkit-site from the checkout at root into a
// temporary directory, at this adrkit's version (the same source): go
// run ./cmd/adrkit site and a go build of adrkit keep working in a
// checkout. The build cache makes a repeat take well under a second.
func buildSiteFromSource(ctx context.Context, goTool, root string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "adrkit-site-")
	if err != nil {
		return "", func() {}, exitError{Code: exitFailure, Msg: "building adrkit-site: " + err.Error()}
	}
	cleanup := func() { _ = os.RemoveAll(dir) }
	prog := filepath.Join(dir, siteProgram())
	build := exec.CommandContext(ctx, goTool, "build", "-o", prog,
		"-ldflags=-X "+modulePath+"/internal/version.stamp="+version(), "./cmd/adrkit-site")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		cleanup()
		return "", func() {}, exitError{Code: exitFailure, Msg: fmt.Sprintf(
			"adrkit-site was not found, and building it from the checkout at %s failed (%v): %s",
			root, err, strings.TrimSpace(string(out)))}
	}
	return prog, cleanup, nil
}

// checkSiteVersion refuses an adrkit-site of another version than this
// adrkit: the same corpus must give the same site whichever adrkit-site
// a PATH happens to hold.
func checkSiteVersion(ctx context.Context, prog string) error {
	out, err := exec.CommandContext(ctx, prog, "--version").Output()
	if err != nil {
		return exitError{Code: exitFailure, Msg: fmt.Sprintf("%s --version failed: %v", prog, err)}
	}
	got := strings.TrimSpace(string(out))
	name, v, _ := strings.Cut(got, " ")
	if name != sitecli.Program {
		v = fmt.Sprintf("unknown (its --version says %q)", got)
	}
	if name != sitecli.Program || v != version() {
		return exitError{Code: exitFailure, Msg: fmt.Sprintf(
			"%s is version %s, but this adrkit is version %s; the site must be built by the same version: "+
				"install adrkit-site %s beside adrkit (go install %s/cmd/adrkit-site@%s)",
			prog, v, version(), version(), modulePath, installVersion())}
	}
	return nil
}

// runSite runs adrkit-site in wd with args and the run's streams, and
// returns its exit status as this run's (its diagnostics are already on
// stderr). When ctx ends (SIGINT or SIGTERM) os/exec cancels it: it is
// asked to stop with SIGTERM, which ends --serve with status 0, and killed
// if it has not stopped within siteStopGrace. Where no SIGTERM can be sent
// (Windows) it is killed at once; a preview (serving) then still ends
// with status 0.
func runSite(ctx context.Context, prog string, args []string, serving bool, wd string, stdin io.Reader, stdout, stderr io.Writer) error {
	child := exec.CommandContext(ctx, prog, args...)
	child.Dir = wd
	child.Env = siteEnviron()
	child.Stdin, child.Stdout, child.Stderr = stdin, stdout, stderr
	var killed atomic.Bool
	child.Cancel = func() error {
		err := child.Process.Signal(syscall.SIGTERM)
		if err != nil && !errors.Is(err, os.ErrProcessDone) {
			killed.Store(true)
			return child.Process.Kill()
		}
		return err
	}
	child.WaitDelay = siteStopGrace
	if err := child.Start(); err != nil {
		return exitError{Code: exitFailure, Msg: fmt.Sprintf("starting %s: %v", prog, err)}
	}
	err := child.Wait()
	switch {
	case killed.Load():
		if serving {
			return nil // a preview stopped on request ends with status 0
		}
		return exitError{Code: exitFailure, Msg: "stopped before the site was written"}
	case child.ProcessState != nil && child.ProcessState.Success():
		// Also when cancelled: it stopped cleanly on SIGTERM, and Wait
		// reports the cancellation rather than its status 0.
		return nil
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if code := exit.ExitCode(); code > 0 {
			return exitError{Code: code}
		}
		return exitError{Code: exitFailure, Msg: fmt.Sprintf("%s ended: %v", prog, err)}
	}
	return exitError{Code: exitFailure, Msg: fmt.Sprintf("running %s: %v", prog, err)}
}

// siteEnviron is the process's environment without the ADRKIT_*
// corpus variables: corpusArgs has turned what this run read from them
// into options, and adrkit-site must not read them a second time.
func siteEnviron() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "ADRKIT_CWD", "ADRKIT_DIR", "ADRKIT_REV":
			continue
		}
		env = append(env, kv)
	}
	return env
}

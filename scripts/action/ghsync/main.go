// Command ghsync is the GitHub side of the adrkit Actions: it posts the
// pull-request comment adrkit check --format comment wrote, or updates the
// one it posted before, and keeps the "ADR review queue" issue current
// from adrkit queue --format markdown. It talks to the GitHub REST API
// with the workflow token and nothing else; the composite actions run it
// with go run (action.yml, queue/action.yml).
//
//	ghsync comment --body FILE (--files N | --check-json FILE) [--author LOGIN]
//	ghsync queue-issue --body FILE [--title TITLE] [--author LOGIN]
//
// The environment is a runner's: GITHUB_TOKEN, GITHUB_API_URL (default
// https://api.github.com), GITHUB_REPOSITORY (owner/name),
// GITHUB_EVENT_PATH (the event payload), GITHUB_OUTPUT (optional).
// Messages for the workflow log are workflow commands (::notice::,
// ::error::) on stdout. Exit status: 0 done (or nothing to do), 1 the
// API refused or the input cannot be trusted, 2 a usage mistake.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, &http.Client{Timeout: time.Minute})
	cancel()
	os.Exit(code)
}

// env is what ghsync reads from its environment.
type env struct {
	getenv func(string) string
	out    io.Writer
	http   *http.Client
}

// logf writes a workflow command: kind is notice, warning or error.
func (e env) logf(kind, format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	msg = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(msg)
	fmt.Fprintf(e.out, "::%s title=adrkit::%s\n", kind, msg)
}

// setOutput appends name=value to $GITHUB_OUTPUT, when there is one.
func (e env) setOutput(name, value string) {
	p := e.getenv("GITHUB_OUTPUT")
	if p == "" {
		return
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		e.logf("warning", "could not write the %s output: %v", name, err)
		return
	}
	fmt.Fprintf(f, "%s=%s\n", name, value)
	if err := f.Close(); err != nil {
		e.logf("warning", "could not write the %s output: %v", name, err)
	}
}

// client is the API client of the environment: GITHUB_REPOSITORY must be
// owner/name.
func (e env) client() (*client, error) {
	repo := e.getenv("GITHUB_REPOSITORY")
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return nil, fmt.Errorf("GITHUB_REPOSITORY must be owner/name, got %q", repo)
	}
	api := e.getenv("GITHUB_API_URL")
	if api == "" {
		api = "https://api.github.com"
	}
	if e.getenv("GITHUB_TOKEN") == "" {
		return nil, fmt.Errorf("no token: pass the workflow token as GITHUB_TOKEN (the action's token input)")
	}
	return &client{api: api, token: e.getenv("GITHUB_TOKEN"), repo: repo, http: e.http}, nil
}

func run(ctx context.Context, args []string, getenv func(string) string, out io.Writer, hc *http.Client) int {
	e := env{getenv: getenv, out: out, http: hc}
	if len(args) == 0 {
		fmt.Fprintln(out, "usage: ghsync comment|queue-issue [flags] (see the package documentation)")
		return 2
	}
	fs := flag.NewFlagSet("ghsync "+args[0], flag.ContinueOnError)
	fs.SetOutput(out)
	body := fs.String("body", "", "the file holding the body to post")
	author := fs.String("author", defaultAuthor, "the login the token posts as; only what it wrote is ever edited")
	switch args[0] {
	case "comment":
		files := fs.Int("files", -1, "how many changed files adrkit check saw (the list is refused if the pull request has more)")
		checkJSON := fs.String("check-json", "", "adrkit check --format json's report of the same run, to take --files from")
		if err := fs.Parse(args[1:]); err != nil || *body == "" || fs.NArg() > 0 {
			fmt.Fprintln(out, "usage: ghsync comment --body FILE (--files N | --check-json FILE) [--author LOGIN]")
			return 2
		}
		return syncComment(ctx, e, *body, *files, *checkJSON, *author)
	case "queue-issue":
		title := fs.String("title", queueTitle, "the issue's title")
		if err := fs.Parse(args[1:]); err != nil || *body == "" || fs.NArg() > 0 {
			fmt.Fprintln(out, "usage: ghsync queue-issue --body FILE [--title TITLE] [--author LOGIN]")
			return 2
		}
		return syncQueueIssue(ctx, e, *body, *title, *author)
	}
	fmt.Fprintf(out, "ghsync: unknown command %q: the commands are comment and queue-issue\n", args[0])
	return 2
}

// defaultAuthor is who posts with the workflow token (GITHUB_TOKEN).
const defaultAuthor = "github-actions[bot]"

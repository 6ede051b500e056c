package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// queueMarker is the first line of the queue issue's body: with the
// title and the author, it is how the issue is known to be ours.
const queueMarker = "<!-- adrkit:queue -->"

// queueTitle is the queue issue's title.
const queueTitle = "ADR review queue"

// shortenedNote ends a queue body that had to be cut to fit.
const shortenedNote = "\n> **Shortened** to fit GitHub's limit for an issue body: the sections after this point are not shown. " +
	"Run adrkit queue for the whole queue.\n"

// syncQueueIssue keeps one issue holding the review queue: the one whose
// title is title, whose body starts with the queue marker and whose
// author is author (so an issue someone else wrote is never touched).
// It is created when there is none, updated when its body differs, and
// reopened when it was closed.
func syncQueueIssue(ctx context.Context, e env, bodyFile, title, author string) int {
	md, err := os.ReadFile(bodyFile)
	if err != nil {
		e.logf("error", "reading the queue: %v", err)
		return 1
	}
	body := fitBody(queueMarker+"\n"+string(md), maxBody)
	c, err := e.client()
	if err != nil {
		e.logf("error", "%v", err)
		return 2
	}
	refused := func(err error) int {
		if forbidden(err) {
			e.logf("error", "the workflow token may not manage issues: give the job the issues: write permission (%v)", err)
			return 1
		}
		e.logf("error", "%v", err)
		return 1
	}
	issues, err := list[issue](ctx, c, "/repos/"+c.repo+"/issues", url.Values{"state": {"all"}, "creator": {author}})
	if err != nil {
		return refused(err)
	}
	var mine *issue
	for i := range issues {
		is := &issues[i]
		if len(is.PullRequest) == 0 && is.Title == title && is.User.Login == author && firstLine(is.Body) == queueMarker {
			// The oldest is the one kept current; the list is newest first.
			mine = is
		}
	}
	var got issue
	switch {
	case mine == nil:
		if err := c.do(ctx, http.MethodPost, "/repos/"+c.repo+"/issues", map[string]string{"title": title, "body": body}, &got); err != nil {
			return refused(err)
		}
		fmt.Fprintf(e.out, "adrkit: opened the review queue issue #%d: %s\n", got.Number, got.HTMLURL)
	case mine.State == "open" && mine.Body == body:
		fmt.Fprintf(e.out, "adrkit: the review queue issue #%d is already current: %s\n", mine.Number, mine.HTMLURL)
		got = *mine
	default:
		p := fmt.Sprintf("/repos/%s/issues/%d", c.repo, mine.Number)
		if err := c.do(ctx, http.MethodPatch, p, map[string]string{"body": body, "state": "open"}, &got); err != nil {
			return refused(err)
		}
		verb := "updated"
		if mine.State != "open" {
			verb = "reopened and updated"
		}
		fmt.Fprintf(e.out, "adrkit: %s the review queue issue #%d: %s\n", verb, got.Number, got.HTMLURL)
	}
	e.setOutput("issue-number", fmt.Sprint(got.Number))
	e.setOutput("issue-url", got.HTMLURL)
	return 0
}

// fitBody cuts body to at most limit bytes at the start of a section (a
// line starting with "#"), never inside one, and says so at the end.
func fitBody(body string, limit int) string {
	if len(body) <= limit {
		return body
	}
	room := limit - len(shortenedNote)
	cut := -1
	for i := 0; i < len(body) && i <= room; {
		j := strings.Index(body[i:], "\n#")
		if j < 0 || i+j+1 > room {
			break
		}
		cut = i + j + 1
		i = cut
	}
	if cut <= 0 {
		// No section boundary fits: cut at the last line that does.
		cut = strings.LastIndex(body[:room], "\n") + 1
	}
	return body[:cut] + shortenedNote
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
)

// commentMarker is the first line of every comment adrkit check writes
// (render.CommentMarker).
const commentMarker = "<!-- adrkit:check -->"

// maxBody is the longest comment or issue body GitHub accepts.
const maxBody = 65536

// pullRequestEvent is what the comment needs from the event payload.
type pullRequestEvent struct {
	PullRequest *struct {
		Number       int64 `json:"number"`
		ChangedFiles *int  `json:"changed_files"`
	} `json:"pull_request"`
}

// syncComment posts the check comment on the pull request of the event,
// or updates the one it posted before: the newest comment whose first
// line is the marker and whose author is author. A read-only token (a
// pull request from a fork) is a notice, not a failure; a changed-file
// list shorter than the pull request's is refused, since the comment
// would say that files are covered by nothing when they were never
// looked at.
func syncComment(ctx context.Context, e env, bodyFile string, files int, checkJSON, author string) int {
	if checkJSON != "" {
		n, err := checkedFiles(checkJSON)
		if err != nil {
			e.logf("error", "%v", err)
			return 1
		}
		files = n
	}
	body, err := os.ReadFile(bodyFile)
	if err != nil {
		e.logf("error", "reading the comment: %v", err)
		return 1
	}
	if firstLine(string(body)) != commentMarker {
		e.logf("error", "the comment does not start with the %s marker line; it was not written by adrkit check --format comment", commentMarker)
		return 1
	}
	if len(body) > maxBody {
		e.logf("error", "the comment has %d bytes, more than GitHub's %d", len(body), maxBody)
		return 1
	}
	var ev pullRequestEvent
	if p := e.getenv("GITHUB_EVENT_PATH"); p != "" {
		data, err := os.ReadFile(p)
		if err == nil {
			err = json.Unmarshal(data, &ev)
		}
		if err != nil {
			e.logf("error", "reading the event payload: %v", err)
			return 1
		}
	}
	if ev.PullRequest == nil || ev.PullRequest.Number <= 0 {
		e.logf("notice", "this run is not for a pull request, so there is nothing to comment on")
		return 0
	}
	pr := ev.PullRequest
	if pr.ChangedFiles != nil && files >= 0 && files < *pr.ChangedFiles {
		e.logf("error", "adrkit check saw %d changed files, but pull request #%d changes %d: the list was cut short "+
			"(is the history fetched?), so no comment is posted rather than one that leaves files out", files, pr.Number, *pr.ChangedFiles)
		return 1
	}
	c, err := e.client()
	if err != nil {
		e.logf("error", "%v", err)
		return 2
	}
	readOnly := func(err error) int {
		if forbidden(err) {
			e.logf("notice", "the workflow token may not comment on pull request #%d (a pull request from a fork gets a read-only token); "+
				"the report is in the job summary and the annotations instead", pr.Number)
			return 0
		}
		e.logf("error", "%v", err)
		return 1
	}

	path := fmt.Sprintf("/repos/%s/issues/%d/comments", c.repo, pr.Number)
	comments, err := list[comment](ctx, c, path, url.Values{})
	if err != nil {
		return readOnly(err)
	}
	var mine *comment
	for i := range comments {
		if comments[i].User.Login == author && firstLine(comments[i].Body) == commentMarker {
			mine = &comments[i]
		}
	}
	var got comment
	if mine == nil {
		if err := c.do(ctx, http.MethodPost, path, map[string]string{"body": string(body)}, &got); err != nil {
			return readOnly(err)
		}
		fmt.Fprintf(e.out, "adrkit: posted the check comment on pull request #%d: %s\n", pr.Number, got.HTMLURL)
	} else {
		if mine.Body == string(body) {
			fmt.Fprintf(e.out, "adrkit: the check comment on pull request #%d is already current: %s\n", pr.Number, mine.HTMLURL)
			e.setOutput("comment-url", mine.HTMLURL)
			return 0
		}
		p := fmt.Sprintf("/repos/%s/issues/comments/%d", c.repo, mine.ID)
		if err := c.do(ctx, http.MethodPatch, p, map[string]string{"body": string(body)}, &got); err != nil {
			return readOnly(err)
		}
		fmt.Fprintf(e.out, "adrkit: updated the check comment on pull request #%d: %s\n", pr.Number, got.HTMLURL)
	}
	e.setOutput("comment-url", got.HTMLURL)
	return 0
}

// checkedFiles is how many changed files an adrkit check --format json
// report covers (summary.files).
func checkedFiles(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("reading the check report: %w", err)
	}
	var rep struct {
		Summary struct {
			Files *int `json:"files"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(data, &rep); err != nil || rep.Summary.Files == nil {
		return 0, fmt.Errorf("%s is not an adrkit check --format json report (no summary.files)", path)
	}
	return *rep.Summary.Files, nil
}

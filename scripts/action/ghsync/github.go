package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// client calls the GitHub REST API as the workflow token.
type client struct {
	api, token, repo string
	http             *http.Client
}

// apiError is a response the API refused.
type apiError struct {
	method, path string
	status       int
	message      string
}

func (e *apiError) Error() string {
	msg := e.message
	if msg == "" {
		msg = http.StatusText(e.status)
	}
	return fmt.Sprintf("GitHub answered %s %s with %d: %s", e.method, e.path, e.status, msg)
}

// forbidden reports whether err is the API refusing the token the
// write: a read-only workflow token (a pull request from a fork) or a job
// without the permission.
func forbidden(err error) bool {
	var e *apiError
	return errors.As(err, &e) && e.status == http.StatusForbidden
}

// maxResponse bounds what one API answer may hold.
const maxResponse = 32 << 20

// do sends one request; in, when not nil, is the JSON body; out, when not
// nil, receives the JSON answer.
func (c *client) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("encoding the request to %s: %w", path, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(c.api, "/")+path, body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("User-Agent", "adrkit-action")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(data, &e)
		return &apiError{method: method, path: path, status: resp.StatusCode, message: e.Message}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: the answer is not the JSON expected: %w", method, path, err)
		}
	}
	return nil
}

// perPage is the page size of every list; maxPages bounds a list at
// 10,000 entries.
const (
	perPage  = 100
	maxPages = 100
)

// list reads every page of a list endpoint (path with its query), page
// after page until one is short.
func list[T any](ctx context.Context, c *client, path string, q url.Values) ([]T, error) {
	var all []T
	for page := 1; page <= maxPages; page++ {
		q.Set("per_page", strconv.Itoa(perPage))
		q.Set("page", strconv.Itoa(page))
		var items []T
		if err := c.do(ctx, http.MethodGet, path+"?"+q.Encode(), nil, &items); err != nil {
			return nil, err
		}
		all = append(all, items...)
		if len(items) < perPage {
			break
		}
	}
	return all, nil
}

// user is the author of a comment or an issue.
type user struct {
	Login string `json:"login"`
}

// comment is an issue or pull-request comment.
type comment struct {
	ID      int64  `json:"id"`
	Body    string `json:"body"`
	User    user   `json:"user"`
	HTMLURL string `json:"html_url"`
}

// issue is an issue (or, in the issues list, a pull request).
type issue struct {
	Number      int64           `json:"number"`
	Title       string          `json:"title"`
	Body        string          `json:"body"`
	State       string          `json:"state"`
	User        user            `json:"user"`
	HTMLURL     string          `json:"html_url"`
	PullRequest json.RawMessage `json:"pull_request,omitempty"`
}

// firstLine is the first line of a body, without a carriage return.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSuffix(line, "\r")
}

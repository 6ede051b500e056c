package changes

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
	"github.com/adrkit/adrkit-go/ports"
)

// sinceCursor reads --since: a feed cursor or "0_" as they are (the tool
// judges them), a date (YYYY-MM-DD, UTC, or an RFC 3339 time) as the
// changes committed at or after it, anything else as a git revision
// (HEAD~20, a tag, a branch, a hash): the changes after that commit.
func sinceCursor(ctx context.Context, c *factory.Corpus, since string) (string, error) {
	hist, err := c.Where.History().OpenHistory(ctx)
	if err != nil {
		return since, nil // the tool reports the history as unavailable
	}
	if _, reason := feed.Decode(since, hist.Dir()); reason != cursor.DecodeFailed {
		return since, nil
	}
	if t, ok := parseSinceDate(since); ok {
		return sinceDate(ctx, hist, t)
	}
	at, err := c.Where.At(since).History().OpenHistory(ctx)
	if err != nil && looksLikeCursor(since) {
		return since, nil // a damaged cursor: the tool says why it is refused
	}
	if err != nil {
		return "", fmt.Errorf("--since %q is not a cursor, a date (YYYY-MM-DD) or a revision git knows (HEAD~20, a tag, a branch, a hash)", since)
	}
	head, ok := at.Head()
	if !ok {
		return feed.ReplayToken, nil
	}
	return feed.Encode(feed.Position{Commit: head.Hash}, hist.Dir()), nil
}

// parseSinceDate reads a day (midnight UTC) or an RFC 3339 time.
func parseSinceDate(s string) (time.Time, bool) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, true
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// sinceDate is the cursor after the newest first-parent commit made
// before t, so that the feed lists the commits from t on; "0_" when the
// whole history is that recent.
func sinceDate(ctx context.Context, hist ports.History, t time.Time) (string, error) {
	c, ok := hist.Head()
	for ok && !c.Time.Before(t) {
		var err error
		if c, ok, err = hist.Parent(ctx, c); err != nil {
			return "", fmt.Errorf("reading the history: %w", err)
		}
	}
	if !ok {
		return feed.ReplayToken, nil
	}
	return feed.Encode(feed.Position{Commit: c.Hash}, hist.Dir()), nil
}

// looksLikeCursor reports whether s is spelled as a feed cursor is
// (base64url, and longer than any revision a person types).
func looksLikeCursor(s string) bool {
	if len(s) < 24 {
		return false
	}
	return strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == ""
}

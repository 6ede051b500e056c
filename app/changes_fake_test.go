package app

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/adrkit/adrkit-go/domain/lineage/feed"
	"github.com/adrkit/adrkit-go/ports"
)

// fakeHistory is an in-memory ports.HistoryReader: a first-parent line of
// commits, each holding the whole ADR directory as name → content. Tests
// rewrite it between calls to simulate new commits and force-pushes.
type fakeHistory struct {
	dir     string
	commits []fakeCommit // oldest first; commits[i-1] is commits[i]'s parent
	openErr error
	// missingFrom makes every commit before this index missing, as a
	// shallow clone lacks them.
	missingFrom int
	// parents counts Parent calls, to show where a walk stopped.
	parents int
}

type fakeCommit struct {
	hash  string
	when  time.Time
	files map[string]string // nil: no ADR directory
}

var fakeEpoch = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)

// commit appends a commit holding files ("name=content" pairs; no pairs
// and dirless true means no directory at all).
func (f *fakeHistory) commit(salt string, files ...string) string {
	c := fakeCommit{when: fakeEpoch.Add(time.Duration(len(f.commits)) * time.Minute), files: map[string]string{}}
	for _, kv := range files {
		name, content, _ := strings.Cut(kv, "=")
		c.files[name] = content
	}
	if len(files) == 1 && files[0] == "-" {
		c.files = nil
	}
	parent := ""
	if len(f.commits) > 0 {
		parent = f.commits[len(f.commits)-1].hash
	}
	sum := sha1.Sum([]byte(parent + "|" + salt + "|" + fmt.Sprint(files)))
	c.hash = hex.EncodeToString(sum[:])
	f.commits = append(f.commits, c)
	return c.hash
}

func (f *fakeHistory) OpenHistory(context.Context) (ports.History, error) {
	if f.openErr != nil {
		return nil, f.openErr
	}
	return fakeHistoryView{f}, nil
}

type fakeHistoryView struct{ f *fakeHistory }

func (v fakeHistoryView) portCommit(i int) ports.Commit {
	c := v.f.commits[i]
	pc := ports.Commit{Hash: c.hash, Time: c.when}
	if c.files != nil {
		names := make([]string, 0, len(c.files))
		for n := range c.files {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			pc.Dir += n + "=" + c.files[n] + "\x00"
		}
		pc.Dir = "dir:" + pc.Dir
	}
	return pc
}

func (v fakeHistoryView) Head() (ports.Commit, bool) {
	if len(v.f.commits) == 0 {
		return ports.Commit{}, false
	}
	return v.portCommit(len(v.f.commits) - 1), true
}

func (v fakeHistoryView) Dir() string {
	if v.f.dir == "" {
		return "docs/adr"
	}
	return v.f.dir
}

func (v fakeHistoryView) index(hash string) int {
	for i, c := range v.f.commits {
		if c.hash == hash {
			return i
		}
	}
	panic("unknown commit " + hash)
}

func (v fakeHistoryView) Parent(_ context.Context, c ports.Commit) (ports.Commit, bool, error) {
	v.f.parents++
	i := v.index(c.Hash)
	if i == 0 {
		return ports.Commit{}, false, nil
	}
	if i-1 < v.f.missingFrom {
		return ports.Commit{}, false, &ports.HistoryUnavailableError{Reason: feed.HistoryIncomplete}
	}
	return v.portCommit(i - 1), true, nil
}

func (v fakeHistoryView) Files(_ context.Context, c ports.Commit) ([]ports.HistoryFile, error) {
	files := v.f.commits[v.index(c.Hash)].files
	var out []ports.HistoryFile
	for name, content := range files {
		kind := ports.KindRegular
		if strings.HasSuffix(name, "/") {
			kind, name = ports.KindDirectory, strings.TrimSuffix(name, "/")
		}
		sum := sha1.Sum([]byte(content))
		out = append(out, ports.HistoryFile{
			Entry:  ports.Entry{Name: name, Path: v.Dir() + "/" + name, Kind: kind},
			Object: "blob:" + content + ":" + hex.EncodeToString(sum[:4]),
		})
	}
	slices.SortFunc(out, func(a, b ports.HistoryFile) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func (v fakeHistoryView) Read(_ context.Context, f ports.HistoryFile, limit int64) ([]byte, error) {
	content := strings.TrimPrefix(f.Object, "blob:")
	content = content[:strings.LastIndexByte(content, ':')]
	if int64(len(content)) > limit {
		return nil, &ports.ReadError{Kind: ports.ReadTooLarge}
	}
	return []byte(expand(content)), nil
}

// expand turns the short content notation "ID STATUS [TITLE]" into a
// record, or anything else (say "broken") into a file that is not one.
func expand(content string) string {
	f := strings.Fields(content)
	if len(f) < 2 {
		return content
	}
	title := "Record " + f[0]
	if len(f) > 2 {
		title = strings.Join(f[2:], " ")
	}
	extra := ""
	switch f[1] {
	case "accepted":
		extra = "deciders: [\"@a\"]\n"
	case "superseded":
		extra = "deciders: [\"@a\"]\nsupersededBy: \"9999\"\n"
	}
	return "---\nid: \"" + f[0] + "\"\ntitle: " + title + "\nstatus: " + f[1] + "\ndate: 2026-01-01\n" + extra + "---\n\nBody.\n"
}

package app

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/historytest"
)

// fakeHistory is an in-memory ports.HistoryReader: a first-parent line of
// commits, each holding the whole ADR directory as name → content. Tests
// rewrite it between calls to simulate new commits and force-pushes. It
// passes the suite every history passes (TestFakeHistoryConformance).
type fakeHistory struct {
	dir     string
	commits []fakeCommit // oldest first; commits[i-1] is commits[i]'s parent
	blobs   map[string]string
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
	files map[string]string // nil: no ADR directory; "name/": a directory
}

var fakeEpoch = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)

// commit appends a commit holding files ("name=content" pairs, content
// in expand's notation; a single "-" means no directory at all).
func (f *fakeHistory) commit(salt string, files ...string) string {
	key := salt + "|" + fmt.Sprint(files)
	if len(files) == 1 && files[0] == "-" {
		return f.commitFiles(key, nil)
	}
	m := map[string]string{}
	for _, kv := range files {
		name, content, _ := strings.Cut(kv, "=")
		m[name] = expand(content)
	}
	return f.commitFiles(key, m)
}

// commitFiles appends a commit holding files as given (nil: no
// directory); key tells its hash apart from its siblings'.
func (f *fakeHistory) commitFiles(key string, files map[string]string) string {
	c := fakeCommit{when: fakeEpoch.Add(time.Duration(len(f.commits)) * time.Minute), files: files}
	parent := ""
	if len(f.commits) > 0 {
		parent = f.commits[len(f.commits)-1].hash
	}
	sum := sha1.Sum([]byte(parent + "|" + key))
	c.hash = hex.EncodeToString(sum[:])
	f.commits = append(f.commits, c)
	if f.blobs == nil {
		f.blobs = map[string]string{}
	}
	for _, content := range files {
		f.blobs[blobID(content)] = content
	}
	return c.hash
}

func blobID(content string) string {
	sum := sha1.Sum([]byte(content))
	return "blob:" + hex.EncodeToString(sum[:])
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
		out = append(out, ports.HistoryFile{
			Entry:  ports.Entry{Name: name, Path: v.Dir() + "/" + name, Kind: kind},
			Object: blobID(content),
		})
	}
	slices.SortFunc(out, func(a, b ports.HistoryFile) int { return jsstring.Compare(a.Name, b.Name) })
	return out, nil
}

func (v fakeHistoryView) Read(_ context.Context, f ports.HistoryFile, limit int64) ([]byte, error) {
	content := v.f.blobs[f.Object]
	if int64(len(content)) > limit {
		return nil, &ports.ReadError{Kind: ports.ReadTooLarge}
	}
	return []byte(content), nil
}

// TestFakeHistoryConformance holds the fake to the suite gitrev's History
// passes, so that what the feed's tests show over it holds over git.
func TestFakeHistoryConformance(t *testing.T) {
	historytest.RunConformance(t, func(t *testing.T) historytest.Harness { return fakeHistoryHarness{} })
}

type fakeHistoryHarness struct{}

func (fakeHistoryHarness) MakeReader(_ *testing.T, fx historytest.Fixture) ports.HistoryReader {
	f := &fakeHistory{dir: path.Clean(fx.Dir)}
	for i, c := range fx.Commits {
		var files map[string]string
		if c.Files != nil {
			files = map[string]string{}
			for name, content := range c.Files {
				if dir, _, nested := strings.Cut(name, "/"); nested {
					files[dir+"/"] = ""
					continue
				}
				files[name] = content
			}
		}
		f.commitFiles(fmt.Sprint(i, files), files)
	}
	return f
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

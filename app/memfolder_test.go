package app

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/migrate"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/writertest"
)

// memFolder is the in-memory ports.FolderWriter of app's tests: the ADR
// directory docs/adr, held to the suite every folder passes. failOn makes
// Create of one name find it taken and Replace of it fail, as a racing
// writer or a full disk would.
type memFolder struct {
	// mu makes Read and Replace safe to call at once, as the suite's
	// concurrent appenders do.
	mu       sync.Mutex
	files    map[string]string
	dirs     map[string]bool
	failOn   string
	branches []string
	dates    map[string]string
}

func (m *memFolder) DisplayPath(name string) string { return "docs/adr/" + name }

func (m *memFolder) Names() ([]string, error) {
	names := sortedKeys(m.files)
	for d := range m.dirs {
		names = append(names, d)
	}
	slices.SortFunc(names, jsstring.Compare)
	return names, nil
}

func (m *memFolder) MarkdownFiles(ctx context.Context) ([]migrate.File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []migrate.File
	for _, n := range sortedKeys(m.files) {
		if lower := strings.ToLower(n); strings.HasSuffix(lower, ".md") || strings.HasSuffix(lower, ".markdown") {
			out = append(out, migrate.File{Name: n, Path: m.DisplayPath(n), Content: []byte(m.files[n])})
		}
	}
	return out, nil
}

// file is the content of the regular file name.
func (m *memFolder) file(name string) (string, error) {
	if err := checkMemName(name); err != nil {
		return "", err
	}
	content, ok := m.files[name]
	switch {
	case m.dirs[name]:
		return "", fmt.Errorf("%s is a directory", m.DisplayPath(name))
	case !ok:
		return "", fmt.Errorf("%s: %w", m.DisplayPath(name), fs.ErrNotExist)
	}
	return content, nil
}

func (m *memFolder) Read(name string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	content, err := m.file(name)
	if err != nil {
		return nil, err
	}
	return []byte(content), nil
}

func (m *memFolder) Create(name string, b []byte) error {
	if err := checkMemName(name); err != nil {
		return err
	}
	if _, ok := m.files[name]; ok || m.dirs[name] || name == m.failOn {
		return fmt.Errorf("%s exists already: %w", m.DisplayPath(name), fs.ErrExist)
	}
	m.files[name] = string(b)
	return nil
}

func (m *memFolder) Replace(name string, old, b []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now, err := m.file(name)
	if err != nil {
		return err
	}
	if name == m.failOn {
		return fmt.Errorf("writing %s: disk full", m.DisplayPath(name))
	}
	if now != string(old) {
		return fmt.Errorf("%s changed since it was read: %w", m.DisplayPath(name), ports.ErrChanged)
	}
	m.files[name] = string(b)
	return nil
}

func (m *memFolder) Rename(from, to string) error {
	if err := checkMemName(to); err != nil {
		return err
	}
	content, err := m.file(from)
	if err != nil {
		return err
	}
	if _, ok := m.files[to]; ok || m.dirs[to] {
		return fmt.Errorf("%s exists already: %w", m.DisplayPath(to), fs.ErrExist)
	}
	delete(m.files, from)
	m.files[to] = content
	return nil
}

func (m *memFolder) BranchNames() ([]string, error)               { return m.branches, nil }
func (m *memFolder) FirstCommitDates() (map[string]string, error) { return m.dates, nil }

func checkMemName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || strings.EqualFold(name, ".git") {
		return fmt.Errorf("%q is not a file name: %w", name, fs.ErrInvalid)
	}
	return nil
}

// memRepo is the in-memory ports.RepoFiles of app's tests: the files
// at the start are the ones git tracks.
type memRepo struct {
	files   map[string]string
	dirs    map[string]bool
	tracked []string
}

func newMemRepo(files map[string]string) *memRepo {
	return &memRepo{files: files, dirs: map[string]bool{}, tracked: sortedKeys(files)}
}

func (r *memRepo) TrackedFiles() ([]string, error) { return slices.Clone(r.tracked), nil }

// check refuses what is not a clean repository path, and says whether p
// is a directory: one of dirs, or one holding a file.
func (r *memRepo) check(p string) (dir bool, err error) {
	if !fs.ValidPath(p) || p == "." {
		return false, fmt.Errorf("%q: %w", p, fs.ErrInvalid)
	}
	for q := p; q != "."; q = pathDir(q) {
		if _, ok := r.files[q]; ok && q != p {
			return false, fmt.Errorf("%s: %s is not a directory", p, q)
		}
	}
	for f := range r.files {
		if strings.HasPrefix(f, p+"/") {
			return true, nil
		}
	}
	return r.dirs[p], nil
}

func (r *memRepo) Read(p string, limit int) ([]byte, bool, error) {
	dir, err := r.check(p)
	content, ok := r.files[p]
	switch {
	case err != nil:
		return nil, false, err
	case dir:
		return nil, false, fmt.Errorf("reading %s: a directory", p)
	case !ok:
		return nil, false, fmt.Errorf("reading %s: %w", p, fs.ErrNotExist)
	case limit >= 0 && len(content) > limit:
		return []byte(content[:limit]), true, nil
	}
	return []byte(content), false, nil
}

func (r *memRepo) Write(p string, content []byte) error {
	for elem := range strings.SplitSeq(p, "/") {
		if strings.EqualFold(elem, ".git") {
			return fmt.Errorf("%s is inside .git: %w", p, fs.ErrInvalid)
		}
	}
	switch dir, err := r.check(p); {
	case err != nil:
		return err
	case dir:
		return fmt.Errorf("writing %s: a directory", p)
	}
	r.files[p] = string(content)
	return nil
}

// sortedKeys is the names of files in code-unit order.
func sortedKeys(files map[string]string) []string {
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, jsstring.Compare)
	return keys
}

func pathDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// TestMemConformance holds the in-memory folder and repository to the
// suite the working tree passes.
func TestMemConformance(t *testing.T) {
	load := func(entries []writertest.Entry) (map[string]string, map[string]bool) {
		files, dirs := map[string]string{}, map[string]bool{}
		for _, e := range entries {
			if e.Dir {
				dirs[e.Path] = true
			} else {
				files[e.Path] = e.Content
			}
		}
		return files, dirs
	}
	writertest.RunFolder(t, false, func(t *testing.T, entries []writertest.Entry) ports.FolderWriter {
		files, dirs := load(entries)
		return &memFolder{files: files, dirs: dirs}
	})
	writertest.RunRepo(t, false, func(t *testing.T, entries []writertest.Entry) ports.RepoFiles {
		files, dirs := load(entries)
		r := newMemRepo(files)
		r.dirs = dirs
		return r
	})
}

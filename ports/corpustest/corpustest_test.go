package corpustest_test

import (
	"context"
	"errors"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/jsstring"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/corpustest"
)

// TestSuiteOverMemory runs the suite over a minimal in-memory source with
// the limits of a git revision: symlink entries but no FIFOs, no
// symlinked ADR directory and no change after opening. It shows the
// Harness can be met without a file system and that missing features
// skip rather than fail.
func TestSuiteOverMemory(t *testing.T) {
	corpustest.RunConformance(t, func(t *testing.T) corpustest.Harness { return memHarness{} })
}

type memHarness struct{}

func (memHarness) Features() corpustest.Feature { return corpustest.Symlinks }

func (memHarness) MakeReader(t *testing.T, fx corpustest.Fixture) ports.CorpusReader {
	if fx.DirLink != "" {
		t.Fatal("a symlinked dir was requested although the feature is not declared")
	}
	m := &memReader{display: fx.Dir, entries: map[string]corpustest.Entry{}}
	for _, e := range fx.Entries {
		if e.Kind == ports.KindOther {
			t.Fatal("a special file was requested although the feature is not declared")
		}
		m.entries[e.Path] = e
		for d := path.Dir(e.Path); d != "."; d = path.Dir(d) {
			m.entries[d] = corpustest.Entry{Path: d, Kind: ports.KindDirectory}
		}
	}
	return m
}

// memReader is both the reader and its (immutable) corpus view.
type memReader struct {
	display string
	entries map[string]corpustest.Entry
}

func (m *memReader) Open(context.Context) (ports.ADRDir, error) { return m, nil }

func (m *memReader) List(_ context.Context, recursive bool) ([]ports.Entry, error) {
	var out []ports.Entry
	for name, e := range m.entries {
		if !recursive && strings.Contains(name, "/") {
			continue
		}
		p := name
		if m.display != "" {
			p = m.display + "/" + name
		}
		out = append(out, ports.Entry{Name: name, Path: p, Kind: e.Kind})
	}
	slices.SortFunc(out, func(a, b ports.Entry) int { return jsstring.Compare(a.Name, b.Name) })
	return out, nil
}

func (m *memReader) Read(_ context.Context, name string, limit int64, buf []byte) ([]byte, error) {
	e, ok := m.entries[name]
	switch {
	case !ok || strings.Contains(name, "/") || e.Kind != ports.KindRegular:
		return nil, &ports.ReadError{Kind: ports.ReadStatFailed, Err: errors.New("not a top-level regular file")}
	case int64(len(e.Content)) > limit:
		return nil, &ports.ReadError{Kind: ports.ReadTooLarge}
	}
	return append(buf[:0], e.Content...), nil
}

func (m *memReader) Verify(context.Context) error { return nil }

func TestFeatureString(t *testing.T) {
	tests := []struct {
		f    corpustest.Feature
		want string
	}{
		{0, "no features"},
		{corpustest.SpecialFiles, "special files (FIFOs)"},
		{corpustest.Symlinks | corpustest.SymlinkedDir, "symlink entries, a symlinked ADR directory"},
	}
	for _, tc := range tests {
		if got := tc.f.String(); got != tc.want {
			t.Errorf("Feature(%d).String() = %q, want %q", tc.f, got, tc.want)
		}
	}
}

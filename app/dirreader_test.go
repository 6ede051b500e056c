package app

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// dirReader is a minimal test-only CorpusReader over a directory tree, so
// that app tests can run the conformance corpora without importing an
// adapter. It does no root canonicalisation and no change detection: the
// filesystem adapter owns those and is tested on its own.
type dirReader struct {
	root string // absolute
	dir  string // relative to root, "/"-separated
}

func (r dirReader) abs() string { return filepath.Join(r.root, filepath.FromSlash(r.dir)) }

func (r dirReader) Open(context.Context) (ports.ADRDir, error) {
	if _, err := os.Stat(filepath.Join(r.root, ".git")); err != nil {
		return nil, &ports.UnavailableError{Reason: corpus.RootNotGit, Err: err}
	}
	st, err := os.Stat(r.abs())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &ports.UnavailableError{Reason: corpus.DirNotFound, Err: err}
	case err != nil:
		return nil, &ports.UnavailableError{Reason: corpus.DirNotReadable, Err: err}
	case !st.IsDir():
		return nil, &ports.UnavailableError{Reason: corpus.DirNotDirectory}
	}
	return r, nil
}

func (r dirReader) List(context.Context, bool) ([]ports.Entry, error) {
	des, err := os.ReadDir(r.abs())
	if err != nil {
		return nil, &ports.UnavailableError{Reason: corpus.DirNotReadable, Err: err}
	}
	prefix := path.Clean(r.dir)
	var out []ports.Entry
	for _, de := range des {
		e := ports.Entry{Name: de.Name(), Path: de.Name()}
		if prefix != "." {
			e.Path = prefix + "/" + de.Name()
		}
		switch t := de.Type(); {
		case t.IsRegular():
			e.Kind = ports.KindRegular
		case t&fs.ModeSymlink != 0:
			e.Kind = ports.KindSymlink
		case t.IsDir():
			e.Kind = ports.KindDirectory
		default:
			e.Kind = ports.KindOther
		}
		out = append(out, e)
	}
	return out, nil
}

func (r dirReader) Read(_ context.Context, name string, limit int64, _ []byte) ([]byte, error) {
	p := filepath.Join(r.abs(), name)
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return nil, &ports.ReadError{Kind: ports.ReadStatFailed, Err: err}
	}
	if st.Size() > limit {
		return nil, &ports.ReadError{Kind: ports.ReadTooLarge}
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, &ports.ReadError{Kind: ports.ReadFailed, Err: err}
	}
	return b, nil
}

func (r dirReader) Verify(context.Context) error { return nil }

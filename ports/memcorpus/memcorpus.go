// Package memcorpus is an in-memory ports.CorpusReader, in the manner of
// gocloud's memblob: a real implementation of the port, held to the same
// conformance suite as the working tree and the git revision
// (ports/corpustest), for tests that need a corpus without a file system.
//
// Entries are written and removed while readers hold views, as files
// change under a working tree: a view reads what is there now, and its
// Verify reports corpus-changed-during-load when a record it read has
// been rewritten or removed since. Tests can also make an operation fail
// (FailOpen, FailList, FailRead, FailVerify) and see what the use case
// asked for (Opens, Reads).
package memcorpus

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/ports"
)

// Reader is an in-memory ADR directory. The zero value is not usable:
// call New or Load. It is safe for concurrent use.
type Reader struct {
	dir string // display path of the ADR directory, "" for the root

	mu      sync.Mutex
	entries map[string]*entry // by name, relative to the ADR directory
	version int               // bumped by every write and removal

	openErr, listErr, verifyErr error
	readErrs                    map[string]error

	opens int
	reads []string
}

type entry struct {
	kind    ports.EntryKind
	content []byte
	version int
}

// New returns an empty ADR directory whose display path, relative to the
// repository root, is dir ("/"-separated; "" for the root itself).
func New(dir string) *Reader {
	return &Reader{dir: dir, entries: map[string]*entry{}, readErrs: map[string]error{}}
}

// WriteFile makes name (relative to the ADR directory, "/"-separated) a
// regular file holding a copy of content, and every directory on the way
// a directory.
func (r *Reader) WriteFile(name string, content []byte) {
	r.put(name, ports.KindRegular, slices.Clone(content))
}

// Symlink makes name a symbolic link. A reader never follows one, so it
// has no target.
func (r *Reader) Symlink(name string) { r.put(name, ports.KindSymlink, nil) }

// Special makes name an entry that is neither a file, a directory nor a
// symbolic link (a FIFO, a socket, a device).
func (r *Reader) Special(name string) { r.put(name, ports.KindOther, nil) }

// Mkdir makes name, and every directory on the way, a directory.
func (r *Reader) Mkdir(name string) { r.put(name, ports.KindDirectory, nil) }

func (r *Reader) put(name string, kind ports.EntryKind, content []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.version++
	r.entries[name] = &entry{kind: kind, content: content, version: r.version}
	for d := path.Dir(name); d != "."; d = path.Dir(d) {
		if e, ok := r.entries[d]; !ok || e.kind != ports.KindDirectory {
			r.entries[d] = &entry{kind: ports.KindDirectory, version: r.version}
		}
	}
}

// Remove removes name and, for a directory, everything under it.
func (r *Reader) Remove(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.version++
	for n := range r.entries {
		if n == name || strings.HasPrefix(n, name+"/") {
			delete(r.entries, n)
		}
	}
}

// FailOpen makes every Open fail with err (nil: succeed again).
func (r *Reader) FailOpen(err error) { r.set(&r.openErr, err) }

// FailList makes every List fail with err (nil: succeed again).
func (r *Reader) FailList(err error) { r.set(&r.listErr, err) }

// FailVerify makes every Verify fail with err (nil: check again).
func (r *Reader) FailVerify(err error) { r.set(&r.verifyErr, err) }

func (r *Reader) set(field *error, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	*field = err
}

// FailRead makes every Read of name fail with err (nil: read again).
func (r *Reader) FailRead(name string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil {
		delete(r.readErrs, name)
		return
	}
	r.readErrs[name] = err
}

// Opens is how many times Open was called, failed calls included.
func (r *Reader) Opens() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.opens
}

// Reads lists the names Read was asked for, in the order asked.
func (r *Reader) Reads() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reads)
}

// Open returns a view of the directory as it is from now on.
func (r *Reader) Open(context.Context) (ports.ADRDir, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opens++
	if r.openErr != nil {
		return nil, r.openErr
	}
	return &view{r: r, read: map[string]int{}}, nil
}

// view is one projection's view: what it read, at which version.
type view struct {
	r    *Reader
	mu   sync.Mutex
	read map[string]int
}

func (v *view) List(_ context.Context, recursive bool) ([]ports.Entry, error) {
	r := v.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.listErr != nil {
		return nil, r.listErr
	}
	out := make([]ports.Entry, 0, len(r.entries))
	for name, e := range r.entries {
		if !recursive && strings.Contains(name, "/") {
			continue
		}
		p := name
		if r.dir != "" {
			p = r.dir + "/" + name
		}
		out = append(out, ports.Entry{Name: name, Path: p, Kind: e.kind})
	}
	slices.SortFunc(out, func(a, b ports.Entry) int { return jsstring.Compare(a.Name, b.Name) })
	return out, nil
}

func (v *view) Read(_ context.Context, name string, limit int64, buf []byte) ([]byte, error) {
	r := v.r
	r.mu.Lock()
	r.reads = append(r.reads, name)
	e, ok := r.entries[name]
	failure := r.readErrs[name]
	var content []byte
	var version int
	if ok {
		content, version = e.content, e.version
	}
	r.mu.Unlock()
	switch {
	case failure != nil:
		return nil, failure
	case !ok || e.kind != ports.KindRegular || strings.Contains(name, "/"):
		return nil, &ports.ReadError{Kind: ports.ReadStatFailed, Err: fmt.Errorf("%q is not a regular file at the top of the directory", name)}
	case int64(len(content)) > limit:
		return nil, &ports.ReadError{Kind: ports.ReadTooLarge}
	}
	v.mu.Lock()
	v.read[name] = version
	v.mu.Unlock()
	return append(buf[:0], content...), nil
}

func (v *view) Verify(context.Context) error {
	r := v.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.verifyErr != nil {
		return r.verifyErr
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for name, version := range v.read {
		if e, ok := r.entries[name]; !ok || e.version != version {
			return &ports.UnavailableError{Reason: corpus.CorpusChangedDuringLoad,
				Err: fmt.Errorf("%q changed after it was read", name)}
		}
	}
	return nil
}

// Load copies the ADR directory dir ("/"-separated, relative to the root
// of fsys; "" or "." for the root) of the repository fsys into a new
// Reader, as a working tree shows it: regular files with their bytes,
// directories, symbolic links and special files as entries. The
// repository's state becomes the Reader's Open failure, as the working
// tree reader would report it: root-not-git without a .git entry at the
// root, dir-not-found, dir-not-a-directory. Only errors reading fsys are
// returned.
func Load(fsys fs.FS, dir string) (*Reader, error) {
	dir = path.Clean(dir)
	display := dir
	if display == "." {
		display = ""
	}
	r := New(display)
	if _, err := fs.Stat(fsys, ".git"); err != nil {
		r.FailOpen(&ports.UnavailableError{Reason: corpus.RootNotGit, Err: err})
		return r, nil
	}
	st, err := fs.Stat(fsys, dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.FailOpen(&ports.UnavailableError{Reason: corpus.DirNotFound, Err: err})
		return r, nil
	case err != nil:
		return nil, fmt.Errorf("load %s: %w", dir, err)
	case !st.IsDir():
		r.FailOpen(&ports.UnavailableError{Reason: corpus.DirNotDirectory})
		return r, nil
	}
	err = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		name := strings.TrimPrefix(p, dir+"/")
		if dir == "." {
			name = p
		}
		switch t := d.Type(); {
		case t.IsDir():
			r.Mkdir(name)
		case t&fs.ModeSymlink != 0:
			r.Symlink(name)
		case t.IsRegular():
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			r.WriteFile(name, b)
		default:
			r.Special(name)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", dir, err)
	}
	return r, nil
}

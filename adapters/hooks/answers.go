package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/markers"
)

// MaxAnswers bounds the answers kept (the least recently written are
// removed first).
const MaxAnswers = 512

// An answer is kept under the hash of everything it was worked out from:
// the state of the corpus (Corpus.Key: the bytes of every record file,
// the read floor's own work, so that an answer is never older than the
// files it is read from, where the corpus is and which adrkit worked it
// out), the files asked about and what their heads
// declare. A hook that runs again on the same file of an unchanged corpus
// (the next edit of the same file, another session, a parallel agent)
// pays the floor and no parsing. Any doubt (a file that cannot be read, a
// revision instead of the working tree) means no key, and the answer is
// worked out in full.

// Corpus is the state of a corpus as the hook read it, once per run:
// the key of its state, and the record files it was read from, to tell
// whether a read of the corpus read these very bytes (Same).
type Corpus struct {
	// Key is the lower-case hex SHA-256 of the build, the root, the
	// directory and every record file: its path and the SHA-256 of its
	// bytes, or why it was left out. Nothing else of the directory is
	// read into an answer.
	Key   string
	files map[string]app.ReadFile
}

// CorpusKey is the state of the corpus in dir (absolute, as root is) as
// snapshot read it (app.Service.Snapshot), for build (BuildID).
func CorpusKey(build, root, dir string, snapshot []app.ReadFile) *Corpus {
	h := sha256.New()
	field := func(s string) { _, _ = io.WriteString(h, strconv.Itoa(len(s))+":"+s) }
	field("adrkit-hook-corpus/2")
	field(build)
	field(root)
	field(dir)
	c := &Corpus{files: make(map[string]app.ReadFile, len(snapshot))}
	for _, f := range snapshot {
		field(f.Path)
		field(strconv.Itoa(int(f.Exclusion)))
		h.Write(f.Sum[:])
		c.files[f.Path] = f
	}
	c.Key = hex.EncodeToString(h.Sum(nil))
	return c
}

// Same reports whether a read of the corpus (app.Service.IndexCorpus)
// read exactly the record files of c, byte for byte, and left out the
// same ones: then what was worked out from that read is what c.Key
// stands for, and may be kept under it without reading the directory a
// second time. Any difference is false (nothing is kept).
func (c *Corpus) Same(read []app.ReadFile) bool {
	if len(read) != len(c.files) {
		return false
	}
	for _, f := range read {
		if g, ok := c.files[f.Path]; !ok || g != f {
			return false
		}
	}
	return true
}

// AnswerKey is the key of the answer for files of the corpus c; scans
// are the files' marker scans.
func (c *Corpus) AnswerKey(files []string, scans []markers.FileScan) string {
	h := sha256.New()
	field := func(s string) { _, _ = io.WriteString(h, strconv.Itoa(len(s))+":"+s) }
	field("adrkit-hook-answer/2")
	field(c.Key)
	field(strconv.Itoa(len(files)))
	for _, f := range files {
		field(f)
	}
	for _, s := range scans {
		field(s.Path)
		field(string(s.State))
		field(strconv.FormatBool(s.Truncated) + "/" + strconv.Itoa(s.Omitted))
		for _, d := range s.Declarations {
			field(d.Ref + "@" + strconv.Itoa(d.Line))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// BuildID identifies the running adrkit for answer keys: its version
// and its executable's size and modification time (a development build
// keeps its version while its rules change).
func BuildID(version string) string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	info, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return version + "/" + strconv.FormatInt(info.Size(), 10) + "/" + strconv.FormatInt(info.ModTime().UnixNano(), 10)
}

// Answer is what is kept: the blocks and the corpus's error count.
type answerEntry struct {
	Blocks []Block `json:"blocks"`
	Errors int     `json:"errors"`
}

// LoadAnswer reads the answer kept under key in dir; false when there
// is none (or it cannot be read).
func LoadAnswer(dir, key string) ([]Block, int, bool) {
	if key == "" {
		return nil, 0, false
	}
	data, err := os.ReadFile(filepath.Join(dir, "answers", key))
	if err != nil {
		return nil, 0, false
	}
	var a answerEntry
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, 0, false
	}
	return a.Blocks, a.Errors, true
}

// StoreAnswer keeps an answer under key in dir, atomically, and removes
// the least recently written past MaxAnswers.
func StoreAnswer(dir, key string, blocks []Block, errs int) error {
	if key == "" {
		return nil
	}
	data, err := json.Marshal(answerEntry{Blocks: blocks, Errors: errs})
	if err != nil {
		return fmt.Errorf("keeping the answer: %w", err)
	}
	sub := filepath.Join(dir, "answers")
	if err := writeAtomic(sub, key, data); err != nil {
		return fmt.Errorf("keeping the answer: %w", err)
	}
	prune(sub, MaxAnswers)
	return nil
}

// writeAtomic writes data to dir/name through a temporary file renamed
// over it, so that a concurrent reader sees the old bytes or the new.
func writeAtomic(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return nil
}

// isTemp reports a temporary file of writeAtomic.
func isTemp(name string) bool { return strings.HasPrefix(name, ".") }

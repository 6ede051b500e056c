package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/markers"
)

// MaxAnswers bounds the answers kept (the least recently written are
// removed first).
const MaxAnswers = 512

// An answer is kept under the hash of everything it was worked out from:
// the bytes of every entry of the ADR directory (the read floor's own
// work, so that an answer is never older than the files it is read
// from), the files asked about and what their heads declare, where the
// corpus is, and which adrkit worked it out. A hook that runs again on
// the same file of an unchanged corpus (the next edit of the same file,
// another session, a parallel agent) pays the floor and no parsing. Any
// doubt (a file that cannot be read, a revision instead of the working
// tree) means no key, and the answer is worked out in full.

// AnswerKey is the key of the answer for files of the corpus in dir, or
// "" when none can be made. root and dir are absolute; scans are the
// files' marker scans; build identifies the adrkit that answers.
func AnswerKey(build, root, dir string, files []string, scans []markers.FileScan) string {
	h := sha256.New()
	field := func(s string) { _, _ = io.WriteString(h, strconv.Itoa(len(s))+":"+s) }
	field("adrkit-hook-answer/1")
	field(build)
	field(root)
	field(dir)
	if !digestDir(h, dir) {
		return ""
	}
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

// digestDir writes every top-level entry of dir into h: its name, its
// type and, for a regular file, the SHA-256 of its bytes. False when the
// directory or a file cannot be read.
func digestDir(h hash.Hash, dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		_, _ = fmt.Fprintf(h, "%d:%s%d;", len(e.Name()), e.Name(), e.Type())
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return false
		}
		sum := sha256.Sum256(b)
		h.Write(sum[:])
	}
	return true
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

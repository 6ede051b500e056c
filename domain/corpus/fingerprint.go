package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strconv"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// flushAt is how much canonical JSON is buffered before it is handed to
// the hash: large enough to amortise the calls, small enough that a
// corpus of many large records is never held twice in memory.
const flushAt = 64 << 10

// fingerprint hashes the canonical JSON of the projection
//
//	{"records":[{"sourcePath","frontmatter","body"}...],
//	 "corpusFindings":[finding...],
//	 "corpusHealth":{"recordCount","excludedCount"}}
//
// with every object's keys in code-unit order, which is the reference's
// form (so its published vectors check this writer). The fixed-shape
// objects are written with their keys pre-sorted instead of being built
// as values; the frontmatter is the record's own canonical text. Line
// is not part of a finding's wire shape and is not hashed.
func fingerprint(records []*adr.Record, findings []adr.Finding, recordCount, excludedCount int) string {
	w := fpWriter{h: sha256.New(), buf: make([]byte, 0, 2*flushAt)}
	w.buf = append(w.buf, `{"corpusFindings":[`...)
	for i := range findings {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.buf = appendFinding(w.buf, &findings[i])
		w.maybeFlush()
	}
	w.buf = append(w.buf, `],"corpusHealth":{"excludedCount":`...)
	w.buf = strconv.AppendInt(w.buf, int64(excludedCount), 10)
	w.buf = append(w.buf, `,"recordCount":`...)
	w.buf = strconv.AppendInt(w.buf, int64(recordCount), 10)
	w.buf = append(w.buf, `},"records":[`...)
	for i, r := range records {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.buf = append(w.buf, `{"body":`...)
		w.buf = jsvalue.AppendString(w.buf, r.Body)
		w.buf = append(w.buf, `,"frontmatter":`...)
		if r.Frontmatter != nil && r.Frontmatter.Canonical != "" {
			w.buf = append(w.buf, r.Frontmatter.Canonical...)
		} else {
			w.buf = append(w.buf, "null"...)
		}
		w.buf = append(w.buf, `,"sourcePath":`...)
		w.buf = jsvalue.AppendString(w.buf, r.SourcePath)
		w.buf = append(w.buf, '}')
		w.maybeFlush()
	}
	w.buf = append(w.buf, "]}"...)
	w.h.Write(w.buf)
	return hex.EncodeToString(w.h.Sum(nil))
}

type fpWriter struct {
	h   hash.Hash
	buf []byte
}

func (w *fpWriter) maybeFlush() {
	if len(w.buf) >= flushAt {
		w.h.Write(w.buf)
		w.buf = w.buf[:0]
	}
}

// appendFinding writes a finding's wire members in code-unit key order:
// field, id, message, path, pattern, rule, severity. Absent (empty)
// optional members are left out, never written as null.
func appendFinding(dst []byte, f *adr.Finding) []byte {
	dst = append(dst, '{')
	if f.Field != "" {
		dst = append(dst, `"field":`...)
		dst = jsvalue.AppendString(dst, f.Field)
		dst = append(dst, ',')
	}
	if f.ID != "" {
		dst = append(dst, `"id":`...)
		dst = jsvalue.AppendString(dst, f.ID)
		dst = append(dst, ',')
	}
	dst = append(dst, `"message":`...)
	dst = jsvalue.AppendString(dst, f.Message)
	if f.Path != "" {
		dst = append(dst, `,"path":`...)
		dst = jsvalue.AppendString(dst, f.Path)
	}
	if f.Pattern != "" {
		dst = append(dst, `,"pattern":`...)
		dst = jsvalue.AppendString(dst, f.Pattern)
	}
	dst = append(dst, `,"rule":`...)
	dst = jsvalue.AppendString(dst, f.Rule)
	dst = append(dst, `,"severity":`...)
	dst = jsvalue.AppendString(dst, string(f.Severity))
	return append(dst, '}')
}

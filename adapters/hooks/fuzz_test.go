package hooks

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecode: whatever a host writes, decoding never panics, an error is
// one line, and an answer to what decodes is one JSON line or nothing.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "cmd", "adrkit", "testdata", "hook", "*.json"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b), uint8(0))
		}
	}
	f.Add(`{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":7}}`, uint8(1))
	f.Add(`{"toolName":"edit","toolArgs":"{not json"}`, uint8(3))
	f.Add(`{"hook_event_name":"postToolUse","workspace_roots":[],"tool_name":"Write","tool_input":null}`, uint8(2))
	f.Fuzz(func(t *testing.T, event string, host uint8) {
		h := Hosts[int(host)%len(Hosts)]
		ev, err := Decode(h, strings.NewReader(event))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		if out := Answer(ev, "context"); out != nil && (strings.Count(string(out), "\n") != 1 || out[0] != '{') {
			t.Fatalf("answer %q", out)
		}
	})
}

// FuzzDecodeIndex: whatever an index file's body holds (past its
// checksum, which a random file never passes), decoding never panics nor
// allocates past the file's size, and what decodes encodes back to the
// same index.
func FuzzDecodeIndex(f *testing.F) {
	good := EncodeIndex(sampleIndex())
	f.Add(good[len(indexMagic) : len(good)-sha256.Size])
	f.Add([]byte{0, 0})
	f.Add([]byte{0, 1, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, body []byte) {
		data := append(bytes.Clone(indexMagic), body...)
		sum := sha256.Sum256(data)
		ix, err := DecodeIndex(append(data, sum[:]...))
		if err != nil {
			return
		}
		again, err := DecodeIndex(EncodeIndex(ix))
		if err != nil || !reflect.DeepEqual(again, ix) {
			t.Fatalf("round trip: %+v, %v; want %+v", again, err, ix)
		}
	})
}

package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

// conformanceDir is the shared conformance suite (cases, recorded answers
// of the reference, corpora). It lives outside this module; the test is
// skipped where it is absent.
func conformanceDir(t *testing.T) string {
	dir := os.Getenv("ADRKIT_CONFORMANCE")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "conformance")
	}
	if _, err := os.Stat(filepath.Join(dir, "expected")); err != nil {
		t.Skipf("conformance suite not found at %s", dir)
	}
	return dir
}

// Cases this test does not run: the ones that change the corpus under a
// running server (the filesystem adapter's business) and the one that
// crafts cursors in the reference's own encoding (ours differs by design).
var skippedCases = map[string]string{
	"cursor-crafted": "crafts cursors in the reference's encoding",
}

type confCase struct {
	Corpus   string            `json:"corpus"`
	Dir      string            `json:"dir"`
	Messages []json.RawMessage `json:"messages"`
}

// TestConformanceToolCalls runs every tools/call of the conformance cases
// through Call over a copy of the case's corpus and compares the answer
// with the reference's, under the suite's wording policy (finding
// messages, fingerprints, cursor strings and the validation detail are
// masked; everything else must be equal).
func TestConformanceToolCalls(t *testing.T) {
	base := conformanceDir(t)
	corpora := t.TempDir()
	if err := os.CopyFS(corpora, os.DirFS(filepath.Join(base, "corpora"))); err != nil {
		t.Fatal(err)
	}
	// What make-repos.sh adds: .git entries, a symlinked record, and a root
	// whose .git is a file.
	entries, _ := os.ReadDir(corpora)
	for _, e := range entries {
		if e.IsDir() {
			_ = os.Mkdir(filepath.Join(corpora, e.Name(), ".git"), 0o755)
		}
	}
	_ = os.Symlink("0120-valid-neighbor.md", filepath.Join(corpora, "invalid", "docs", "adr", "0122-symlinked-record.md"))
	if err := os.CopyFS(filepath.Join(corpora, "gitfile"), os.DirFS(filepath.Join(base, "corpora", "altdir"))); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(corpora, "gitfile", ".git"), []byte("gitdir: /nonexistent\n"), 0o644)

	files, err := filepath.Glob(filepath.Join(base, "cases", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			if why, ok := skippedCases[name]; ok {
				t.Skip(why)
			}
			runConformanceCase(t, base, corpora, name)
		})
	}
}

func runConformanceCase(t *testing.T, base, corpora, name string) {
	var c confCase
	readJSON(t, filepath.Join(base, "cases", name+".json"), &c)
	var exp struct {
		Responses []map[string]any `json:"responses"`
	}
	readJSON(t, filepath.Join(base, "expected", name+".json"), &exp)
	for _, m := range c.Messages {
		if bytes.Contains(m, []byte(`"$step"`)) {
			t.Skip("changes the corpus at run time")
		}
	}
	if c.Corpus == "" {
		c.Corpus = "main"
	}
	if c.Dir == "" {
		c.Dir = "docs/adr"
	}
	reader, err := memcorpus.Load(os.DirFS(filepath.Join(corpora, c.Corpus)), c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	svc := New(reader, Options{})

	expected := map[string]map[string]any{}
	for _, r := range exp.Responses {
		expected[idKey(r["id"])] = r
	}
	answered := map[string]any{}
	skipped := map[string]bool{}
	for _, raw := range c.Messages {
		var msg map[string]any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&msg); err != nil {
			t.Fatal(err)
		}
		if msg["method"] != "tools/call" {
			continue
		}
		key := idKey(msg["id"])
		if dependsOn(msg, skipped) {
			skipped[key] = true
			continue
		}
		msg = resolveOps(t, msg, answered).(map[string]any)
		want, ok := expected[key]
		if !ok {
			t.Fatalf("no recorded answer for id %s", key)
		}
		params, _ := msg["params"].(map[string]any)
		tool, isString := params["name"].(string)
		if !isString {
			continue // malformed params: the adapter's business
		}
		if !toolLevel(want) {
			skipped[key] = true
			continue // refused by the protocol layer before any tool runs
		}
		var args json.RawMessage
		if a, present := params["arguments"]; present {
			b, err := json.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			args = b
		}
		res, err := svc.Call(context.Background(), tool, args)
		if _, isErr := want["error"]; isErr {
			if !errors.Is(err, ErrUnknownTool) && !errors.Is(err, ErrArgumentsNotObject) {
				t.Errorf("id %s: reference answered a request error, Call gave %v / %q", key, err, res.Text)
			}
			continue
		}
		if err != nil {
			t.Fatalf("id %s: Call(%s, %s): %v", key, tool, args, err)
		}
		frame := map[string]any{"result": toGeneric(t, frameOf(res))}
		answered[key] = frame

		wantResult, _ := want["result"].(map[string]any)
		delete(wantResult, "resultType")
		delete(wantResult, "_meta")
		got, wnt := policy(frame["result"]), policy(wantResult)
		if !equalJSON(got, wnt) {
			t.Errorf("id %s: %s %s\n got: %s\nwant: %s", key, tool, args, pretty(got), pretty(wnt))
		}
	}
}

// dependsOn reports whether msg takes a value from a skipped answer.
func dependsOn(v any, skipped map[string]bool) bool {
	switch x := v.(type) {
	case map[string]any:
		if from, ok := x["$from"]; ok && skipped[idKey(from)] {
			return true
		}
		for _, c := range x {
			if dependsOn(c, skipped) {
				return true
			}
		}
	case []any:
		for _, c := range x {
			if dependsOn(c, skipped) {
				return true
			}
		}
	}
	return false
}

// toolLevel reports whether a recorded answer is one Call is responsible
// for: a tool result, or the request errors for an unknown tool and for
// arguments that are not an object. Era and envelope errors belong to
// the protocol adapter.
func toolLevel(frame map[string]any) bool {
	e, ok := frame["error"].(map[string]any)
	if !ok {
		return true
	}
	msg, _ := e["message"].(string)
	return strings.HasPrefix(msg, "Tool ") || strings.Contains(msg, `"arguments"`)
}

// frameOf is the tools/call result the adapter would send.
func frameOf(res Result) map[string]any {
	out := map[string]any{"content": []any{map[string]any{"type": "text", "text": res.Text}}}
	if res.IsError {
		out["isError"] = true
	} else {
		out["structuredContent"] = res.Structured
	}
	return out
}

var validationPrefixRE = regexp.MustCompile(`(?s)^(Input validation error: Invalid arguments for tool [A-Za-z0-9_]+:).*$`)

// policy masks what the suite leaves to our own wording (compare.py).
func policy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, c := range x {
			out[k] = policy(c)
		}
		if _, ok := x["rule"]; ok {
			if _, ok := x["severity"]; ok {
				if _, ok := x["message"].(string); ok {
					out["message"] = "<message>"
				}
			}
		}
		if _, ok := x["fingerprint"].(string); ok {
			out["fingerprint"] = "<fingerprint>"
		}
		for _, k := range []string{"cursor", "findingsCursor"} {
			if _, ok := x[k].(string); ok {
				out[k] = "<cursor>"
			}
		}
		if x["isError"] == true {
			if items, ok := out["content"].([]any); ok {
				for _, it := range items {
					if m, ok := it.(map[string]any); ok {
						if s, ok := m["text"].(string); ok {
							m["text"] = validationPrefixRE.ReplaceAllString(s, "$1 <detail>")
						}
					}
				}
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = policy(c)
		}
		return out
	}
	return v
}

// resolveOps expands the harness value operators of mcpcall.py.
func resolveOps(t *testing.T, v any, answered map[string]any) any {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		if from, ok := x["$from"]; ok && len(x) <= 2 {
			return lookup(answered[idKey(from)], x["path"])
		}
		if len(x) == 1 {
			for op, arg := range x {
				switch op {
				case "$b64url":
					inner := resolveOps(t, arg, answered)
					s, ok := inner.(string)
					if !ok {
						s = string(compactJSON(t, inner))
					}
					return base64.RawURLEncoding.EncodeToString([]byte(s))
				case "$sha256json":
					sum := sha256.Sum256(compactJSON(t, resolveOps(t, arg, answered)))
					return hex.EncodeToString(sum[:])
				case "$concat":
					var b strings.Builder
					for _, p := range resolveOps(t, arg, answered).([]any) {
						if p != nil {
							fmt.Fprint(&b, p)
						}
					}
					return b.String()
				case "$repeat":
					a := arg.([]any)
					n, _ := strconv.Atoi(a[1].(json.Number).String())
					return strings.Repeat(a[0].(string), n)
				}
			}
		}
		out := map[string]any{}
		for k, c := range x {
			out[k] = resolveOps(t, c, answered)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = resolveOps(t, c, answered)
		}
		return out
	}
	return v
}

func lookup(v any, p any) any {
	var keys []string
	switch x := p.(type) {
	case string:
		keys = strings.Split(x, ".")
	case []any:
		for _, k := range x {
			keys = append(keys, fmt.Sprint(k))
		}
	}
	for _, k := range keys {
		switch c := v.(type) {
		case map[string]any:
			v = c[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

func idKey(id any) string { return fmt.Sprint(id) }

func readJSON(t *testing.T, file string, v any) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

func compactJSON(t *testing.T, v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// toGeneric round-trips v through JSON so it compares with decoded data.
func toGeneric(t *testing.T, v any) any {
	var out any
	dec := json.NewDecoder(bytes.NewReader(compactJSON(t, v)))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, equalJSON)
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		fx, _ := x.Float64()
		fy, _ := y.Float64()
		return fx == fy
	}
	return a == b
}

func pretty(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

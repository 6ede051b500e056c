package hostconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// object is a JSON object as the file holds it: members in file order,
// each value kept as its raw text, so that what init does not touch is
// written back as it was read (numbers, escapes and key order included).
type object []member

type member struct {
	key   string
	value json.RawMessage
}

// errNotObject is a file whose top level (or a value init must extend)
// is not a JSON object.
var errNotObject = errors.New("not a JSON object")

// parseObject reads one JSON object, strictly: comments, trailing commas,
// a repeated key or text after the object are refused, because writing
// such a file back would lose something.
func parseObject(raw []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errNotObject
	}
	var o object
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string) // the decoder only yields string keys inside an object
		if seen[key] {
			return nil, fmt.Errorf("the key %q appears twice", key)
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o = append(o, member{key: key, value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the JSON object")
	}
	return o, nil
}

// get returns the raw value of key.
func (o object) get(key string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.key == key {
			return m.value, true
		}
	}
	return nil, false
}

// set replaces key's value in place, or appends the member.
func (o object) set(key string, v json.RawMessage) object {
	for i, m := range o {
		if m.key == key {
			o[i].value = v
			return o
		}
	}
	return append(o, member{key: key, value: v})
}

// child returns key's value as an object: empty when absent, an error
// when it is something else.
func (o object) child(key string) (object, error) {
	raw, ok := o.get(key)
	if !ok {
		return nil, nil
	}
	c, err := parseObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", key, err)
	}
	return c, nil
}

// array returns key's value as a list of raw values: empty when absent,
// an error when it is not an array.
func (o object) array(key string) ([]json.RawMessage, error) {
	raw, ok := o.get(key)
	if !ok {
		return nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || list == nil {
		return nil, fmt.Errorf("%q: not a JSON array", key)
	}
	return list, nil
}

// marshal writes the object compactly; format indents it.
func (o object) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// marshalArray writes a list of raw values compactly.
func marshalArray(list []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, v := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(v)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// format indents compact JSON with indent and ends it with a newline.
func format(compact []byte, indent string) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", indent); err != nil {
		// Every byte here came from the decoder or from json.Marshal.
		panic("hostconfig: indenting JSON: " + err.Error())
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// indentOf is the indentation a file already uses (its first indented
// line's leading white space), two spaces when it has none.
func indentOf(raw []byte) string {
	for _, line := range strings.Split(string(raw), "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed != "" && len(trimmed) < len(line) {
			return line[:len(line)-len(trimmed)]
		}
	}
	return "  "
}

// runsHook reports whether any string in the JSON value v is a command
// line running "adrkit hook" (IsHookCommand): how init recognises an
// entry of its own, whatever shape the host gives an entry, so that one
// the user edited (a timeout added, a path made absolute) is not added
// again.
func runsHook(v json.RawMessage) bool {
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		return false
	}
	var walk func(any) bool
	walk = func(x any) bool {
		switch x := x.(type) {
		case string:
			return IsHookCommand(x)
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(x)
}

// raw marshals a Go value the hosts' files hold (maps are written with
// sorted keys by encoding/json, so the bytes are deterministic).
func raw(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("hostconfig: encoding an entry: " + err.Error())
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

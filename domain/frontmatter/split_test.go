package frontmatter

import (
	"errors"
	"testing"
)

func TestSplit(t *testing.T) {
	missing := &FenceError{}
	unterminated := &FenceError{Unterminated: true}
	tests := []struct {
		name    string
		text    string
		yaml    string
		body    string
		wantErr *FenceError
	}{
		// The rows of corpus.md §4.
		{name: "empty file", text: "", wantErr: missing},
		{name: "byte-order mark before the fence", text: "\uFEFF---\nid: \"0001\"\n---\n", wantErr: missing},
		{name: "fence with a trailing space", text: "--- \nid: \"0016\"\n---\n", wantErr: missing},
		{name: "fence alone without newline", text: "---", wantErr: unterminated},
		{name: "fence alone with newline", text: "---\n", wantErr: unterminated},
		{name: "empty frontmatter, no newline after closing fence", text: "---\n---", yaml: "", body: ""},
		{name: "all lines CRLF", text: "---\r\nid: \"0001\"\r\n---\r\n# body\r\n", yaml: "id: \"0001\"\r\n", body: "# body\r\n"},
		{name: "LF YAML, CRLF closing fence", text: "---\nid: \"0001\"\n---\r\nBody\r\n", yaml: "id: \"0001\"\n", body: "Body\r\n"},
		{name: "old Mac CR-only file is one line", text: "---\rid: 1\r---\r", wantErr: missing},
		{name: "document end marker is not a fence", text: "---\nid: 1\n...\nbody\n", wantErr: unterminated},
		{name: "fence inside the body stays body", text: "---\nid: 1\n---\n\n```\n---\n```\n", yaml: "id: 1\n", body: "\n```\n---\n```\n"},
		// Around the edges.
		{name: "typical file", text: "---\nid: \"0001\"\ntitle: x\n---\n\n# Title\n", yaml: "id: \"0001\"\ntitle: x\n", body: "\n# Title\n"},
		{name: "four dashes do not open", text: "----\nid: 1\n---\n", wantErr: missing},
		{name: "four dashes do not close", text: "---\nid: 1\n----\n", wantErr: unterminated},
		{name: "indented fence does not close", text: "---\nid: 1\n ---\n", wantErr: unterminated},
		{name: "fence with trailing space does not close", text: "---\nid: 1\n--- \nmore\n---\nbody", yaml: "id: 1\n--- \nmore\n", body: "body"},
		{name: "only one CR is dropped", text: "---\nid: 1\n---\r\r\nbody", wantErr: unterminated},
		{name: "opening fence with CR", text: "---\r\n---\r\n", yaml: "", body: ""},
		{name: "leading blank line", text: "\n---\nid: 1\n---\n", wantErr: missing},
		{name: "closing fence at end of file", text: "---\na: 1\n---", yaml: "a: 1\n", body: ""},
		{name: "body after fence without newline", text: "---\n---body", wantErr: unterminated},
		{name: "empty body line", text: "---\na: 1\n---\n", yaml: "a: 1\n", body: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Split(tt.text)
			if tt.wantErr != nil {
				var fe *FenceError
				if !errors.As(err, &fe) {
					t.Fatalf("Split(%q) error = %v, want %#v", tt.text, err, tt.wantErr)
				}
				if *fe != *tt.wantErr {
					t.Fatalf("Split(%q) error = %#v, want %#v", tt.text, fe, tt.wantErr)
				}
				if got != (Parts{}) {
					t.Fatalf("Split(%q) parts = %#v on error, want zero", tt.text, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("Split(%q) error = %v", tt.text, err)
			}
			want := Parts{YAML: tt.yaml, YAMLLine: 2, Body: tt.body}
			if got != want {
				t.Fatalf("Split(%q) = %#v, want %#v", tt.text, got, want)
			}
		})
	}
}

func TestFenceErrorMessages(t *testing.T) {
	if (&FenceError{}).Error() == (&FenceError{Unterminated: true}).Error() {
		t.Fatal("the two fence errors must read differently")
	}
}

package mdlink

import (
	"reflect"
	"testing"
)

func TestRetarget(t *testing.T) {
	const from, to = "docs/adr/0003-batch.md", "docs/adr/0004-batch.md"
	for _, tc := range []struct {
		name, file, in, want string
		lines                []int
	}{
		{"same directory, anchor kept", "docs/adr/0002-x.md", "See [3](0003-batch.md#why) and [2](0002-x.md).\n",
			"See [3](0004-batch.md#why) and [2](0002-x.md).\n", []int{1}},
		{"dot slash and angle brackets", "docs/adr/0002-x.md", "a\n[3](./0003-batch.md) [3](<0003-batch.md>)\r\n",
			"a\n[3](./0004-batch.md) [3](<0004-batch.md>)\r\n", []int{2}},
		{"from the root", "README.md", "- [Batch](docs/adr/0003-batch.md \"title\")\n", "- [Batch](docs/adr/0004-batch.md \"title\")\n", []int{1}},
		{"from a sibling", "docs/guide/x.md", "[b](../adr/0003-batch.md)\n", "[b](../adr/0004-batch.md)\n", []int{1}},
		{"another directory's file of that name", "docs/guide/x.md", "[b](0003-batch.md)\n", "[b](0003-batch.md)\n", nil},
		{"fenced code and URLs stay", "docs/adr/0002-x.md", "```\n[3](0003-batch.md)\n```\n[w](https://x.example/docs/adr/0003-batch.md)\nplain 0003-batch.md\n",
			"```\n[3](0003-batch.md)\n```\n[w](https://x.example/docs/adr/0003-batch.md)\nplain 0003-batch.md\n", nil},
		{"an image too", "docs/adr/0002-x.md", "![d](0003-batch.md)", "![d](0004-batch.md)", []int{1}},
	} {
		got, lines := Retarget(tc.file, []byte(tc.in), from, to)
		if string(got) != tc.want || !reflect.DeepEqual(lines, tc.lines) {
			t.Errorf("%s: %q %v, want %q %v", tc.name, got, lines, tc.want, tc.lines)
		}
	}
}

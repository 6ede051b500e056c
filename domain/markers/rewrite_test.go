package markers

import (
	"reflect"
	"strings"
	"testing"
)

func TestRewrite(t *testing.T) {
	long := strings.Repeat("// filler line\n", WindowBytes/15+1)
	for _, tc := range []struct {
		name, path, in, want string
		lines                []int
	}{
		{"one marker", "a.go", "// @adr 0003\npackage a\n", "// @adr 0004\npackage a\n", []int{1}},
		{"in a list, others kept", "a.go", "package a\n\n/* @adr 0001, 0003 ,payments:0003, 0003 */\n",
			"package a\n\n/* @adr 0001, 0004 ,payments:0003, 0004 */\n", []int{3}},
		{"prose and trailing comments stay", "a.go", "x := 1 // @adr 0003\n// see @adr 0003\n// @adr 0003\n",
			"x := 1 // @adr 0003\n// see @adr 0003\n// @adr 0004\n", []int{3}},
		{"Markdown: only HTML comments", "README.md", "# @adr 0003\n<!-- @adr 0003 -->\n```\n<!-- @adr 0003 -->\n```\n",
			"# @adr 0003\n<!-- @adr 0004 -->\n```\n<!-- @adr 0003 -->\n```\n", []int{2}},
		{"CRLF and a BOM kept", "a.py", "\ufeff# @adr 0003\r\nprint(1)\r\n", "\ufeff# @adr 0004\r\nprint(1)\r\n", []int{1}},
		{"below the window stays", "a.go", long + "// @adr 0003\n", long + "// @adr 0003\n", nil},
		{"a longer id is another record", "a.go", "// @adr 00031\n", "// @adr 00031\n", nil},
		{"no final newline", "a.sh", "# @adr 0003", "# @adr 0004", []int{1}},
	} {
		got, lines := Rewrite(tc.path, []byte(tc.in), "0003", "0004")
		if string(got) != tc.want || !reflect.DeepEqual(lines, tc.lines) {
			t.Errorf("%s: %q %v, want %q %v", tc.name, got, lines, tc.want, tc.lines)
		}
	}
}

package markers

import "testing"

// TestInTreeOn: the same path on Linux, macOS and Windows. A backslash
// and a colon are parts of a name except on Windows, where a backslash
// separates and a drive makes the path absolute.
func TestInTreeOn(t *testing.T) {
	const refused = "-"
	tests := []struct {
		path             string
		unix, windowsWay string // the clean path, or refused
	}{
		{"src/x.ts", "src/x.ts", "src/x.ts"},
		{"./src//x.ts", "src/x.ts", "src/x.ts"},
		{"src/../src/x.ts", "src/x.ts", "src/x.ts"},
		{`src\x.ts`, `src\x.ts`, "src/x.ts"},
		{`.\src\x.ts`, `.\src\x.ts`, "src/x.ts"},
		{`src\..\..\x.ts`, `src\..\..\x.ts`, refused},
		{`..\x.ts`, `..\x.ts`, refused},
		{`src\..`, `src\..`, refused},
		{`\x.ts`, `\x.ts`, refused},
		{`\\host\share\x.ts`, `\\host\share\x.ts`, refused},
		{"//host/share/x.ts", refused, refused},
		{`C:\repo\x.ts`, `C:\repo\x.ts`, refused},
		{"C:/repo/x.ts", "C:/repo/x.ts", refused},
		{"c:x.ts", "c:x.ts", refused},
		{"C:", "C:", refused},
		{"1:x.ts", "1:x.ts", "1:x.ts"},
		{"src/C:x.ts", "src/C:x.ts", "src/C:x.ts"},
		{"/etc/hostname", refused, refused},
		{"", refused, refused},
		{".", refused, refused},
		{"../x.ts", refused, refused},
	}
	for _, tt := range tests {
		for _, sys := range []struct{ goos, want string }{{"linux", tt.unix}, {"darwin", tt.unix}, {"windows", tt.windowsWay}} {
			got, ok := InTreeOn(sys.goos, tt.path)
			if !ok {
				got = refused
			}
			if got != sys.want {
				t.Errorf("InTreeOn(%q, %q) = %q, want %q", sys.goos, tt.path, got, sys.want)
			}
		}
	}
}

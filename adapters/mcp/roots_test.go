package mcp

import "testing"

// TestLocalPath: a root is served only when its URI names a local
// directory: file: with an absolute path, percent-decoded; drive letters
// and shares on Windows; nothing else.
func TestLocalPath(t *testing.T) {
	cases := []struct {
		uri     string
		windows bool
		want    string // "": refused
	}{
		{"file:///home/me/repo", false, "/home/me/repo"},
		{"file://localhost/home/me/repo", false, "/home/me/repo"},
		{"FILE:///home/me/repo/", false, "/home/me/repo"},
		{"file:///home/me/my%20repo/%C3%A9t%C3%A9", false, "/home/me/my repo/été"},
		{"file:///home/me/a/../repo", false, "/home/me/repo"},
		{"file:/home/me/repo", false, "/home/me/repo"},
		{"file:///", false, "/"},
		{"file://server/share/repo", false, ""},
		{"file:///C:/work/repo", false, "/C:/work/repo"},
		{"file:relative/repo", false, ""},
		{"file://", false, ""},
		{"file:///home/me/repo?x=1", false, ""},
		{"file:///home/me/repo#top", false, ""},
		{"file:///home/me/%00repo", false, ""},
		{"file:///home/me/%zzrepo", false, ""},
		{"https://example.com/repo", false, ""},
		{"vscode-remote://ssh-remote+box/home/me/repo", false, ""},
		{"/home/me/repo", false, ""},
		{"", false, ""},

		{"file:///C:/work/my%20repo", true, `C:\work\my repo`},
		{"file:///c%3A/work/repo", true, `c:\work\repo`},
		{"file:///C:", true, `C:\`},
		{"file://C:/work/repo", true, `C:\work\repo`},
		{"file://server/share/repo", true, `\\server\share\repo`},
		{"file://localhost/D:/repo", true, `D:\repo`},
		{"file://server", true, ""},
		{"file:///work/repo", true, ""},
		{"https://example.com/repo", true, ""},
	}
	for _, tc := range cases {
		got, ok := localPath(tc.uri, tc.windows)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("localPath(%q, windows %v) = %q, %v; want %q", tc.uri, tc.windows, got, ok, tc.want)
		}
	}
}

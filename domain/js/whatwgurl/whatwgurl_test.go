package whatwgurl

import (
	"strings"
	"testing"
)

// TestCanParse pins every row of the accepted/rejected table in corpus.md
// §7.4, plus the host and port corners the WHATWG parser decides. The
// JavaScript trim that comes first is frontmatter's (TestCheckURL there).
func TestCanParse(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		// §7.4 accepted.
		{in: "https://example.com", ok: true},
		{in: "https://example.com/a b", ok: true},
		{in: "http:example.com", ok: true},
		{in: "https:/x", ok: true},
		{in: "foo:bar", ok: true},
		{in: "mailto:a@b", ok: true},
		{in: "urn:isbn:123", ok: true},
		{in: "a:", ok: true},
		{in: "a+b.c-d:x", ok: true},
		{in: "file:///etc", ok: true},
		{in: "HTTPS://X.COM", ok: true},
		{in: "https://[::1]/", ok: true},
		{in: "https://ex%41mple.com", ok: true},
		{in: "https://user:pass@host", ok: true},
		{in: "http://0x7f.1/", ok: true},
		{in: "https://a..b", ok: true},
		{in: "javascript:alert(1)", ok: true},
		{in: "data:text/plain,hi", ok: true},
		{in: "https://x.com/é", ok: true},
		// §7.4 rejected.
		{in: "http://", ok: false},
		{in: "example.com", ok: false},
		{in: "/path", ok: false},
		{in: "//host/x", ok: false},
		{in: "https://exa mple.com", ok: false},
		{in: "https://[::1/", ok: false},
		{in: "https://1.2.3.256/", ok: false},
		{in: "https://x:99999/", ok: false},
		{in: "https://x:-1/", ok: false},
		{in: "1a:b", ok: false},
		{in: "https://xn--a.com", ok: false},
		{in: "https://xn--/", ok: false},
		{in: "https://ex^ample.com", ok: false},
		{in: "https://ex|ample.com", ok: false},
		{in: "ht tp://x", ok: false},
		{in: "https://%zz", ok: false},
		{in: "https://@/", ok: false},
		{in: "", ok: false},
		// Further corners.
		{in: "   ", ok: false},
		{in: "https://exa\nmple.com", ok: true},
		{in: "https://example.com:", ok: true},
		{in: "https://example.com:65535/", ok: true},
		{in: "https://example.com:65536/", ok: false},
		{in: "https://:80/", ok: false},
		{in: "https://a@b@c/", ok: true},
		{in: "https://bücher.example/", ok: true},
		{in: "https://xn--bcher-kva.example/", ok: true},
		{in: "https://xn--ab-.example/", ok: false},
		{in: "https://%C2%AD/", ok: false},
		{in: "https://%FF/", ok: false},
		{in: "https://EXAMPLE.com./", ok: true},
		{in: "https://1.2.3.4.5/", ok: false},
		{in: "https://0x100000000/", ok: false},
		{in: "https://4294967295/", ok: true},
		{in: "https://09/", ok: false},
		{in: "https://1.2.3.4x/", ok: true},
		{in: "https://[1:2:3:4:5:6:7:8]/", ok: true},
		{in: "https://[1:2:3:4:5:6:7:8:9]/", ok: false},
		{in: "https://[::ffff:1.2.3.4]/", ok: true},
		{in: "https://[::1.2.3]/", ok: false},
		{in: "https://[1::2::3]/", ok: false},
		{in: "https://[g::]/", ok: false},
		{in: "https://ex\\ample.com", ok: true},
		{in: "foo://", ok: true},
		{in: "foo://:1", ok: false},
		{in: "foo://h:1x", ok: false},
		{in: "foo://exa mple/", ok: false},
		{in: "foo://@", ok: false},
		{in: "foo://[::1]:8/x", ok: true},
		{in: "foo://a\\b", ok: false},
		{in: "file://C:/x", ok: true},
		{in: "file://exa mple/", ok: false},
		{in: "file:relative", ok: true},
		{in: "file://localhost/etc", ok: true},
		{in: "ws://x", ok: true},
		{in: "https://x?#", ok: true},
		{in: "https://a_b.example/", ok: true},
		{in: "https://example\u3002com/", ok: true},
		{in: "https://ex%2Eample.com/", ok: true},
		{in: "https://%00/", ok: false},
		{in: "https://a\u200db.example/", ok: false},
		{in: "https://-a-.example/", ok: true},
		{in: "https://" + strings.Repeat("a", 70) + ".example/", ok: true},
		{in: "https://\u00adexample.com/", ok: true},
		{in: " https://Example.com/a b ", ok: true},
		{in: "\x01https://example.com/", ok: true},
		{in: "\u3000https://example.com", ok: false},
	}
	for _, tt := range tests {
		if got := CanParse(tt.in); got != tt.ok {
			t.Errorf("CanParse(%q) = %v, want %v", tt.in, got, tt.ok)
		}
	}
}

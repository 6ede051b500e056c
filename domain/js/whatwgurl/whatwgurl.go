// Package whatwgurl answers one question the way a JavaScript runtime
// does: would `new URL(s)`, with no base URL, accept s? Frontmatter's url
// fields must be absolute URLs by exactly that rule (corpus.md §7.4).
//
// Only acceptance matters, so the parser walks the states of the WHATWG
// URL Standard's basic URL parser that can fail (scheme, authority, host,
// port) and keeps no serialisation: paths, queries, fragments and
// credentials never make parsing fail. ADR 0041 records why no library is
// used instead.
package whatwgurl

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/net/idna"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// CanParse reports whether the WHATWG basic URL parser, run without a base
// URL, accepts s: JavaScript's URL.canParse(s). The places that can fail
// (scheme, host, port) are followed exactly.
func CanParse(s string) bool {
	// The parser first drops leading and trailing C0 controls and spaces,
	// then every tab and newline anywhere in the input.
	s = strings.TrimFunc(s, func(r rune) bool { return r <= 0x20 })
	in := make([]rune, 0, len(s))
	for _, r := range s {
		if r != '\t' && r != '\n' && r != '\r' {
			in = append(in, r)
		}
	}
	if len(in) == 0 || !isASCIIAlpha(in[0]) {
		return false // without a base URL there must be a scheme
	}
	i := 1
	for i < len(in) && (isASCIIAlphanumeric(in[i]) || in[i] == '+' || in[i] == '-' || in[i] == '.') {
		i++
	}
	if i == len(in) || in[i] != ':' {
		return false
	}
	scheme := strings.ToLower(string(in[:i]))
	rest := in[i+1:]
	switch scheme {
	case "file":
		return fileURLOK(rest)
	case "http", "https", "ws", "wss", "ftp":
		// Any run of slashes (either direction) before the authority is
		// tolerated: "http:example.com" and "https:/x" both have a host.
		for len(rest) > 0 && (rest[0] == '/' || rest[0] == '\\') {
			rest = rest[1:]
		}
		return authorityOK(rest, true)
	}
	if len(rest) >= 2 && rest[0] == '/' && rest[1] == '/' {
		return authorityOK(rest[2:], false)
	}
	// A path or an opaque path: nothing in it can fail.
	return true
}

// authorityOK checks the authority that starts rest, up to the first path,
// query or fragment delimiter.
func authorityOK(rest []rune, special bool) bool {
	end := len(rest)
	for j, r := range rest {
		if r == '/' || r == '?' || r == '#' || (special && r == '\\') {
			end = j
			break
		}
	}
	hostport := rest[:end]
	// Credentials end at the last "@"; they are percent-encoded, never
	// rejected, but an "@" must be followed by a host.
	for j := len(hostport) - 1; j >= 0; j-- {
		if hostport[j] == '@' {
			hostport = hostport[j+1:]
			if len(hostport) == 0 {
				return false
			}
			break
		}
	}
	host, port, hasPort := hostport, []rune(nil), false
	inBrackets := false
	for j, r := range hostport {
		switch r {
		case '[':
			inBrackets = true
		case ']':
			inBrackets = false
		case ':':
			if !inBrackets {
				host, port, hasPort = hostport[:j], hostport[j+1:], true
			}
		}
		if hasPort {
			break
		}
	}
	if len(host) == 0 {
		// A special URL needs a host; any URL needs one before a port.
		if special || hasPort {
			return false
		}
		return true
	}
	if !hostOK(host, special) {
		return false
	}
	return portOK(port)
}

// portOK accepts an empty port or decimal digits up to 65535.
func portOK(port []rune) bool {
	n := 0
	for _, r := range port {
		if r < '0' || r > '9' {
			return false
		}
		n = n*10 + int(r-'0')
		if n > 65535 {
			return false
		}
	}
	return true
}

// fileURLOK follows the file, file slash and file host states.
func fileURLOK(rest []rune) bool {
	if len(rest) == 0 || (rest[0] != '/' && rest[0] != '\\') {
		return true
	}
	rest = rest[1:]
	if len(rest) == 0 || (rest[0] != '/' && rest[0] != '\\') {
		return true
	}
	rest = rest[1:]
	end := len(rest)
	for j, r := range rest {
		if r == '/' || r == '\\' || r == '?' || r == '#' {
			end = j
			break
		}
	}
	host := rest[:end]
	if len(host) == 0 {
		return true
	}
	if len(host) == 2 && isASCIIAlpha(host[0]) && (host[1] == ':' || host[1] == '|') {
		return true // a Windows drive letter is a path, not a host
	}
	return hostOK(host, true)
}

// hostOK is the WHATWG host parser's verdict. Special URLs get a domain
// (IDNA-mapped, then possibly IPv4); others an opaque host.
func hostOK(host []rune, special bool) bool {
	if host[0] == '[' {
		if host[len(host)-1] != ']' || len(host) < 2 {
			return false
		}
		return ipv6OK(host[1 : len(host)-1])
	}
	if !special {
		for _, r := range host {
			if isForbiddenHost(r) {
				return false
			}
		}
		return true
	}
	domain := jsstring.DecodeUTF8(percentDecode(string(host)))
	ascii, ok := domainToASCII(domain)
	if !ok {
		return false
	}
	if endsInNumber(ascii) {
		return ipv4OK(ascii)
	}
	return true
}

// percentDecode turns each %XX into its byte and leaves every other byte,
// including a "%" not followed by two hex digits, as it is.
func percentDecode(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if b, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				out = append(out, byte(b))
				i += 2
				continue
			}
		}
		out = append(out, s[i])
	}
	return out
}

// lookupIDNA is UTS #46 ToASCII with the options the URL standard uses:
// non-transitional, hyphens unchecked, joiners and bidi checked, STD3 rules
// and DNS length off. Built on first use: most processes check no URL.
var lookupIDNA = sync.OnceValue(func() *idna.Profile {
	return idna.New(
		idna.MapForLookup(),
		idna.Transitional(false),
		idna.CheckHyphens(false),
		idna.CheckJoiners(true),
		idna.BidiRule(),
		idna.StrictDomainName(false),
		idna.VerifyDNSLength(false),
	)
})

// domainToASCII is the URL standard's "domain to ASCII" with beStrict
// false. x/net/idna lets an empty "xn--" label through, which UTS #46 and
// every browser reject, so A-labels are checked once more here.
func domainToASCII(domain string) (string, bool) {
	ascii, err := lookupIDNA().ToASCII(domain)
	if err != nil || ascii == "" {
		return "", false
	}
	for _, label := range strings.Split(ascii, ".") {
		if len(label) >= 4 && strings.EqualFold(label[:4], "xn--") {
			u, err := idna.Punycode.ToUnicode(label)
			if err != nil || u == "" || isASCIIString(u) {
				return "", false
			}
		}
	}
	for _, r := range ascii {
		if isForbiddenDomain(r) {
			return "", false
		}
	}
	return ascii, true
}

// endsInNumber reports whether the last non-empty label is all digits or a
// 0x hex number, which makes the host an IPv4 address (or a failure).
func endsInNumber(s string) bool {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := ipv4Number(last)
	return ok
}

// ipv4OK is the IPv4 parser: up to four dot-separated numbers in decimal,
// octal (leading 0) or hex (0x), the last one filling the remaining bytes.
func ipv4OK(s string) bool {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return false
		}
	}
	limit := uint64(1) << (8 * (5 - len(nums)))
	return nums[len(nums)-1] < limit
}

// ipv4Number parses one IPv4 part: decimal, octal after a leading 0, hex
// after 0x. A part too large for 64 bits is still a number, as in the
// standard's arbitrary-precision arithmetic, and then fails the range
// check.
func ipv4Number(s string) (uint64, bool) {
	base, digits := 10, "0123456789"
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		if s = s[2:]; s == "" {
			return 0, true // "0x" alone is zero
		}
		base, digits = 16, "0123456789abcdefABCDEF"
	case len(s) >= 2 && s[0] == '0':
		base, digits, s = 8, "01234567", s[1:]
	}
	if s == "" || strings.Trim(s, digits) != "" {
		return 0, false
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return math.MaxUint64, true // the digits are valid: only overflow is left
	}
	return n, true
}

// ipv6OK is the IPv6 parser of the URL standard (validity only).
func ipv6OK(in []rune) bool {
	at := func(i int) rune {
		if i < len(in) {
			return in[i]
		}
		return -1
	}
	piece, compress, p := 0, -1, 0
	if at(p) == ':' {
		if at(p+1) != ':' {
			return false
		}
		p += 2
		piece++
		compress = piece
	}
	for at(p) != -1 {
		if piece == 8 {
			return false
		}
		if at(p) == ':' {
			if compress != -1 {
				return false
			}
			p++
			piece++
			compress = piece
			continue
		}
		length := 0
		for length < 4 && isHex(at(p)) {
			p++
			length++
		}
		if at(p) == '.' {
			if length == 0 {
				return false
			}
			p -= length
			if piece > 6 {
				return false
			}
			seen := 0
			for at(p) != -1 {
				value := -1
				if seen > 0 {
					if at(p) == '.' && seen < 4 {
						p++
					} else {
						return false
					}
				}
				if at(p) < '0' || at(p) > '9' {
					return false
				}
				for at(p) >= '0' && at(p) <= '9' {
					d := int(at(p) - '0')
					switch value {
					case -1:
						value = d
					case 0:
						return false
					default:
						value = value*10 + d
					}
					if value > 255 {
						return false
					}
					p++
				}
				seen++
				if seen == 2 || seen == 4 {
					piece++
				}
			}
			return seen == 4 && (compress != -1 || piece == 8)
		}
		if at(p) == ':' {
			p++
			if at(p) == -1 {
				return false
			}
		} else if at(p) != -1 {
			return false
		}
		piece++
	}
	return compress != -1 || piece == 8
}

func isForbiddenHost(r rune) bool {
	switch r {
	case 0, '\t', '\n', '\r', ' ', '#', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
		return true
	}
	return false
}

func isForbiddenDomain(r rune) bool {
	return isForbiddenHost(r) || r <= 0x1F || r == '%' || r == 0x7F
}

func isASCIIAlpha(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

func isASCIIAlphanumeric(r rune) bool { return isASCIIAlpha(r) || r >= '0' && r <= '9' }

func isHex(r rune) bool { return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' }

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

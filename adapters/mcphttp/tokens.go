package mcphttp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// maxTokenFileBytes bounds the token file: a few thousand tokens fit.
const maxTokenFileBytes = 1 << 20

// minTokenLength is the shortest plain token the token file accepts: 16
// characters of a base64 alphabet carry 96 bits, beyond guessing over
// HTTP. A digest line can say nothing about the length of its token.
const minTokenLength = 16

// Tokens is the set of bearer tokens the server accepts, kept only as
// SHA-256 digests: the scoped ones of the config file, fixed for the life
// of the process, and those of the token file, which reach every corpus
// and are read again by Reload. It is safe for concurrent use.
//
// A presented token is hashed once and its digest compared with every
// known digest in constant time (crypto/subtle), without stopping at the
// first match, so the time taken says nothing about which digest, if any,
// came close.
type Tokens struct {
	file   string
	scoped []grant

	reloading sync.Mutex
	current   atomic.Pointer[[]grant]
}

// grant is what one digest may read: every corpus, or the listed ones.
type grant struct {
	digest  [sha256.Size]byte
	all     bool
	corpora []string
}

// access is what a presented token may read, the union of its grants,
// and the token's digest, which its share of the places in flight is
// counted by.
type access struct {
	all     bool
	corpora []string
	digest  [sha256.Size]byte
}

func (a access) covers(name string) bool { return a.all || slices.Contains(a.corpora, name) }

// TokenFileError is a token file that cannot be used: unreadable, empty
// of tokens, or with a line that is neither a token nor a digest. It never
// quotes a line: the line may be a secret.
type TokenFileError struct {
	// Path is the token file.
	Path string
	// Line is the 1-based line at fault, or 0 for the file as a whole.
	Line int
	// Problem says what is wrong.
	Problem string
	// Err is the underlying read failure, when there is one.
	Err error
}

func (e *TokenFileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("token file %s, line %d: %s", e.Path, e.Line, e.Problem)
	}
	return fmt.Sprintf("token file %s: %s", e.Path, e.Problem)
}

func (e *TokenFileError) Unwrap() error { return e.Err }

// LoadTokens reads the token file at file (none when empty) and adds the
// config file's scoped tokens (taken as validated by ParseConfig). It
// fails with a *TokenFileError when the file is unusable, and when there
// would be no token at all: asking for authentication and getting a set
// that lets nobody in is a mistake worth stopping for.
func LoadTokens(file string, scoped []TokenConfig) (*Tokens, error) {
	t := &Tokens{file: file}
	for i, tc := range scoped {
		d, err := parseDigest(tc.SHA256)
		if err != nil {
			return nil, fmt.Errorf("tokens[%d].sha256: %w", i, err)
		}
		t.scoped = append(t.scoped, grant{digest: d, corpora: slices.Clone(tc.Corpora)})
	}
	var fromFile []grant
	if file != "" {
		var err error
		if fromFile, err = readTokenFile(file); err != nil {
			return nil, err
		}
	} else if len(t.scoped) == 0 {
		return nil, errors.New("no tokens: give a token file or tokens in the config file")
	}
	t.install(fromFile)
	return t, nil
}

// Reload reads the token file again and, if it is usable, puts its tokens
// in place of the previous ones for every request that starts afterwards.
// A file that cannot be used, or a ctx that ended while it was read,
// leaves the previous tokens in force; the error says why. Without a token
// file it does nothing. Server.Run calls it on SIGHUP.
func (t *Tokens) Reload(ctx context.Context) error {
	if t.file == "" {
		return nil
	}
	t.reloading.Lock()
	defer t.reloading.Unlock()
	fromFile, err := readTokenFile(t.file)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		// Given up while it read: whoever gave up said the previous
		// tokens stay, and so they do.
		return fmt.Errorf("token file %s read too late: %w", t.file, err)
	}
	t.install(fromFile)
	return nil
}

// HasFile reports whether the tokens include a token file's, which Reload
// reads again.
func (t *Tokens) HasFile() bool { return t != nil && t.file != "" }

// Len is the number of distinct digests in force.
func (t *Tokens) Len() int { return len(*t.current.Load()) }

// install merges the token file's grants with the scoped ones: a digest
// listed in both may read what either grants.
func (t *Tokens) install(fromFile []grant) {
	merged := slices.Clone(fromFile)
	for _, s := range t.scoped {
		i := slices.IndexFunc(merged, func(g grant) bool { return g.digest == s.digest })
		if i < 0 {
			merged = append(merged, s)
			continue
		}
		if !merged[i].all {
			merged[i].corpora = append(slices.Clone(merged[i].corpora), s.corpora...)
		}
	}
	t.current.Store(&merged)
}

// lookup says what the presented token may read; ok is false for a token
// nobody granted.
func (t *Tokens) lookup(token string) (a access, ok bool) {
	presented := sha256.Sum256([]byte(token))
	a.digest = presented
	for _, g := range *t.current.Load() {
		if subtle.ConstantTimeCompare(presented[:], g.digest[:]) == 1 {
			ok = true
			a.all = a.all || g.all
			a.corpora = append(a.corpora, g.corpora...)
		}
	}
	return a, ok
}

// readTokenFile parses the token file: one entry per line, either a token
// or "sha256:" and the 64 hex digits of a token's digest. Surrounding
// blanks and a carriage return are ignored, and so are empty lines and
// lines whose first non-blank character is "#". Every entry reaches every
// corpus.
func readTokenFile(path string) ([]grant, error) {
	data, err := readBounded(path, maxTokenFileBytes)
	if err != nil {
		return nil, &TokenFileError{Path: path, Problem: err.Error(), Err: err}
	}
	var grants []grant
	seen := map[[sha256.Size]byte]bool{}
	for i, line := range bytes.Split(data, []byte("\n")) {
		entry := strings.TrimSpace(string(line))
		if entry == "" || strings.HasPrefix(entry, "#") {
			continue
		}
		var d [sha256.Size]byte
		if hexDigest, isDigest := strings.CutPrefix(entry, "sha256:"); isDigest {
			if d, err = parseDigest(hexDigest); err != nil {
				return nil, &TokenFileError{Path: path, Line: i + 1, Problem: "after \"sha256:\" " + err.Error()}
			}
		} else {
			if problem := checkToken(entry); problem != "" {
				return nil, &TokenFileError{Path: path, Line: i + 1, Problem: problem}
			}
			d = sha256.Sum256([]byte(entry))
		}
		if !seen[d] {
			seen[d] = true
			grants = append(grants, grant{digest: d, all: true})
		}
	}
	if len(grants) == 0 {
		return nil, &TokenFileError{Path: path, Problem: "holds no token (every line is empty or a comment)"}
	}
	return grants, nil
}

// checkToken says what is wrong with a plain token of the token file, or
// "" when nothing is: it must be something a client can send as a bearer
// token (RFC 6750's b64token) and long enough not to be guessed.
func checkToken(token string) string {
	if !isB64Token(token) {
		return "not a token: a bearer token is letters, digits and -._~+/, with optional = at the end, and no blanks"
	}
	if len(token) < minTokenLength {
		return fmt.Sprintf("token too short: use at least %d characters (or write its sha256: digest)", minTokenLength)
	}
	return ""
}

// isB64Token reports whether s matches RFC 6750's b64token:
// 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
func isB64Token(s string) bool {
	body := strings.TrimRight(s, "=")
	if body == "" {
		return false
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/':
		default:
			return false
		}
	}
	return true
}

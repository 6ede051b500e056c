package mcphttp

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// maxConfigBytes bounds the --config file: a configuration is a few
// kilobytes; anything near this size is a mistake (a wrong path).
const maxConfigBytes = 1 << 20

// Config is the --config file: the corpora the server offers, each at
// /mcp/<name>, the tokens that may read them, and the browser origins and
// host names it answers beyond the defaults. LoadConfig reads and validates
// it; a Config it returns is valid.
type Config struct {
	// Corpora are the repositories served, in the file's order.
	Corpora []CorpusConfig `json:"corpora"`
	// Auth says whether requests need a token: AuthTokens (the default)
	// requires at least one token, here or from --token-file; AuthNone
	// serves without any, which only a loopback address allows, and lists
	// none. A config file never serves without authentication by leaving
	// tokens out.
	Auth string `json:"auth,omitempty"`
	// Tokens grant bearer tokens, by their SHA-256 digest, access to some
	// of the corpora. Tokens from --token-file (which reach every corpus)
	// come on top of these.
	Tokens []TokenConfig `json:"tokens,omitempty"`
	// AllowedHosts are extra names a request's Host header may carry (a
	// Service or Ingress name). See Options.AllowedHosts.
	AllowedHosts []string `json:"allowedHosts,omitempty"`
	// AllowedOrigins are browser origins ("https://console.example.com")
	// allowed to call the server across origins. See
	// Options.AllowedOrigins.
	AllowedOrigins []string `json:"allowedOrigins,omitempty"`
	// Limits change the server's limits; each one left out keeps its
	// default.
	Limits Limits `json:"limits,omitzero"`
}

// The values of Config.Auth.
const (
	// AuthTokens requires a bearer token on every MCP request.
	AuthTokens = "tokens"
	// AuthNone serves without authentication, on loopback only.
	AuthNone = "none"
)

// Limits are the limits of the HTTP server a config file may change (the
// fields of Options and ServerOptions of the same names); zero keeps the
// default.
type Limits struct {
	ReadHeaderTimeout Duration `json:"readHeaderTimeout,omitempty"`
	ReadTimeout       Duration `json:"readTimeout,omitempty"`
	WriteTimeout      Duration `json:"writeTimeout,omitempty"`
	IdleTimeout       Duration `json:"idleTimeout,omitempty"`
	MaxBodyBytes      int64    `json:"maxBodyBytes,omitempty"`
	MaxInFlight       int      `json:"maxInFlight,omitempty"`
	MaxBodies         int      `json:"maxBodies,omitempty"`
	MaxConns          int      `json:"maxConns,omitempty"`
	MaxNewConns       int      `json:"maxNewConns,omitempty"`
	FirstByteTimeout  Duration `json:"firstByteTimeout,omitempty"`
	MaxStreams        int      `json:"maxStreams,omitempty"`
	StreamLife        Duration `json:"streamLife,omitempty"`
}

// Duration is a time.Duration written as Go writes one ("5s", "1m30s").
type Duration time.Duration

// UnmarshalJSON reads a duration string; a bare number is refused, since
// it would not say its unit.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration is written with its unit, like 5s or 2m, not %s", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("a duration is written with its unit, like 5s or 2m, not %q", s)
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes the duration as UnmarshalJSON reads it.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// CorpusConfig is one served repository: the flags --cwd, --dir and --rev
// of the stdio server, under a name.
type CorpusConfig struct {
	// Name is the last segment of the corpus's URL path, /mcp/<name>.
	Name string `json:"name"`
	// Cwd is the repository root: a worktree, or with Rev a bare mirror.
	// A relative path is taken from the directory holding the config file.
	Cwd string `json:"cwd"`
	// Dir is the ADR directory inside the repository; empty means the
	// server's default (docs/adr), "." the root itself.
	Dir string `json:"dir,omitempty"`
	// Rev, when set, serves the ADR directory as of this git revision
	// (origin/main of a mirror, a tag, a hash) instead of the worktree.
	Rev string `json:"rev,omitempty"`
}

// TokenConfig grants the token whose SHA-256 digest is SHA256 access to
// the named corpora.
type TokenConfig struct {
	// SHA256 is the hex SHA-256 digest of the token (64 hex digits).
	SHA256 string `json:"sha256"`
	// Corpora are the names of the corpora the token may read; at least
	// one.
	Corpora []string `json:"corpora"`
}

// ConfigError lists everything wrong with a config file, one problem per
// entry, each naming where it is (corpora[2].name, tokens[0].sha256, …).
type ConfigError struct {
	// Path is the config file.
	Path string
	// Problems are the findings, in the order of the file.
	Problems []string
	// Err is the underlying read or decode failure, when there is one.
	Err error
}

func (e *ConfigError) Error() string {
	return "config " + e.Path + ": " + strings.Join(e.Problems, "; ")
}

func (e *ConfigError) Unwrap() error { return e.Err }

// LoadConfig reads the YAML config file at path strictly (an unknown or
// repeated key is an error, so a misspelt "tokens" cannot silently serve
// without them) and validates it. Relative corpus roots are made absolute
// against the file's directory. Every failure is a *ConfigError.
func LoadConfig(path string) (*Config, error) {
	data, err := readBounded(path, maxConfigBytes)
	if err != nil {
		return nil, &ConfigError{Path: path, Problems: []string{err.Error()}, Err: err}
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			ce.Path = path
		}
		return nil, err
	}
	base := filepath.Dir(path)
	for i := range cfg.Corpora {
		cfg.Corpora[i].Cwd = fromConfigDir(base, cfg.Corpora[i].Cwd)
	}
	return cfg, nil
}

// fromConfigDir resolves a corpus root written in the config file at
// base: an absolute path as it is, a relative one from base. On Windows a
// path rooted without a drive ("/srv/x", `\srv\x`) is absolute on the
// drive holding the config file, as the system reads it from there; it
// is not a path below base.
func fromConfigDir(base, p string) string {
	switch {
	case filepath.IsAbs(p):
		return p
	case filepath.VolumeName(p) == "" && len(p) > 0 && os.IsPathSeparator(p[0]):
		return filepath.Join(filepath.VolumeName(base), p)
	default:
		return filepath.Join(base, p)
	}
}

// ParseConfig decodes and validates the YAML of a config file. It is
// LoadConfig without the file: relative corpus roots are left as written.
func ParseConfig(data []byte) (*Config, error) {
	var cfg Config
	if err := yaml.UnmarshalStrict(data, &cfg); err != nil {
		return nil, &ConfigError{Problems: []string{describeDecodeError(err)}, Err: err}
	}
	if problems := cfg.validate(); len(problems) > 0 {
		return nil, &ConfigError{Problems: problems}
	}
	for i := range cfg.Tokens {
		cfg.Tokens[i].SHA256 = strings.ToLower(cfg.Tokens[i].SHA256)
	}
	for i, h := range cfg.AllowedHosts {
		cfg.AllowedHosts[i] = normalHost(h)
	}
	return &cfg, nil
}

// describeDecodeError words a failure of sigs.k8s.io/yaml: its messages
// carry the prefixes of the two decoding stages, which say nothing to the
// person who wrote the file.
func describeDecodeError(err error) string {
	msg := err.Error()
	for _, prefix := range []string{"error converting YAML to JSON: ", "error unmarshaling JSON: ", "while decoding JSON: ", "json: "} {
		msg = strings.ReplaceAll(msg, prefix, "")
	}
	return strings.Join(strings.Fields(msg), " ")
}

// validate returns every problem of a decoded config, in file order.
func (c *Config) validate() []string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	if len(c.Corpora) == 0 {
		add("corpora: at least one corpus is needed")
	}
	names := map[string]int{}
	for i, corpus := range c.Corpora {
		if err := CheckName(corpus.Name); err != nil {
			add("corpora[%d].name: %v", i, err)
		} else if first, dup := names[corpus.Name]; dup {
			add("corpora[%d].name: %q is already the name of corpora[%d]", i, corpus.Name, first)
		} else {
			names[corpus.Name] = i
		}
		if strings.TrimSpace(corpus.Cwd) == "" {
			add("corpora[%d].cwd: the repository root is required", i)
		}
	}

	switch c.Auth {
	case "", AuthTokens:
	case AuthNone:
		if len(c.Tokens) > 0 {
			add("auth: none, but tokens are listed: remove one or the other")
		}
	default:
		add("auth: %q is not tokens or none", c.Auth)
	}

	digests := map[string]int{}
	for i, tok := range c.Tokens {
		digest := strings.ToLower(tok.SHA256)
		if _, err := parseDigest(tok.SHA256); err != nil {
			hint := ""
			if len(tok.SHA256) != 64 && strings.Trim(tok.SHA256, "0123456789.e+-") == "" {
				hint = ` (YAML read it as a number: quote the digest, "…")`
			}
			add("tokens[%d].sha256: %v%s", i, err, hint)
		} else if first, dup := digests[digest]; dup {
			add("tokens[%d].sha256: the same digest as tokens[%d]; list every corpus of a token in one entry", i, first)
		} else {
			digests[digest] = i
		}
		if len(tok.Corpora) == 0 {
			add("tokens[%d].corpora: name at least one corpus", i)
		}
		seen := map[string]bool{}
		for j, name := range tok.Corpora {
			switch {
			case seen[name]:
				add("tokens[%d].corpora[%d]: %q is listed twice", i, j, name)
			case !hasKey(names, name) && CheckName(name) == nil:
				add("tokens[%d].corpora[%d]: no corpus is named %q", i, j, name)
			case !hasKey(names, name):
				add("tokens[%d].corpora[%d]: no corpus is named %q (not a valid name either)", i, j, name)
			}
			seen[name] = true
		}
	}

	for i, h := range c.AllowedHosts {
		if err := checkHostName(h); err != nil {
			add("allowedHosts[%d]: %v", i, err)
		}
	}
	for i, o := range c.AllowedOrigins {
		// The same parser that will enforce the origin judges it here.
		if err := http.NewCrossOriginProtection().AddTrustedOrigin(o); err != nil {
			add("allowedOrigins[%d]: %q is not an origin (scheme://host[:port], nothing after): %v", i, o, err)
		}
	}
	l := c.Limits
	for _, d := range []struct {
		key string
		v   Duration
	}{{"readHeaderTimeout", l.ReadHeaderTimeout}, {"readTimeout", l.ReadTimeout}, {"writeTimeout", l.WriteTimeout}, {"idleTimeout", l.IdleTimeout}, {"streamLife", l.StreamLife}, {"firstByteTimeout", l.FirstByteTimeout}} {
		if d.v < 0 {
			add("limits.%s: must be positive", d.key)
		}
	}
	for _, n := range []struct {
		key string
		v   int64
	}{{"maxBodyBytes", l.MaxBodyBytes}, {"maxInFlight", int64(l.MaxInFlight)}, {"maxBodies", int64(l.MaxBodies)}, {"maxConns", int64(l.MaxConns)}, {"maxNewConns", int64(l.MaxNewConns)}, {"maxStreams", int64(l.MaxStreams)}} {
		if n.v < 0 {
			add("limits.%s: must be positive", n.key)
		}
	}
	return problems
}

func hasKey(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

// namePattern is what a corpus name may be: one URL path segment that
// needs no escaping and is never "." or "..".
var namePattern = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// CheckName says whether name can name a corpus: 1 to 64 characters,
// letters, digits, ".", "_" and "-", starting with a letter or digit, so
// that /mcp/<name> needs no escaping.
func CheckName(name string) error {
	if !namePattern.MatchString(name) {
		return fmt.Errorf("%q is not a corpus name: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	return nil
}

// parseDigest decodes a SHA-256 digest written as 64 hex digits.
func parseDigest(s string) ([32]byte, error) {
	var d [32]byte
	if len(s) != 64 {
		return d, fmt.Errorf("a SHA-256 digest is 64 hex digits, got %d characters", len(s))
	}
	if _, err := hex.Decode(d[:], []byte(s)); err != nil {
		return d, errors.New("a SHA-256 digest is 64 hex digits (0-9, a-f)")
	}
	return d, nil
}

// checkHostName says whether h can be compared with a Host header: a DNS
// name or an IP address, without scheme, port or path.
func checkHostName(h string) error {
	if h == "" {
		return errors.New("empty host name")
	}
	bare := strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if _, err := netip.ParseAddr(bare); err == nil {
		return nil
	}
	for _, label := range strings.Split(strings.TrimSuffix(h, "."), ".") {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") ||
			strings.TrimLeft(strings.ToLower(label), "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return fmt.Errorf("%q is not a host name (a DNS name or an IP address, without scheme, port or path)", h)
		}
	}
	return nil
}

// normalHost is the form host names are compared in: lower case, no
// brackets around an IPv6 address, no trailing dot.
func normalHost(h string) string {
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// readBounded reads the regular file at path (a symbolic link to one
// too: a Kubernetes Secret's files are links), refusing one larger than
// limit and any other kind of file without opening it: opening a FIFO
// waits for a writer, and a device may do anything. What path names can
// change between the look and the open, so it is opened without waiting
// (O_NONBLOCK, where the system has it) and what was opened is looked at
// again.
func readBounded(path string, limit int64) ([]byte, error) {
	if info, err := os.Stat(path); err != nil {
		return nil, err
	} else if !info.Mode().IsRegular() {
		return nil, notRegular(path)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlocking, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil {
		return nil, err
	} else if !info.Mode().IsRegular() {
		return nil, notRegular(path)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return data, nil
}

func notRegular(path string) error { return fmt.Errorf("%s is not a regular file", path) }

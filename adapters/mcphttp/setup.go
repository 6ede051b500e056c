package mcphttp

import "time"

// Setup is what the cmd reads before it builds the corpora's handlers:
// which corpora to serve, the tokens, and the Host and Origin allowances.
// It keeps in one place the choice between one corpus given by flags and
// the corpora of a config file, and whether tokens are required.
type Setup struct {
	// Corpora to serve: the config file's, each at /mcp/<name>, or the one
	// given by flags, with the empty name, at /mcp.
	Corpora []CorpusConfig
	// Tokens are the config's scoped tokens and the token file's; nil
	// when neither gives one, and then the server must stay on loopback.
	Tokens *Tokens
	// AllowedHosts and AllowedOrigins come from the config file.
	AllowedHosts, AllowedOrigins []string
	// Limits come from the config file: zero, the defaults, without one.
	Limits Limits
}

// Apply sets the limits of s in the front's and the server's options.
func (s *Setup) Apply(front *Options, server *ServerOptions) {
	l := s.Limits
	front.MaxBodyBytes, front.MaxInFlight, front.MaxBodies = l.MaxBodyBytes, l.MaxInFlight, l.MaxBodies
	front.MaxStreams, front.StreamLife = l.MaxStreams, time.Duration(l.StreamLife)
	server.ReadHeaderTimeout, server.ReadTimeout = time.Duration(l.ReadHeaderTimeout), time.Duration(l.ReadTimeout)
	server.WriteTimeout, server.IdleTimeout = time.Duration(l.WriteTimeout), time.Duration(l.IdleTimeout)
	server.MaxConns, server.MaxNewConns, server.FirstByteTimeout = l.MaxConns, l.MaxNewConns, time.Duration(l.FirstByteTimeout)
}

// LoadSetup reads the config file (when configFile is not empty; then
// single is ignored) and the token file (when tokenFile is not empty).
// Without a config file, single (Name ignored) is the only corpus, and
// without a token file it is served without authentication (on loopback
// only). A config file must give a token (its tokens, or the token file)
// unless it says auth: none, and then it must give none. Errors are a
// *ConfigError or a *TokenFileError.
func LoadSetup(configFile, tokenFile string, single CorpusConfig) (*Setup, error) {
	s := &Setup{}
	var scoped []TokenConfig
	if configFile != "" {
		cfg, err := LoadConfig(configFile)
		if err != nil {
			return nil, err
		}
		s.Corpora, scoped = cfg.Corpora, cfg.Tokens
		s.AllowedHosts, s.AllowedOrigins, s.Limits = cfg.AllowedHosts, cfg.AllowedOrigins, cfg.Limits
		switch {
		case cfg.Auth == AuthNone && tokenFile != "":
			return nil, &ConfigError{Path: configFile, Problems: []string{"auth: none, but --token-file is given: remove one or the other"}}
		case cfg.Auth != AuthNone && tokenFile == "" && len(scoped) == 0:
			return nil, &ConfigError{Path: configFile, Problems: []string{
				"no token is given: list tokens, give --token-file, or write auth: none to serve without authentication (loopback only)"}}
		}
	} else {
		single.Name = ""
		s.Corpora = []CorpusConfig{single}
	}
	if tokenFile != "" || len(scoped) > 0 {
		tokens, err := LoadTokens(tokenFile, scoped)
		if err != nil {
			return nil, err
		}
		s.Tokens = tokens
	}
	return s, nil
}

// Package lazyregexp holds regular expressions that compile on first use.
//
// Every process of adrkit pays for its package-level variables before main
// runs, and a hook starts a process on every edit an agent makes: a
// pattern that only migrate or a YAML error path needs should not be
// compiled by `adrkit hook` or `adrkit --version`. A Regexp is declared
// where a regexp.MustCompile would be and used the same way; an invalid
// pattern still panics, on first use instead of at start-up (the tests of
// the declaring package use every pattern, so they find it).
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is a regexp.Regexp compiled the first time a method needs it.
// It is safe for concurrent use, as regexp.Regexp is.
type Regexp struct {
	pattern string
	compile func() *regexp.Regexp
}

// New returns a Regexp for pattern, compiled on first use with
// regexp.MustCompile.
func New(pattern string) *Regexp {
	return &Regexp{pattern: pattern, compile: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })}
}

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.compile().MatchString(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.compile().FindStringSubmatch(s) }

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.compile().FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.compile().FindAllStringSubmatchIndex(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.compile().ReplaceAllString(src, repl)
}

// Split is regexp.Regexp.Split.
func (r *Regexp) Split(s string, n int) []string { return r.compile().Split(s, n) }

// String is the source text of the expression; it does not compile it.
func (r *Regexp) String() string { return r.pattern }

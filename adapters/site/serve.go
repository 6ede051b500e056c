package site

import (
	"mime"
	"net/http"
	"path"
	"strings"
	"sync/atomic"

	"github.com/adrkit/adrkit-go/internal/loopback"
)

// Handler serves the latest build set with Set, from memory: the
// preview of adrkit site --serve. "/" and a directory serve its
// index.html; anything else not in the build is 404. A request whose
// Host is not a loopback name or address is refused with 421 (the
// preview listens on loopback only, and a page elsewhere that made its
// own name resolve to 127.0.0.1 must not read the decisions).
type Handler struct {
	files atomic.Pointer[Files]
}

// Set replaces the build being served; requests already answering keep
// the one they started with.
func (h *Handler) Set(f Files) { h.files.Store(&f) }

// ServeHTTP answers GET and HEAD.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !loopback.Host(r.Host) {
		http.Error(w, "this preview answers only to a loopback host name or address", http.StatusMisdirectedRequest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	f := h.files.Load()
	if f == nil {
		http.Error(w, "the site is being built", http.StatusServiceUnavailable)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" || strings.HasSuffix(r.URL.Path, "/") {
		name = path.Join(name, "index.html")
	}
	data, ok := (*f)[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'")
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(data)
}

//lint:file-ignore SA1019 go-sdk marks roots deprecated from revision 2026-07-28 on; they are asked for only on the handshake revisions, which have them.

package mcp

import (
	"context"
	"net/url"
	"path"
	"runtime"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ClientRoots is what a client answered when asked for its workspace
// roots (MCP roots/list), for Options.Locate.
type ClientRoots struct {
	// Dirs are the local paths its file: roots name, in the client's
	// order.
	Dirs []string
	// Skipped counts the roots that name no local path: another scheme,
	// a remote host, a relative or malformed URI.
	Skipped int
	// Err says the client did not list them: it answered with an error,
	// not in time, or its input ended first.
	Err error
}

// rootsWait bounds one roots/list: tool calls wait for its answer, and a
// client that declared roots but never answers must not hold them for
// good.
const rootsWait = 10 * time.Second

// notificationRootsChanged is the client's word that its roots changed.
const notificationRootsChanged = "notifications/roots/list_changed"

// roots is one stdio connection's service when the composition root
// finds the corpus from the client (Options.Locate): the one it was
// given until the client's roots are known, then the one Locate returns
// for them, replaced whenever the client says they changed. A tool call
// waits while they are being asked for.
type roots struct {
	locate func(context.Context, ClientRoots) ToolService
	// life is the connection's context: an answer outlives the
	// notification that asked for it.
	life context.Context

	mu      sync.Mutex
	current ToolService
	// offered: the client's last initialize declared the roots capability.
	offered bool
	// asked counts the askings started; only the latest one's answer is
	// used.
	asked int
	// pending is closed when the latest asking is answered; nil when none
	// is in flight.
	pending chan struct{}
}

// service is the service a tool call is answered by, once no asking is
// in flight (or the call is cancelled while it waits).
func (r *roots) service(ctx context.Context) ToolService {
	for {
		r.mu.Lock()
		svc, pending := r.current, r.pending
		r.mu.Unlock()
		if pending == nil {
			return svc
		}
		select {
		case <-pending:
		case <-ctx.Done():
			return svc
		}
	}
}

// note follows the messages that bear on the roots: an initialize says
// whether the client has them; once it is initialized, and whenever it
// says they changed, it is asked for them.
func (r *roots) note(method string, req sdk.Request) {
	switch method {
	case methodInitialize:
		params, _ := req.GetParams().(*sdk.InitializeParams)
		r.mu.Lock()
		r.offered = params != nil && params.Capabilities != nil && params.Capabilities.RootsV2 != nil
		r.mu.Unlock()
	case methodInitialized, notificationRootsChanged:
		if ss, ok := req.GetSession().(*sdk.ServerSession); ok {
			r.ask(ss)
		}
	}
}

// ask asks the client for its roots, unless it declared none, and
// swaps in the service Locate returns for the answer. It returns at
// once: notifications are handled on the connection's read loop, which
// must go on to read the answer.
func (r *roots) ask(ss *sdk.ServerSession) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.offered {
		return
	}
	r.asked++
	n := r.asked
	if r.pending == nil {
		r.pending = make(chan struct{})
	}
	go func() {
		ctx, cancel := context.WithTimeout(r.life, rootsWait)
		defer cancel()
		var found ClientRoots
		var res *sdk.ListRootsResult
		err := ctx.Err() // once the input has ended, nothing is sent
		if err == nil {
			res, err = ss.ListRoots(ctx, nil)
		}
		if err != nil {
			found.Err = err
		} else {
			for _, root := range res.Roots {
				if dir, ok := localPath(root.URI, runtime.GOOS == "windows"); ok {
					found.Dirs = append(found.Dirs, dir)
				} else {
					found.Skipped++
				}
			}
		}
		svc := r.locate(ctx, found)
		r.mu.Lock()
		defer r.mu.Unlock()
		if n == r.asked {
			r.current = svc
			close(r.pending)
			r.pending = nil
		}
	}()
}

// localPath is the local path a root's URI names: a file: URI with an
// absolute, percent-decoded path and no query or fragment. On Windows
// (windows) the path may start with a drive letter (file:///C:/work,
// file://C:/work) or name a share (file://server/share), and comes back
// with backslashes; elsewhere the host must be empty or localhost.
func localPath(uri string, windows bool) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || !strings.EqualFold(u.Scheme, "file") || u.Opaque != "" || u.RawQuery != "" || u.Fragment != "" ||
		u.Path == "" || strings.ContainsRune(u.Path, 0) {
		return "", false
	}
	host, p := u.Host, path.Clean("/"+u.Path)
	if strings.EqualFold(host, "localhost") {
		host = ""
	}
	switch {
	case !windows && host == "":
		return p, true
	case !windows:
		return "", false
	case isDrive(host):
		p = host + p
	case host != "" && p != "/":
		return `\\` + host + strings.ReplaceAll(p, "/", `\`), true
	case len(p) >= 3 && isDrive(p[1:3]):
		p = p[1:]
		if len(p) == 2 {
			p += "/" // C: alone is the drive's current directory, C:/ its root
		}
	default:
		return "", false // no share, or a rooted path without a drive: relative to the current drive
	}
	return strings.ReplaceAll(p, "/", `\`), true
}

// isDrive says s is a drive letter and its colon ("C:").
func isDrive(s string) bool {
	return len(s) == 2 && s[1] == ':' && ('a' <= s[0]|0x20 && s[0]|0x20 <= 'z')
}

package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// The server runs code on the learner's machine and holds the learner's programs and progress, so
// it guards itself against the other sites open in the same browser and against the other users of
// the same machine (who can reach any port of 127.0.0.1):
//
//   - It listens on loopback unless told otherwise (IsLoopback helps the command decide), on a port
//     new at every start (DefaultAddr), and the address it gives names the address listened on,
//     checked to reach this server (StartURL, Claim): a browser trusts an origin, and another user
//     may have held that port, or hold the same port on ::1, and serve a page of the same origin.
//   - Every request must name the server in its Host header: localhost, a loopback address or the
//     address it listens on, with its port. A page of another site that a DNS trick resolves to
//     127.0.0.1 still sends its own name, and gets 403 (DNS rebinding).
//   - The session token is made at start and handed only to the learner: in the fragment of the
//     address printed to the learner's terminal (…/ru/#token=…, which no browser sends to a server),
//     or, with --open, in a file only the learner may read (see OpenFile). The page keeps it in its
//     origin's storage, which is the origin's alone (scheme, host and port), and sends it in the
//     X-Workbook-Token header. There is no cookie: a browser sends a cookie of 127.0.0.1 to every
//     port of 127.0.0.1, so another local user's server on another port would receive it.
//   - A GET (a navigation, which cannot carry the header) gets only what is not private: the shell
//     of a page and the static files (shell.go). The learner's programs and progress come from POST
//     /api/page, with the token.
//   - A request that reads anything private, changes anything or runs code is a POST with a JSON
//     body and the token in its header; a JSON body and the header also make the browser ask before
//     sending such a request across origins, and the server never says yes.
//   - A POST that comes with an Origin (browsers send one) must come from the server's own origin,
//     its port included, and one marked Sec-Fetch-Site: cross-site is refused.

// TokenHeader is the header that carries the session token.
const TokenHeader = "X-Workbook-Token"

// NewToken returns a fresh random session token.
func NewToken() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic("web: no randomness for the session token: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// IsLoopback reports whether host (a name or an IP address, without a port) is this machine only:
// localhost or a loopback address.
func IsLoopback(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// guard decides which hosts may be named in requests.
type guard struct {
	token    string
	port     string
	names    map[string]bool // host names and addresses accepted in Host
	anyIP    bool            // listening on every interface: any IP address is one of ours
	loopback bool            // listening on loopback only
}

func newGuard(addr, token string) *guard {
	g := &guard{token: token, names: map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	g.port = port
	host = strings.ToLower(strings.Trim(host, "[]"))
	ip := net.ParseIP(host)
	switch {
	case host == "" || ip != nil && ip.IsUnspecified():
		g.anyIP = true
		if name, err := os.Hostname(); err == nil {
			g.names[strings.ToLower(name)] = true
		}
	default:
		g.names[host] = true
	}
	g.loopback = !g.anyIP && IsLoopback(host)
	return g
}

// hostOK reports whether a Host header names this server.
func (g *guard) hostOK(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, ""
	}
	if g.port != "" && port != g.port {
		return false
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if g.names[host] {
		return true
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback() || g.anyIP
	}
	return false
}

// check returns the HTTP status to refuse r with, or 0 when r may go on. post tells a request that
// changes something or runs code.
func (g *guard) check(r *http.Request, post bool) (int, string) {
	if !g.hostOK(r.Host) {
		return http.StatusForbidden, "web_err_host"
	}
	if !post {
		return 0, ""
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return http.StatusForbidden, "web_err_origin"
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host != r.Host || (u.Scheme != "http" && u.Scheme != "https") {
			return http.StatusForbidden, "web_err_origin"
		}
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return http.StatusUnsupportedMediaType, "web_err_json"
	}
	if !g.tokenOK(r.Header.Get(TokenHeader)) {
		return http.StatusForbidden, "web_err_token"
	}
	return 0, ""
}

// tokenOK reports whether t is the session token.
func (g *guard) tokenOK(t string) bool {
	return t != "" && subtle.ConstantTimeCompare([]byte(t), []byte(g.token)) == 1
}

// secure sets the headers every response gets: nothing is loaded from elsewhere, nothing frames
// the pages, no referrer leaves them.
func secure(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}

package webui

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// OwnerOnly guards a local UI (local mode, a local session, `spindle
// history`) as Jupyter guards a notebook server: the loopback port is
// open to every user of the machine, so each request must carry the
// token the owner's terminal printed in the UI= URL. A browser brings it
// once, in the query (?token=), and is given a cookie for it and sent to
// the same URL without it, so that the token leaves the address bar;
// scripts (curl, a Prometheus scrape) send it in an Authorization header
// ("Bearer TOKEN", or Jupyter's "token TOKEN") or in the query. Any
// other request is refused (403), whatever its path: task output, the
// REST API, /metrics and /status.* alike.
type OwnerOnly struct {
	// Token is the secret (NewOwnerOnly's: 256 random bits, hex).
	Token string
	// Cookie names the cookie the token is exchanged for. A browser
	// sends a host's cookies to all its ports, so each UI's is named by
	// its port (as Jupyter's are), and two UIs on 127.0.0.1 do not
	// overwrite each other's.
	Cookie string
}

// NewOwnerOnly makes a fresh token for the UI listening at addr.
func NewOwnerOnly(addr net.Addr) OwnerOnly {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand: it crashes the program rather)
	o := OwnerOnly{Token: hex.EncodeToString(b), Cookie: "spindle-ui"}
	if tcp, ok := addr.(*net.TCPAddr); ok {
		o.Cookie += "-" + strconv.Itoa(tcp.Port)
	}
	return o
}

// URL is the UI's address for its owner, token included: the UI= line
// printed to the owner's terminal and kept in a local session's
// owner-only record, and nowhere else.
func (o OwnerOnly) URL(addr net.Addr) string {
	return "http://" + addr.String() + "/?token=" + o.Token
}

// Handler serves next to the requests o lets through. A token in the
// query goes no further: a browser is sent on without it (signIn), and
// next never sees it.
func (o OwnerOnly) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := r.URL.Query(); o.valid(q.Get("token")) {
			if navigating(r) {
				o.signIn(w, r, q)
				return
			}
			q.Del("token")
			r = r.Clone(r.Context())
			r.URL.RawQuery = q.Encode()
			r.RequestURI = r.URL.RequestURI()
			next.ServeHTTP(w, r)
			return
		}
		c, err := r.Cookie(o.Cookie)
		if (err == nil && o.valid(c.Value)) || o.valid(authorization(r)) {
			next.ServeHTTP(w, r)
			return
		}
		http.Error(w, "403 forbidden: this UI answers only the user who started it; open the UI= address it printed", http.StatusForbidden)
	})
}

// signIn gives a browser that brought the token in the query q its
// cookie, and sends it to the same URL without the token.
func (o OwnerOnly) signIn(w http.ResponseWriter, r *http.Request, q url.Values) {
	http.SetCookie(w, &http.Cookie{Name: o.Cookie, Value: o.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	q.Del("token")
	target := r.URL.EscapedPath()
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	// The token is in the URL that led here: give it to no other site.
	w.Header().Set("Referrer-Policy", "no-referrer")
	if r.Header.Get("Sec-Fetch-Site") != "cross-site" {
		http.Redirect(w, r, target, http.StatusFound)
		return
	}
	// Followed from another site's link, a redirect would go on as that
	// site's request, which a browser sends no SameSite=Strict cookie
	// with; a page of this site's own that moves on is this site's.
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html>\n<meta http-equiv=\"refresh\" content=\"0;url=%[1]s\">\n<a href=\"%[1]s\">Spindle's UI</a>\n", html.EscapeString(target))
}

// valid says whether token is o's, comparing in constant time, so that
// how long a refusal takes says nothing about how much of a guess was
// right.
func (o OwnerOnly) valid(token string) bool {
	return o.Token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(o.Token)) == 1
}

// authorization is the token in r's Authorization header, "" for none.
func authorization(r *http.Request) string {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !(strings.EqualFold(scheme, "Bearer") || strings.EqualFold(scheme, "token")) {
		return ""
	}
	return strings.TrimSpace(token)
}

// navigating says whether r is a browser loading a page, which follows
// a redirect and keeps a cookie; a script asking with the token in the
// query is answered at once.
func navigating(r *http.Request) bool {
	if m := r.Header.Get("Sec-Fetch-Mode"); m != "" {
		return m == "navigate"
	}
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

package webui

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"
)

// ProxyUserCookie is the cookie in which the RM's web proxy names the user
// it authenticated (WebAppProxyServlet's PROXY_USER_COOKIE_NAME), URL
// encoded; it sends none for an anonymous user.
const ProxyUserCookie = "proxy-user"

// proxyHostsRefresh is how long the proxy hosts' addresses are trusted
// before they are looked up again (AmIpFilter's 5 minutes): a proxy that
// moves is followed without a restart.
const proxyHostsRefresh = 5 * time.Minute

// proxyHostsRetry is how soon a lookup that failed is tried again.
const proxyHostsRetry = 10 * time.Second

// WebAccess guards the tracking page (the UI and its /status.json API) as
// Hadoop's AmIpFilter guards an ApplicationMaster's web app, and applies
// the application's view ACLs to the user the proxy authenticated:
//
//   - a request that does not come from one of ProxyHosts is redirected to
//     the same path under ProxyBase, so that nobody reaches the page
//     around the proxy's authentication;
//   - a request from the proxy is served when View allows its user, the
//     proxy-user cookie's ("" when the proxy names none); otherwise 403.
type WebAccess struct {
	// ProxyHosts are the hosts the web proxy connects from: the host of
	// yarn.web-proxy.address, else of each ResourceManager's web app.
	ProxyHosts []string
	// ProxyBase is the application's page behind the proxy
	// (http://rm:8088/proxy/<app>), with no trailing slash.
	ProxyBase string
	// View says whether user may view the application; nil lets everyone
	// the proxy sends.
	View func(user string) error
	// LookupIP resolves a proxy host; nil is net.DefaultResolver's.
	LookupIP func(ctx context.Context, host string) ([]net.IP, error)

	mu      sync.Mutex
	proxies []net.IP
	expires time.Time
}

// Handler serves next to the requests w lets through.
func (w *WebAccess) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if !w.fromProxy(r) {
			// Only the path: the proxy adds the tracking URL's own.
			target := w.ProxyBase + r.URL.EscapedPath()
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(rw, r, target, http.StatusFound)
			return
		}
		user := ""
		if c, err := r.Cookie(ProxyUserCookie); err == nil {
			if user, err = url.QueryUnescape(c.Value); err != nil {
				http.Error(rw, "the proxy-user cookie is not URL-encoded: "+err.Error(), http.StatusBadRequest)
				return
			}
		}
		if w.View != nil {
			if err := w.View(user); err != nil {
				who := "an anonymous user (the ResourceManager's web proxy authenticated nobody)"
				if user != "" {
					who = "user " + user
				}
				http.Error(rw, who+" "+err.Error(), http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(rw, r)
	})
}

// fromProxy says whether r's peer is one of the proxy hosts' addresses.
func (w *WebAccess) fromProxy(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	peer := net.ParseIP(host)
	if err != nil || peer == nil {
		return false
	}
	return slices.ContainsFunc(w.proxyAddrs(r.Context()), peer.Equal)
}

// proxyAddrs are the proxy hosts' addresses, looked up again once the
// last lookup is proxyHostsRefresh old (proxyHostsRetry after a failed
// one). A host that does not resolve adds none: its requests are then
// redirected, never let through.
func (w *WebAccess) proxyAddrs(ctx context.Context) []net.IP {
	w.mu.Lock()
	defer w.mu.Unlock()
	if now := time.Now(); now.After(w.expires) {
		lookup := w.LookupIP
		if lookup == nil {
			lookup = func(ctx context.Context, host string) ([]net.IP, error) {
				return net.DefaultResolver.LookupIP(ctx, "ip", host)
			}
		}
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		var addrs []net.IP
		refresh := proxyHostsRefresh
		for _, h := range w.ProxyHosts {
			if ip := net.ParseIP(h); ip != nil {
				addrs = append(addrs, ip)
				continue
			}
			ips, err := lookup(ctx, h)
			if err != nil {
				refresh = proxyHostsRetry
			}
			addrs = append(addrs, ips...)
		}
		w.proxies, w.expires = addrs, now.Add(refresh)
	}
	return w.proxies
}

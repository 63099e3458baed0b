package webui

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The tracking page behind the RM's web proxy: requests from elsewhere
// go to the proxy, and the proxy's user must be one View allows.
func TestWebAccessLetsOnlyTheProxysAllowedUsersIn(t *testing.T) {
	var asked []string
	w := &WebAccess{
		ProxyHosts: []string{"rm.example", "192.0.2.10"},
		ProxyBase:  "http://rm.example:8088/proxy/application_1_0001",
		View: func(user string) error {
			asked = append(asked, user)
			if user == "alice" || user == "bob@EXAMPLE.COM" {
				return nil
			}
			return errors.New("may not view this application")
		},
		LookupIP: func(_ context.Context, host string) ([]net.IP, error) {
			if host == "rm.example" {
				return []net.IP{net.ParseIP("192.0.2.1"), net.ParseIP("2001:db8::1")}, nil
			}
			return nil, errors.New("no such host")
		},
	}
	page := w.Handler(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { rw.Write([]byte("the page")) }))
	get := func(peer, target, cookie string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", target, nil)
		r.RemoteAddr = peer
		if cookie != "" {
			r.Header.Set("Cookie", ProxyUserCookie+"="+cookie)
		}
		rec := httptest.NewRecorder()
		page.ServeHTTP(rec, r)
		return rec
	}
	for _, tc := range []struct {
		peer, target, cookie string
		code                 int
		body, location, user string
	}{
		// Around the proxy, even with the cookie: sent to the proxy,
		// path and query kept, nobody asked about.
		{peer: "198.51.100.7:4000", target: "/status.json?x=1", cookie: "alice", code: http.StatusFound,
			location: "http://rm.example:8088/proxy/application_1_0001/status.json?x=1"},
		{peer: "[2001:db8::2]:4000", target: "/", code: http.StatusFound, location: "http://rm.example:8088/proxy/application_1_0001/"},
		// From each of the proxy's addresses, resolved or literal.
		{peer: "192.0.2.1:4000", target: "/", cookie: "alice", code: 200, body: "the page", user: "alice"},
		{peer: "[2001:db8::1]:4000", target: "/status.json", cookie: "alice", code: 200, body: "the page", user: "alice"},
		{peer: "192.0.2.10:4000", target: "/", cookie: "bob%40EXAMPLE.COM", code: 200, body: "the page", user: "bob@EXAMPLE.COM"},
		// The proxy's user, refused; an anonymous one, refused.
		{peer: "192.0.2.1:4000", target: "/status.json", cookie: "mallory", code: http.StatusForbidden,
			body: "user mallory may not view this application", user: "mallory"},
		{peer: "192.0.2.1:4000", target: "/", code: http.StatusForbidden, body: "an anonymous user", user: ""},
		// A cookie that is not URL-encoded is a bad request, not a user.
		{peer: "192.0.2.1:4000", target: "/", cookie: "al%zzice", code: http.StatusBadRequest, body: "not URL-encoded"},
	} {
		asked = nil
		rec := get(tc.peer, tc.target, tc.cookie)
		if rec.Code != tc.code || !strings.Contains(rec.Body.String(), tc.body) || rec.Header().Get("Location") != tc.location {
			t.Errorf("%s from %s with %q: %d %q Location %q; want %d %q Location %q", tc.target, tc.peer, tc.cookie,
				rec.Code, rec.Body.String(), rec.Header().Get("Location"), tc.code, tc.body, tc.location)
		}
		wantAsked := tc.code == 200 || tc.code == http.StatusForbidden
		if wantAsked != (len(asked) == 1) || (wantAsked && asked[0] != tc.user) {
			t.Errorf("%s from %s with %q: View asked about %q, want %q", tc.target, tc.peer, tc.cookie, asked, tc.user)
		}
	}
}

// Without View every user the proxy sends is served; a proxy host that
// does not resolve lets nothing through.
func TestWebAccessWithoutACLs(t *testing.T) {
	w := &WebAccess{ProxyHosts: []string{"127.0.0.1", "gone.example"}, ProxyBase: "http://127.0.0.1:8088/proxy/a",
		LookupIP: func(context.Context, string) ([]net.IP, error) { return nil, errors.New("no such host") }}
	page := w.Handler(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {}))
	for peer, want := range map[string]int{"127.0.0.1:1": 200, "127.0.0.2:1": http.StatusFound} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = peer
		rec := httptest.NewRecorder()
		page.ServeHTTP(rec, r)
		if rec.Code != want {
			t.Errorf("from %s: %d, want %d", peer, rec.Code, want)
		}
	}
}

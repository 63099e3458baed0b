package integration

import (
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// other is the environment of another user of the Kerberized cluster
// (bob, carol: the harness's principals besides the test's own), logged
// in with kinit into a ticket cache of their own, sharing u's state
// directory: a user the owner gave the session's secret.
func (k kerberized) other(t *testing.T, u *sessionUser, name string) *sessionUser {
	t.Helper()
	_, realm, _ := strings.Cut(k.c.Principal, "@")
	cache := filepath.Join(t.TempDir(), "krb5cc-"+name)
	env := append(append([]string{}, u.env...), "KRB5CCNAME=FILE:"+cache)
	kinit(t, env, filepath.Join(filepath.Dir(k.c.Keytab), name+".keytab"), name+"@"+realm)
	return &sessionUser{t, env}
}

// With spindle.acls.enable on a secure cluster, an application's ACLs
// hold everywhere its users reach it: the RM gives client-to-AM tokens
// and kills only to whom they allow, the session serves a viewer's
// requests to view and refuses its requests to modify, and the tracking
// page (UI and /status.json) shows itself, through the RM's web proxy,
// only to the users the proxy authenticated that may view it, sending
// anyone who comes around the proxy to it.
func TestKerberosSessionACLs(t *testing.T) {
	for _, protection := range kerberosProtections {
		t.Run(protection, func(t *testing.T) {
			k := kerberizedCluster(t, protection)
			k.kinit(t)
			alice := k.sessionUser(t)
			bob, carol := k.other(t, alice, "bob"), k.other(t, alice, "carol")
			id := alice.startSession("--master", "yarn", "--name", "acl-session", "--conf", "spindle.executor.instances=1",
				"--conf", "spindle.executor.memory=512m", "--conf", "spindle.acls.enable=true", "--conf", "spindle.ui.view.acls=bob")

			if o, err := alice.run("submit", "--session", id, "--name", "owners", "--tasks", "1", "--", "true"); err != nil {
				t.Fatalf("the owner's job: %v\n%s", err, o)
			}
			// bob may view: he lists the jobs, and may not submit one.
			if o, err := bob.run("jobs", id); err != nil || !strings.Contains(o, "owners") {
				t.Errorf("a viewer's spindle jobs: %v\n%s", err, o)
			}
			if o, err := bob.run("submit", "--session", id, "--tasks", "1", "--", "true"); err == nil || !strings.Contains(o, "bob@") || !strings.Contains(o, "may not modify") {
				t.Errorf("a viewer's submission: %v\n%s", err, o)
			}
			// carol may not view: the RM shows her no more than a summary.
			if o, err := carol.run("jobs", id); err == nil || !strings.Contains(o, "the application's ACLs do not let this user view it") {
				t.Errorf("a stranger's spindle jobs: %v\n%s", err, o)
			}
			// Nobody but the owner kills it, and the refusal reads clearly.
			for name, who := range map[string]*sessionUser{"bob": bob, "carol": carol} {
				o, err := who.run("kill", id)
				if err == nil || !strings.Contains(o, "User "+name+" cannot perform operation MODIFY_APP") || strings.Contains(o, "\tat ") {
					t.Errorf("%s's kill: %v\n%s", name, err, o)
				}
			}

			// The tracking page through the RM's web proxy, which names
			// its user (?user.name=: the mini cluster's simple HTTP
			// authentication) in the proxy-user cookie; proxyapproved
			// passes the proxy's own "not your application" notice.
			proxied := appTrackingURL(t, k.c, id)
			if !strings.Contains(proxied, "/proxy/"+id) {
				t.Fatalf("the session's tracking URL %q is not the proxy's", proxied)
			}
			for _, tc := range []struct {
				user string
				code int
				says string
			}{
				{"alice", 200, `"app":"` + id + `"`},
				{"bob", 200, `"app":"` + id + `"`},
				{"carol", http.StatusForbidden, "user carol may not view this application"},
				{"", http.StatusForbidden, "an anonymous user"},
			} {
				url := strings.TrimSuffix(proxied, "/") + "/status.json?proxyapproved=true"
				if tc.user != "" {
					url += "&user.name=" + tc.user
				}
				code, body := httpGet(t, http.DefaultClient, url)
				if code != tc.code || !strings.Contains(body, tc.says) {
					t.Errorf("%s through the proxy as %q: %d\n%s\nwant %d saying %q", url, tc.user, code, body, tc.code, tc.says)
				}
				if code == 200 {
					var st map[string]any
					if err := json.Unmarshal([]byte(body), &st); err != nil {
						t.Errorf("the status as %s is not JSON: %v", tc.user, err)
					}
				}
			}

			// Around the proxy: from an address that is not the proxy's,
			// even with a forged cookie, the page is not served but sent
			// to the proxy.
			m := regexp.MustCompile(`tracking_url="?(http://[^ "]+)`).FindStringSubmatch(amLog(t, k.c, id))
			if m == nil {
				t.Fatal("the AM's log names no tracking URL")
			}
			dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}, Timeout: 10 * time.Second}
			around := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext},
				CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			req, _ := http.NewRequest("GET", m[1]+"status.json", nil)
			req.Header.Set("Cookie", "proxy-user=alice")
			resp, err := around.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if want := "http://" + k.c.RMWebAddress + "/proxy/" + id + "/status.json"; resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != want {
				t.Errorf("the AM's page from 127.0.0.2: %d to %q, want %d to %q", resp.StatusCode, resp.Header.Get("Location"), http.StatusFound, want)
			}

			if app, err := rmApp(t, k.c, id); err != nil || app.State != "RUNNING" {
				t.Errorf("the session after the refusals: %+v, %v; want it RUNNING", app, err)
			}
		})
	}
}

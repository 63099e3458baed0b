package appmaster

import (
	"slices"
	"testing"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

// The proxy hosts and the page a bypassing request is sent to follow
// Hadoop's settings: the RM's web app, every RM's under HA, HTTPS under
// HTTPS_ONLY, a standalone proxy when there is one; the path the
// NodeManager gives, else /proxy/<app>.
func TestWebAccessFollowsTheProxySettings(t *testing.T) {
	for _, tc := range []struct {
		name  string
		conf  map[string]string
		env   map[string]string
		hosts []string
		base  string
	}{
		{"one RM", map[string]string{"yarn.resourcemanager.hostname": "rm1.example"},
			map[string]string{"APPLICATION_WEB_PROXY_BASE": "/proxy/application_7_0003"},
			[]string{"rm1.example"}, "http://rm1.example:8088/proxy/application_7_0003"},
		{"webapp address", map[string]string{"yarn.resourcemanager.webapp.address": "10.0.0.5:18088"}, nil,
			[]string{"10.0.0.5"}, "http://10.0.0.5:18088/proxy/application_7_0003"},
		{"HA", map[string]string{"yarn.resourcemanager.ha.enabled": "true", "yarn.resourcemanager.ha.rm-ids": "a,b",
			"yarn.resourcemanager.hostname.a": "rma.example", "yarn.resourcemanager.hostname.b": "rmb.example"}, nil,
			[]string{"rma.example", "rmb.example"}, "http://rma.example:8088/proxy/application_7_0003"},
		{"HTTPS only", map[string]string{"yarn.http.policy": "HTTPS_ONLY", "yarn.resourcemanager.hostname": "rm1.example"}, nil,
			[]string{"rm1.example"}, "https://rm1.example:8090/proxy/application_7_0003"},
		{"standalone proxy", map[string]string{"yarn.web-proxy.address": "proxy.example:9046", "yarn.resourcemanager.hostname": "rm1.example"},
			map[string]string{"APPLICATION_WEB_PROXY_BASE": "/proxy/application_7_0003/"},
			[]string{"proxy.example"}, "http://proxy.example:9046/proxy/application_7_0003"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hconf := hadoopconf.New(hadoopconf.Env{})
			for k, v := range tc.conf {
				hconf.Set(k, v)
			}
			w, err := webAccess(hconf, "application_7_0003", settings.AppACLs{}, func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(w.ProxyHosts, tc.hosts) || w.ProxyBase != tc.base {
				t.Errorf("proxy hosts %q, base %q; want %q, %q", w.ProxyHosts, w.ProxyBase, tc.hosts, tc.base)
			}
		})
	}
}

// The page's viewers are the application's: with ACLs on, its owner and
// spindle.ui.view.acls; off, everyone, anonymous users too.
func TestWebAccessUsesTheViewACLs(t *testing.T) {
	hconf := hadoopconf.New(hadoopconf.Env{})
	for line, allowed := range map[string]map[string]bool{
		"spindle.acls.enable=true":  {"alice": true, "bob": true, "carol": false, "": false},
		"spindle.acls.enable=false": {"alice": true, "bob": true, "carol": true, "": true},
	} {
		conf, err := config.Load(nil, []string{line, "spindle.ui.view.acls=bob"})
		if err != nil {
			t.Fatal(err)
		}
		acls, err := settings.ACLs(conf, "alice")
		if err != nil {
			t.Fatal(err)
		}
		acls = acls.GroupsFrom(nil)
		w, err := webAccess(hconf, "application_7_0003", acls, func(string) (string, bool) { return "", false })
		if err != nil {
			t.Fatal(err)
		}
		for user, ok := range allowed {
			if err := w.View(user); (err == nil) != ok {
				t.Errorf("%s: view by %q: %v, want allowed %v", line, user, err, ok)
			}
		}
	}
}

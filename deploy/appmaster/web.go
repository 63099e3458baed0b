package appmaster

import (
	"net"
	"strings"

	"github.com/spindle-yarn/spindle/am/webui"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

// webAccess is how the AM's tracking page is guarded on YARN: only the
// RM's web proxy may fetch it (the proxy hosts as Hadoop's
// WebAppUtils.getProxyHostsAndPortsForAmFilter finds them: the standalone
// proxy of yarn.web-proxy.address, else every ResourceManager's web app,
// over HTTPS under yarn.http.policy HTTPS_ONLY), everyone else is sent to
// the application's page there, and the proxy's user must be one the
// application's view ACLs allow. A standby RM's web app forwards to the
// active one, so the first RM is as good a place to send a user as any.
func webAccess(hconf *hadoopconf.Conf, appID string, acls settings.AppACLs, lookupEnv func(string) (string, bool)) (*webui.WebAccess, error) {
	policy := strings.ToUpper(strings.TrimSpace(hconf.GetDefault("yarn.http.policy", "HTTP_ONLY")))
	scheme, service := "http", hadoopconf.RMWebappAddress
	if policy == "HTTPS_ONLY" {
		scheme, service = "https", hadoopconf.RMWebappHTTPSAddress
	}
	var addrs []string
	if proxy := strings.TrimSpace(hconf.GetDefault("yarn.web-proxy.address", "")); proxy != "" {
		addrs = []string{proxy}
	} else {
		eps, err := hconf.RMAddresses(service)
		if err != nil {
			return nil, err
		}
		for _, ep := range eps {
			addrs = append(addrs, ep.Address)
		}
	}
	w := &webui.WebAccess{View: func(user string) error { return acls.Check(user, false) }}
	for _, a := range addrs {
		host, _, err := net.SplitHostPort(a)
		if err != nil {
			host = a
		}
		w.ProxyHosts = append(w.ProxyHosts, host)
	}
	// The NodeManager tells the AM its page's path on the proxy.
	base, ok := lookupEnv("APPLICATION_WEB_PROXY_BASE")
	if !ok || base == "" {
		base = "/proxy/" + appID
	}
	w.ProxyBase = scheme + "://" + addrs[0] + strings.TrimSuffix(base, "/")
	return w, nil
}

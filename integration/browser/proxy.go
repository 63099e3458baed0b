package browser

import "strings"

// proxyWarning is the heading of the page the RM's web proxy shows,
// instead of the application's, to a user who is not the application's
// owner on a secure cluster (Hadoop's WebAppProxyServlet.warnUserPage).
const proxyWarning = "WARNING: The following page may not be safe!"

// PassProxyWarning does what a user does on the RM web proxy's "this
// page may not be safe" notice: clicks "here" to go on (the proxy then
// remembers the choice in a cookie), and returns the HTTP status of the
// application's page. On any other page it does nothing and returns 0.
func (b *Browser) PassProxyWarning() int {
	b.t.Helper()
	if !strings.Contains(b.Text(), proxyWarning) {
		return 0
	}
	return b.Click("here")
}

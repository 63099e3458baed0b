package appmaster

import (
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/webui"
)

// serveTracking serves the tracking page on web (am/webui: the UI over
// the driver's history, its status and metrics), guarded by a.Web, until
// the function it returns is called.
func serveTracking(a appMaster, driver *am.Driver, observe am.Observation, web net.Listener) (stop func()) {
	base := ""
	if a.Web != nil {
		if u, err := url.Parse(a.Web.ProxyBase); err == nil {
			base = u.Path
		}
	}
	page := webui.TrackingHandler(webui.Tracking{UI: webui.Options{Store: observe.Store, Base: base}, Status: driver.Status,
		Metrics: observe.Metrics.Handler()})
	if a.Web != nil {
		page = a.Web.Handler(page)
	}
	tracking := &http.Server{Handler: page, ReadHeaderTimeout: 10 * time.Second}
	go tracking.Serve(web)
	return func() { tracking.Close() }
}

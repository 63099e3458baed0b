package am

import (
	"net/http"

	"github.com/spindle-yarn/spindle/am/webui"
)

// trackingPage is the tracking page the shells serve for d: the web UI
// over its history, its Status and its metrics (am/webui).
func trackingPage(d *Driver) http.Handler {
	t := webui.Tracking{UI: webui.Options{Store: d.cfg.Observe.Store}, Status: d.Status}
	if m := d.cfg.Observe.Metrics; m != nil {
		t.Metrics = m.Handler()
	}
	return webui.TrackingHandler(t)
}

package amtest

import (
	"net/http"

	"github.com/spindle-yarn/spindle/am/webui"
)

// TrackingPage is the driver's tracking page as the shells serve it: the
// web UI over its history (WithObservation), its Status and its metrics.
func (d *Driver) TrackingPage() http.Handler {
	t := webui.Tracking{UI: webui.Options{Store: d.observe.Store}, Status: d.Status}
	if m := d.observe.Metrics; m != nil {
		t.Metrics = m.Handler()
	}
	return webui.TrackingHandler(t)
}

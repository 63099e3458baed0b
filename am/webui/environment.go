package webui

import (
	"net/http"

	"github.com/spindle-yarn/spindle/am/history"
)

// The environment page and resource: the application's effective
// settings and where each came from, as its driver logged them when it
// started, secrets already redacted there (deploy/settings.Redact), as
// Spark's Environment tab shows them.

// environment is what the page and the resource show: none, not null,
// for an application whose log has no settings.
func (u *ui) environment() []history.Setting {
	env := u.o.Store.Environment()
	if env == nil {
		env = []history.Setting{}
	}
	return env
}

func (u *ui) environmentPage(w http.ResponseWriter, r *http.Request) {
	u.render(w, "environment", "Environment", u.environment())
}

func (u *ui) environmentAPI(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, u.environment())
}

package localmode

import (
	"fmt"
	"net"
	"os"
	"os/user"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/staging"
)

// localHistory is where a local application keeps its history: the UI's
// Store, served on a loopback port (nil when spindle.ui.enabled is
// false), and its event log under the user's state directory.
func localHistory(conf *config.Config, appID string, session bool) (am.History, net.Listener, error) {
	ui, err := settings.UISettings(conf)
	if err != nil {
		return am.History{}, nil, err
	}
	name, _ := conf.String("spindle.app.name")
	master, _ := conf.String("spindle.master")
	h := am.History{App: history.AppStarted{ID: appID, Name: name, Master: master, Session: session}, Limits: ui.Limits,
		Environment: settings.Environment(conf, os.LookupEnv)}
	if u, err := user.Current(); err == nil {
		h.App.User = u.Username
	}
	if ui.EventLog {
		dir, err := staging.LocalEventLogDir(ui.EventLogDir, appID)
		if err != nil {
			return am.History{}, nil, err
		}
		if h.Log, err = staging.Local().Segments(dir); err != nil {
			return am.History{}, nil, err
		}
	}
	if !ui.Enabled {
		return h, nil, nil
	}
	// Loopback, and to the owner's token alone (Program.UIOwner).
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", ui.Port))
	if err != nil {
		return am.History{}, nil, fmt.Errorf("the web UI (spindle.ui.port %d): %w", ui.Port, err)
	}
	return h, ln, nil
}

// UIURL is where a local application's web UI is, "" for none: its
// owner's, with the token (print it only to the owner's terminal, keep
// it only in owner-only files).
func UIURL(l Program) string {
	if l.UI == nil {
		return ""
	}
	return l.UIOwner.URL(l.UI.Addr())
}

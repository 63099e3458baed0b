package appmaster

import (
	"os"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

// appHistory is where the AM keeps the application's history: the UI's
// Store, and its event log in spindle.eventLog.dir on fs.defaultFS,
// which outlives the application for `spindle history`. The function
// returned closes the event log's file system. On a Kerberos cluster
// there is no event log: the AM may hold only delegation tokens, which
// the HDFS client that writes files cannot use (its journal, which the
// next attempt needs, then goes to the NameNode alone: journalStore).
func appHistory(conf *config.Config, c container, appID string, session bool, log logrus.FieldLogger) (am.History, func(), error) {
	ui, err := settings.UISettings(conf)
	if err != nil {
		return am.History{}, nil, err
	}
	name, _ := conf.String("spindle.app.name")
	h := am.History{App: history.AppStarted{ID: appID, Name: name, User: c.user, Master: "yarn", Session: session}, Limits: ui.Limits,
		Environment: settings.Environment(conf, os.LookupEnv)}
	if !ui.EventLog {
		return h, func() {}, nil
	}
	if method, _ := c.hconf.Authentication(); method == hadoopconf.AuthKerberos {
		log.Warn("no event log on a Kerberos cluster: spindle history will not show this application")
		return h, func() {}, nil
	}
	st, err := staging.New(c.hconf, c.user, nil)
	if err == nil {
		h.Log, err = st.Segments(staging.EventLogDir(ui.EventLogDir, c.user, appID))
		if err != nil {
			st.Close()
		}
	}
	if err != nil {
		log.WithError(err).Warn("no event log: spindle history will not show this application")
		return h, func() {}, nil
	}
	return h, func() { st.Close() }, nil
}

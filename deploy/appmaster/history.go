package appmaster

import (
	"context"
	"os"
	"time"

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
	go cleanEventLogs(c, staging.EventLogRoot(ui.EventLogDir, c.user), ui.Retention, log)
	return h, func() { st.Close() }, nil
}

// cleanTimeout bounds the AM's cleaning of the event log directory.
const cleanTimeout = 5 * time.Minute

// cleanEventLogs removes from root the logs of ended applications that
// r says have had their time (docs/ui.md, "What is kept"), from its own
// goroutine and Stager (a Stager is for one goroutine): the AM does not
// wait on it. The AM cannot ask the RM whether an application whose
// log has no end still runs, so it leaves those; spindle history,
// which can, removes them.
func cleanEventLogs(c container, root string, r history.Retention, log logrus.FieldLogger) {
	ctx, cancel := context.WithTimeout(context.Background(), cleanTimeout)
	defer cancel()
	if err := cleanEventLogDir(ctx, c, root, r); err != nil {
		log.WithError(err).WithField("dir", root).Warn("event log: could not clean the directory of old applications' logs")
	}
}

func cleanEventLogDir(ctx context.Context, c container, root string, r history.Retention) error {
	st, err := staging.New(c.hconf, c.user, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	dir, err := st.EventLogs(root)
	if err != nil {
		return err
	}
	_, _, err = dir.Tidy(ctx, r, time.Now(), func(string) bool { return true })
	return err
}

package appmaster

import (
	"os"
	"path"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

// journalStore is where the AM keeps its journal (am/journal): journal/
// in the application's staging directory, which the next attempt, on
// whichever node, finds, its segments' names carrying this attempt's
// number (appMaster.Attempt). The function returned closes it. On a
// Kerberos cluster the AM has only delegation tokens, which the HDFS
// client that writes files cannot use (removeWithToken): there is no
// journal, and a next attempt starts its work over (docs/reliability.md);
// nor with spindle.yarn.am.journal false, nor when the AM's own attempt
// number does not read.
func journalStore(c container, conf *config.Config, log logrus.FieldLogger) (journal.Store, func()) {
	none := func(err error, why string) (journal.Store, func()) {
		log.WithError(err).Warn(why + ": if this attempt fails, the next starts the work over")
		return nil, func() {}
	}
	dir, ok := os.LookupEnv("SPINDLE_STAGING_DIR")
	if !ok {
		return nil, func() {}
	}
	if on, err := conf.Bool("spindle.yarn.am.journal"); err == nil && !on {
		log.Warn("no journal (spindle.yarn.am.journal=false): if this attempt fails, the next starts the work over")
		return nil, func() {}
	}
	if method, _ := c.hconf.Authentication(); method == hadoopconf.AuthKerberos {
		log.Warn("no journal on a Kerberos cluster: if this attempt fails, the next starts the work over")
		return nil, func() {}
	}
	if _, err := ownAttempt(); err != nil {
		return none(err, "no journal, without this attempt's number to write it under")
	}
	st, err := staging.New(c.hconf, c.user, nil)
	if err != nil {
		return none(err, "no journal")
	}
	store, err := st.Segments(path.Join(dir, "journal"))
	if err != nil {
		st.Close()
		return none(err, "no journal")
	}
	return store, func() { st.Close() }
}

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
// whichever node, finds. The function returned closes it. On a Kerberos
// cluster the AM has only delegation tokens, which the HDFS client that
// writes files cannot use (removeWithToken): there is no journal, and a
// next attempt starts its work over (docs/reliability.md); nor with
// spindle.yarn.am.journal false.
func journalStore(c container, conf *config.Config, log logrus.FieldLogger) (journal.Store, func()) {
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
	st, err := staging.New(c.hconf, c.user, nil)
	if err != nil {
		log.WithError(err).Warn("no journal: if this attempt fails, the next starts the work over")
		return nil, func() {}
	}
	store, err := st.Segments(path.Join(dir, "journal"))
	if err != nil {
		st.Close()
		log.WithError(err).Warn("no journal: if this attempt fails, the next starts the work over")
		return nil, func() {}
	}
	return store, func() { st.Close() }
}
